// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What the UI tests wait for and compare, shared so that each is written once: a model
// document's run, a long document's computation, a trainer's run; model windows opened on the
// tiny GPT-2 fixture; long sessions; head edits compared field by field.

#include <cstdint>
#include <memory>
#include <vector>

#include <QSize>
#include <QString>
#include <QTemporaryDir>

#include "core/model/head_edit.h"
#include "ui/readers/session.h"

namespace attnlab {

class LongDocument;
class ModelDocument;
class ModelWindow;
class Seq2SeqDocument;
class TrainerPanel;

namespace testing {

// Waits (up to 20 s) until `doc` has no run in flight and none pending; false when it did not.
bool settled(const ModelDocument* doc);

// Waits (up to 20 s) until the translator's document has no run in flight and is not busy.
bool settled(const Seq2SeqDocument* doc);

// Waits (up to 2 min) until the long document computes nothing; false when it did not.
bool idle(const LongDocument* doc);

// How long a test waits for a training run: generous, the test machine is shared.
inline constexpr int kTrainerWaitMs = 60000;

// The trainer panel's run has stopped under its latest command (no waiting).
bool runSettled(const TrainerPanel& panel);
// Waits (up to kTrainerWaitMs) until runSettled(panel).
bool waitSettled(const TrainerPanel& panel);
// Trains `steps` steps with the panel's own controls and waits for the run to stop.
bool train(TrainerPanel& panel, int steps);

// A model window whose warnings go nowhere, on the tiny GPT-2 fixture written into `dir`.
struct OpenModel {
    QTemporaryDir dir;
    QString folder;
    std::unique_ptr<ModelWindow> window;
    OpenModel();
    ~OpenModel();
    OpenModel(const OpenModel&) = delete;
    OpenModel& operator=(const OpenModel&) = delete;
};
// Opens `o`'s window (resized to `size` when it is valid), shows it, runs `text` and waits for
// the run; a failure on the way is a fatal test failure (wrap in ASSERT_NO_FATAL_FAILURE).
void openModel(OpenModel& o, const QString& text = QStringLiteral("the cat sat."),
               QSize size = QSize());

// A random session for the long path: `n` tokens named t0, t1, …, d_model 8, d_v 4.
Session longSession(long n, attn::Mode mode = attn::Mode::Causal, long heads = 1, long dK = 8,
                    std::uint64_t seed = 7);

// True when both lists hold the same edits in the same order, every field equal.
bool sameEdits(const std::vector<attn::model::HeadEdit>& a,
               const std::vector<attn::model::HeadEdit>& b);

}  // namespace testing
}  // namespace attnlab
