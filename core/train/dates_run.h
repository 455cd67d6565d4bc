// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// One training run of the dates translator, as `attnlab train-model --task dates` drives it:
// the vocabulary (two character SentencePiece models), a Marian-layout model, batches of
// training pairs drawn from the seed, AdamW under a warm-up and cosine schedule, and every
// `measureEvery` steps the measures (exact match of greedy translations on held-out dates of
// each form, every cross-attention head's alignment), kept for training.json.
//
// Deterministic: a spec gives the same losses, measures and parameters bit for bit on one
// machine (the measures read fixed examples and draw nothing).

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/train/dates_measure.h"
#include "core/train/dates_translator.h"
#include "core/train/gpt2_run.h"
#include "core/train/marian_train.h"

namespace attn::dates {

// The seed of the held-out examples that accuracy and alignment are measured on.
inline constexpr std::uint64_t kMeasureSeed = 20261204;
// Held-out dates per form of the measure after the last step.
inline constexpr long kFinalCount = 1000;
// The longest translation greedy decoding writes (the longest label has 19 ids).
inline constexpr long kMaxLabels = 24;

struct RunSpec {
    long encoderLayers = 2;
    long decoderLayers = 2;
    long heads = 4;
    long channels = 64;
    long steps = 1200;
    long batch = 32;
    double learningRate = 2e-3;
    std::uint64_t seed = 1;
    // Weights N(0, 0.1^2) rather than Marian's 0.02: at 0.02 the embeddings are small beside the
    // sinusoids, every head starts out attending by position (the year first), and one
    // head is 0.57 "aligned" before a step; at 0.1 none is above 0.43, and training is faster.
    double initStd = 0.1;
    long warmup = 100;
    double finalFraction = 0.05;    // the cosine decay's floor, a fraction of the rate
    long measureEvery = 250;        // and after the last step
    long measureCount = 100;        // held-out dates per form while training
    long alignCount = 200;          // held-out dates of the alignment (forms cycling)
    long finalCount = kFinalCount;  // held-out dates per form after the last step
    marian::Precision precision = marian::Precision::Float;

    [[nodiscard]] long ffn() const { return 4 * channels; }
};

struct Point {
    long step = 0;
    double loss = 0.0;
    std::array<double, kForms> accuracy{};  // per form
    Alignment alignment;
    [[nodiscard]] double meanAccuracy() const
    {
        return (accuracy[0] + accuracy[1] + accuracy[2]) / kForms;
    }
};

// The example whose cross-attention the window shows as it trains: 二〇二六年十二月四日 →
// December 4, 2026, with the pieces that label its maps' rows (labels) and columns (source).
struct LiveExample {
    std::string source, target;  // UTF-8
    EncodedPair pair;
    std::vector<std::string> sourcePieces, labelPieces;
};

// Alignment has formed once the best head is aligned on more than half the field tokens (at
// step 0 every head is at most that: the run's own goal).
inline constexpr double kAlignedThreshold = 0.5;
// The first of `points` whose best head passes kAlignedThreshold, or null.
const Point* alignmentFormed(const std::vector<Point>& points);

class TranslatorRun {
public:
    using Measure = Point;

    // ConfigField naming a size the model refuses; TokenizerSyntax if the vocabulary fails.
    static Status create(const RunSpec& spec, std::unique_ptr<TranslatorRun>& out);

    // One step; NonFinite leaves the parameters as they were.
    Status step();
    // The measures now, with `perForm` held-out dates per form (the spec's count when 0).
    Point measure(long perForm = 0);
    // Records the measures of the state the run stopped in, unless its last step was measured.
    void finish();

    [[nodiscard]] const RunSpec& spec() const { return spec_; }
    [[nodiscard]] const marian::Trainer& trainer() const { return *trainer_; }
    [[nodiscard]] marian::Trainer& trainer() { return *trainer_; }
    [[nodiscard]] const Vocabulary& vocabulary() const { return vocabulary_; }
    [[nodiscard]] const PairEncoder& encoder() const { return encoder_; }
    [[nodiscard]] const std::vector<double>& losses() const { return losses_; }
    [[nodiscard]] const std::vector<Point>& measures() const { return points_; }
    [[nodiscard]] const LiveExample& example() const { return example_; }
    // Every cross-attention head on the example, teacher forced: decoder layers x heads maps of
    // labels x source pieces. Empty if the forward pass fails.
    [[nodiscard]] gpt2::HeadMaps liveMaps();
    void setThreads(int threads) { trainer_->setThreads(threads); }
    // Wall time spent in the steps themselves (data, forward, backward, update), not in the
    // measures: what the speed benchmark compares.
    [[nodiscard]] double stepSeconds() const { return stepSeconds_; }

    // The folder's files (name, bytes): config.json, model.safetensors, source.spm, target.spm,
    // vocab.json, tokenizer_config.json, generation_config.json (folderNames() order, without
    // training.json).
    Status folderFiles(std::vector<std::pair<std::string, std::string>>& out) const;
    // training.json: who wrote it, the task, the command, the seed, the settings, the loss of
    // every step, the measures and the SHA-256 of each other file (`digests`, by name).
    [[nodiscard]] std::string trainingJson(const std::string& command, double seconds,
                                           const std::map<std::string, std::string>& digests) const;
    // The Marian folder with training.json, written whole under a temporary name and renamed
    // (gpt2::writeModelFolder): a kill mid-run leaves no folder that opens as a finished model.
    Status write(const std::string& folder, const std::string& command, double seconds) const;

private:
    TranslatorRun() = default;
    [[nodiscard]] double rateAt(long step) const;

    RunSpec spec_;
    Vocabulary vocabulary_;
    PairEncoder encoder_;
    std::optional<marian::Trainer> trainer_;  // optional: made in create(); copies with the run
    Rng rng_{1};
    std::vector<double> losses_;
    std::vector<Point> points_;
    double stepSeconds_ = 0.0;
    std::array<std::vector<EncodedPair>, kForms> accuracyPairs_;
    std::vector<EncodedPair> alignPairs_;
    LiveExample example_;
};

// The files of the folder a run writes, in the order written.
std::vector<std::string> folderNames();

// The model config of a spec, for this vocabulary.
marian::Config modelConfig(const RunSpec& spec, const Vocabulary& vocabulary);

}  // namespace attn::dates
