// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A whole model training on a worker thread (SteppedRun, ui/document/stepped_run.h), for the
// model trainer: each snapshot brings the new losses and measures, every head's live map and
// the frames kept since the last one, and, when the worker stops, a copy of the run (Save and
// Open take it).
//
// One template serves every model the trainer trains. `Run` (core/train) provides:
//   using Measure = ...;                       the measures at one step
//   const Spec& spec() const;                  its settings (Spec has `steps`)
//   const Trainer& trainer() const;            with steps()
//   Status step();                             one step (measuring when due)
//   const std::vector<double>& losses() const; the loss of every step
//   const std::vector<Measure>& measures() const;
//   gpt2::HeadMaps liveMaps();                 the maps the trainer shows, now
// and is copyable.

#include <algorithm>
#include <map>
#include <memory>
#include <mutex>
#include <type_traits>
#include <utility>
#include <vector>

#include <QEventLoop>

#include "core/train/gpt2_run.h"
#include "ui/document/stepped_run.h"
#include "ui/views/training_controls.h"

namespace attnlab {

using MapsPtr = std::shared_ptr<const attn::gpt2::HeadMaps>;

template <typename Run>
struct ModelTrainSnapshot : RunStamp {
    using Measure = typename Run::Measure;
    long firstLoss = 0;  // index of newLosses.front() in Run::losses()
    std::vector<double> newLosses;
    long firstMeasure = 0;  // index of newMeasures.front() in Run::measures()
    std::vector<Measure> newMeasures;
    MapsPtr maps;                    // every head's live map after `steps` steps
    std::map<long, MapsPtr> frames;  // film-strip frames kept since the last snapshot
    std::shared_ptr<const Run> run;  // idle: a copy of the run
};

// The losses, measures and frames of the whole run, gathered from its snapshots.
template <typename Run>
struct ModelTrainState {
    std::vector<double> losses;
    std::vector<typename Run::Measure> measures;
    std::map<long, MapsPtr> frames;
};

// The steps whose maps are kept: the one part of the run the GUI changes while it steps.
struct FrameChoice {
    std::mutex mutex;
    std::vector<long> steps;  // sorted
};

template <typename Run>
class ModelTrainStepper {
public:
    using Snapshot = ModelTrainSnapshot<Run>;
    using State = ModelTrainState<Run>;

    ModelTrainStepper(std::unique_ptr<Run> run, std::shared_ptr<FrameChoice> frames)
        : run_(std::move(run)), frames_(std::move(frames))
    {
    }
    void begin() { keepFrame(); }
    [[nodiscard]] long steps() const { return run_->trainer().steps(); }
    attn::Status step()
    {
        attn::Status s = run_->step();
        if (s.ok()) keepFrame();
        return s;
    }
    Snapshot snapshot(RunStamp stamp)
    {
        Snapshot s;
        static_cast<RunStamp&>(s) = std::move(stamp);
        s.firstLoss = static_cast<long>(sentLosses_);
        s.newLosses.assign(run_->losses().begin() + static_cast<long>(sentLosses_),
                           run_->losses().end());
        sentLosses_ = run_->losses().size();
        s.firstMeasure = static_cast<long>(sentMeasures_);
        s.newMeasures.assign(run_->measures().begin() + static_cast<long>(sentMeasures_),
                             run_->measures().end());
        sentMeasures_ = run_->measures().size();
        s.maps = std::make_shared<const attn::gpt2::HeadMaps>(run_->liveMaps());
        s.frames = std::move(pendingFrames_);
        pendingFrames_.clear();
        if (s.idle) s.run = std::make_shared<const Run>(*run_);
        return s;
    }
    static void receive(State& state, Snapshot& snap)
    {
        if (static_cast<long>(state.losses.size()) == snap.firstLoss)
            state.losses.insert(state.losses.end(), snap.newLosses.begin(), snap.newLosses.end());
        if (static_cast<long>(state.measures.size()) == snap.firstMeasure)
            state.measures.insert(state.measures.end(), snap.newMeasures.begin(),
                                  snap.newMeasures.end());
        for (auto& [step, maps] : snap.frames) state.frames[step] = std::move(maps);
        snap.frames.clear();
        snap.newLosses.clear();
        snap.newMeasures.clear();
    }

private:
    void keepFrame()
    {
        const long k = run_->trainer().steps();
        bool chosen = false;
        {
            std::lock_guard lock(frames_->mutex);
            chosen = std::binary_search(frames_->steps.begin(), frames_->steps.end(), k);
        }
        if (chosen)
            pendingFrames_[k] = std::make_shared<const attn::gpt2::HeadMaps>(run_->liveMaps());
    }

    std::unique_ptr<Run> run_;
    std::shared_ptr<FrameChoice> frames_;
    std::map<long, MapsPtr> pendingFrames_;
    std::size_t sentLosses_ = 0, sentMeasures_ = 0;
};

template <typename Run>
class TrainingRun : public SteppedRun<ModelTrainStepper<Run>> {
    using Base = SteppedRun<ModelTrainStepper<Run>>;

public:
    using Spec = std::decay_t<decltype(std::declval<const Run&>().spec())>;
    using Measure = typename Run::Measure;
    static constexpr int kSnapshotIntervalMs = 50;

    // Takes the run (made by Run::create, no step taken); `frames`: steps whose live maps are
    // kept for the film strip (step 0 is the initialisation).
    TrainingRun(std::unique_ptr<Run> run, std::vector<long> frames, QObject* parent = nullptr)
        : TrainingRun(run->spec(), chosen(std::move(frames)), std::move(run), parent)
    {
    }

    // Steps whose maps are kept from now on (those already passed are kept only if they were
    // chosen then).
    void setFrameSteps(std::vector<long> steps)
    {
        std::sort(steps.begin(), steps.end());
        std::lock_guard lock(choice_->mutex);
        choice_->steps = std::move(steps);
    }
    // Keeps the current maps as the frame of the current step (while idle).
    void keepCurrentFrame()
    {
        if (this->last().maps) this->state_.frames[this->stamp().steps] = this->last().maps;
    }

    [[nodiscard]] const Spec& spec() const { return spec_; }
    [[nodiscard]] long steps() const { return this->stamp().steps; }
    [[nodiscard]] bool finished() const { return this->stamp().steps >= spec_.steps; }
    [[nodiscard]] const std::vector<double>& losses() const { return this->state().losses; }
    [[nodiscard]] const std::vector<Measure>& measures() const { return this->state().measures; }
    [[nodiscard]] const MapsPtr& maps() const { return this->last().maps; }
    [[nodiscard]] const std::map<long, MapsPtr>& frames() const { return this->state().frames; }
    [[nodiscard]] const QString& error() const { return this->stamp().error; }
    // The run as the worker left it once it stopped under the latest command; null while it
    // runs.
    [[nodiscard]] std::shared_ptr<const Run> settledRun() const
    {
        return this->settled() ? this->last().run : nullptr;
    }

private:
    static std::shared_ptr<FrameChoice> chosen(std::vector<long> steps)
    {
        auto choice = std::make_shared<FrameChoice>();
        std::sort(steps.begin(), steps.end());
        choice->steps = std::move(steps);
        return choice;
    }
    TrainingRun(const Spec& spec, std::shared_ptr<FrameChoice> choice, std::unique_ptr<Run>&& run,
                QObject* parent)
        : Base(ModelTrainStepper<Run>(std::move(run), choice), spec.steps, kSnapshotIntervalMs,
               parent),
          spec_(spec),
          choice_(std::move(choice))
    {
    }
    Spec spec_;
    std::shared_ptr<FrameChoice> choice_;  // shared with the stepper on the worker
};

// Pauses `run` and waits (in a nested event loop) until the worker has left it settled: a model
// is saved as it stands between steps.
template <typename Run>
void settle(TrainingRun<Run>& run)
{
    if (run.settledRun()) return;
    run.pause();
    QEventLoop wait;
    const QMetaObject::Connection c =
        QObject::connect(&run, &SteppedRunBase::snapshotArrived, &wait, [&run, &wait] {
            if (run.settledRun()) wait.quit();
        });
    if (!run.settledRun()) wait.exec();
    QObject::disconnect(c);
}

// What a trainer page's Start, Step and Reset allow for `run` (null: the settings were refused).
template <typename Run>
TrainingControls::State controlsState(const TrainingRun<Run>* run)
{
    TrainingControls::State state;
    state.ready = run != nullptr;
    state.running = run && run->running();
    state.begun = run && run->steps() > 0;
    state.finished = run && run->finished();
    state.canStep = run && !state.running && !state.finished;
    state.canReset = state.begun;
    return state;
}

// The GPT-2 trainer's run.
using ModelTrainRun = TrainingRun<attn::gpt2::ModelRun>;

}  // namespace attnlab
