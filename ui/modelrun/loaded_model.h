// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// An open checkpoint: its weights (core/model, mapped) and its tokenizer (core/tokenize), as the
// window, the command line and the tests open it, with the options every run of it uses and the
// head detectors' scores. QtCore only (library attnlab_modelrun): any thread.

#include <atomic>
#include <memory>
#include <mutex>

#include <QString>

#include "core/model/forward.h"
#include "core/model/head_detect.h"
#include "core/tokenize/tokenizer_loader.h"

namespace attnlab {

struct LoadedModel {
    attn::model::Model model;
    std::unique_ptr<attn::tok::Tokenizer> tokenizer;

    // The SHA-256 of model.safetensors (64 lower-case hex digits; empty if the file cannot be
    // read), computed on the first call and kept; callers on several threads wait for the one
    // computing it. Sessions record it to know the model again (session format version 2).
    [[nodiscard]] QString sha256() const;
    // Computes it ahead of need unless `stop` is set meanwhile (then nothing is kept).
    void prefetchSha256(const std::atomic<bool>& stop) const;

private:
    mutable std::mutex shaMutex_;
    mutable QString sha_;
    mutable bool shaDone_ = false;
};

// The SHA-256 of the file at `path` (64 lower-case hex digits), read through the bounded reader
// (ui/readers/bounded_read.h): a FIFO, device, socket or folder is refused by name without
// blocking. Empty with `problem` set (translated, without the path) when it cannot be read;
// empty with no problem when `stop` (checked between 4 MiB pieces) was set. A checkpoint is
// gigabytes: never called on the GUI thread.
QString fileSha256(const QString& path, QString& problem, const std::atomic<bool>* stop = nullptr);

// Opens the checkpoint in `folder` (weights mapped, tokenizer read); nullptr with `problem` (the
// file and the tensor or field) when it cannot. Any thread.
std::shared_ptr<const LoadedModel> loadModelFolder(const QString& folder, attn::Status& problem);
// The same with the problem in the reader's language (status_text.h).
std::shared_ptr<const LoadedModel> loadModelFolder(const QString& folder, QString& error);

// From this many tokens on a decoder's maps are kept pooled (ForwardOptions::poolAbove), to
// kModelPoolSide cells a side: 1,024, or ATTNLAB_POOL_ABOVE where it is set (tests, and anyone
// who wants pooled maps on a shorter text or whole maps on a longer one).
inline constexpr long kModelPoolAbove = 1024;
inline constexpr long kModelPoolSide = 512;
[[nodiscard]] long modelPoolAbove();

// The options every run of `loaded` uses (BERT: its [MASK] id to predict at; pooling as the
// window pools, or none with `wholeMaps`).
attn::model::ForwardOptions runOptions(const LoadedModel& loaded, bool wholeMaps = false);

// Every head's detector scores (core/model/head_detect.h) over sequences of the model's ordinary
// tokens (`spec.candidates` is filled here); `progress` as the forward pass's.
attn::Status detectHeadsOf(const LoadedModel& loaded, attn::model::DetectSpec spec,
                           attn::HeadScoreTable& table,
                           const attn::model::ProgressCallback& progress = {});

}  // namespace attnlab
