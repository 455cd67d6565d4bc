// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A whole model training on a worker thread (SteppedRun, ui/document/stepped_run.h), for the
// model trainer: each snapshot brings the new losses and measures, every head's live map and
// the frames kept since the last one, and, when the worker stops, a copy of the run (Save and
// Open take it).

#include <map>
#include <memory>
#include <mutex>
#include <vector>

#include "core/train/gpt2_run.h"
#include "ui/document/stepped_run.h"

namespace attnlab {

using MapsPtr = std::shared_ptr<const attn::gpt2::HeadMaps>;

struct ModelTrainSnapshot : RunStamp {
    long firstLoss = 0;  // index of newLosses.front() in ModelRun::losses()
    std::vector<double> newLosses;
    long firstMeasure = 0;  // index of newMeasures.front() in ModelRun::measures()
    std::vector<attn::gpt2::Measure> newMeasures;
    MapsPtr maps;                    // every head's live map after `steps` steps
    std::map<long, MapsPtr> frames;  // film-strip frames kept since the last snapshot
    std::shared_ptr<const attn::gpt2::ModelRun> run;  // idle: a copy of the run
};

// The losses, measures and frames of the whole run, gathered from its snapshots.
struct ModelTrainState {
    std::vector<double> losses;
    std::vector<attn::gpt2::Measure> measures;
    std::map<long, MapsPtr> frames;
};

// The steps whose maps are kept: the one part of the run the GUI changes while it steps.
struct FrameChoice {
    std::mutex mutex;
    std::vector<long> steps;  // sorted
};

class ModelTrainStepper {
public:
    using Snapshot = ModelTrainSnapshot;
    using State = ModelTrainState;

    ModelTrainStepper(std::unique_ptr<attn::gpt2::ModelRun> run,
                      std::shared_ptr<FrameChoice> frames);
    void begin() { keepFrame(); }
    [[nodiscard]] long steps() const { return run_->trainer().steps(); }
    attn::Status step();
    Snapshot snapshot(RunStamp stamp);
    static void receive(State& state, Snapshot& snap);

private:
    void keepFrame();
    std::unique_ptr<attn::gpt2::ModelRun> run_;
    std::shared_ptr<FrameChoice> frames_;
    std::map<long, MapsPtr> pendingFrames_;
    std::size_t sentLosses_ = 0, sentMeasures_ = 0;
};

class ModelTrainRun : public SteppedRun<ModelTrainStepper> {
public:
    static constexpr int kSnapshotIntervalMs = 50;

    // Takes the run (made by ModelRun::create, no step taken); `frames`: steps whose live maps
    // are kept for the film strip (step 0 is the initialisation).
    ModelTrainRun(std::unique_ptr<attn::gpt2::ModelRun> run, std::vector<long> frames,
                  QObject* parent = nullptr);

    // Steps whose maps are kept from now on (those already passed are kept only if they were
    // chosen then).
    void setFrameSteps(std::vector<long> steps);
    // Keeps the current maps as the frame of the current step (while idle).
    void keepCurrentFrame();

    [[nodiscard]] const attn::gpt2::RunSpec& spec() const { return spec_; }
    [[nodiscard]] long steps() const { return stamp().steps; }
    [[nodiscard]] bool finished() const { return stamp().steps >= spec_.steps; }
    [[nodiscard]] const std::vector<double>& losses() const { return state().losses; }
    [[nodiscard]] const std::vector<attn::gpt2::Measure>& measures() const
    {
        return state().measures;
    }
    [[nodiscard]] const MapsPtr& maps() const { return last().maps; }
    [[nodiscard]] const std::map<long, MapsPtr>& frames() const { return state().frames; }
    [[nodiscard]] const QString& error() const { return stamp().error; }
    // The run as the worker left it once it stopped under the latest command; null while it
    // runs.
    [[nodiscard]] std::shared_ptr<const attn::gpt2::ModelRun> settledRun() const
    {
        return settled() ? last().run : nullptr;
    }

private:
    ModelTrainRun(const attn::gpt2::RunSpec& spec, std::shared_ptr<FrameChoice> choice,
                  std::unique_ptr<attn::gpt2::ModelRun>&& run, QObject* parent);
    attn::gpt2::RunSpec spec_;
    std::shared_ptr<FrameChoice> choice_;  // shared with the stepper on the worker
};

}  // namespace attnlab
