// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// One head's training on a worker thread (SteppedRun, ui/document/stepped_run.h): each snapshot
// brings the new losses, P of example 0 and the film-strip frames passed since the last one,
// and, when the worker stops, the loss of the current parameters and a copy of the trainer.

#include <map>
#include <memory>
#include <vector>

#include "core/train/trainer.h"
#include "ui/document/stepped_run.h"

namespace attnlab {

struct TrainSnapshot : RunStamp {
    int firstLoss = 0;                   // index of newLosses.front() in Trainer::losses()
    std::vector<double> newLosses;       // losses recorded since the previous snapshot
    attn::Matrix weights;                // the trained head's P on example 0, after `steps` steps
    std::map<int, attn::Matrix> frames;  // film-strip frames recorded since the last snapshot
    double loss = 0.0;                   // idle: the loss of the current parameters
    std::shared_ptr<const attn::Trainer> trainer;  // idle: a copy of the trainer (for Keep)
};

// The losses and frames of the whole run, gathered from its snapshots.
struct TrainState {
    std::vector<double> losses;
    std::map<int, attn::Matrix> frames;
};

class TrainStepper {
public:
    using Snapshot = TrainSnapshot;
    using State = TrainState;

    // `frames`: steps at which P is kept.
    TrainStepper(attn::Trainer trainer, std::vector<int> frames);
    void begin() { keepFrame(); }
    [[nodiscard]] long steps() const { return trainer_.steps(); }
    attn::Status step();
    Snapshot snapshot(RunStamp stamp);
    static void receive(State& state, Snapshot& snap);

private:
    void keepFrame();
    attn::Trainer trainer_;
    std::vector<int> frameSteps_;
    std::map<int, attn::Matrix> pendingFrames_;
    int sentLosses_ = 0;
};

class TrainRun : public SteppedRun<TrainStepper> {
public:
    static constexpr int kSnapshotIntervalMs = 33;

    // Takes the trainer (made by makeTrainer); `frames`: steps at which P is kept.
    TrainRun(attn::Trainer trainer, std::vector<int> frames, QObject* parent = nullptr);

    [[nodiscard]] const std::vector<double>& losses() const { return state().losses; }
    [[nodiscard]] const std::map<int, attn::Matrix>& frames() const { return state().frames; }
    // Tokens and target of example 0 (fixed for the run).
    [[nodiscard]] const attn::TrainExample& example() const { return example_; }
    [[nodiscard]] int head() const { return head_; }       // the trained head
    [[nodiscard]] bool shared() const { return shared_; }  // one shared projection
    // The trainer as the worker left it, once it has stopped under the latest command (Keep
    // takes it); null while it runs.
    [[nodiscard]] std::shared_ptr<const attn::Trainer> settledTrainer() const
    {
        return settled() ? last().trainer : nullptr;
    }

private:
    attn::TrainExample example_;
    int head_ = 0;
    bool shared_ = false;
};

}  // namespace attnlab
