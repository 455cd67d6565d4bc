// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A whole model training on a worker thread (std::jthread), for the model trainer: the worker
// steps an attn::gpt2::ModelRun at full speed or with a delay after each step, and posts
// snapshots to the GUI thread through queued calls, at most one in flight and one per
// kSnapshotIntervalMs, plus one whenever it stops (paused, finished, failed). The GUI thread
// never computes attention and never waits for the worker, except for joining it when the run
// is destroyed (which stops it after the step in progress).
//
//   GUI                      worker
//   runTo(N) / pause()  ->   steps while steps() < target
//   snapshot(s)        <-    new losses, new measures, every head's live map, kept frames,
//                            [a copy of the run, when idle: Save and Open take it]

#include <atomic>
#include <condition_variable>
#include <map>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include <QObject>
#include <QString>

#include "core/train/gpt2_run.h"

namespace attnlab {

using MapsPtr = std::shared_ptr<const attn::gpt2::HeadMaps>;

struct ModelTrainSnapshot {
    long steps = 0;
    long firstLoss = 0;  // index of newLosses.front() in ModelRun::losses()
    std::vector<double> newLosses;
    long firstMeasure = 0;  // index of newMeasures.front() in ModelRun::measures()
    std::vector<attn::gpt2::Measure> newMeasures;
    MapsPtr maps;                    // every head's live map after `steps` steps
    std::map<long, MapsPtr> frames;  // film-strip frames kept since the last snapshot
    bool idle = false;
    std::shared_ptr<const attn::gpt2::ModelRun> run;  // idle: a copy of the run
    QString error;                                    // a step failed (the run stopped)
    int generation = 0;  // the command (runTo/pause) in force when it was made
};

class ModelTrainRun : public QObject {
    Q_OBJECT
public:
    static constexpr int kSnapshotIntervalMs = 50;

    // Takes the run (made by ModelRun::create, no step taken); `frames`: steps whose live maps
    // are kept for the film strip (step 0 is the initialisation).
    ModelTrainRun(std::unique_ptr<attn::gpt2::ModelRun> run, std::vector<long> frames,
                  QObject* parent = nullptr);
    ~ModelTrainRun() override;  // stops and joins the worker

    // Runs until `steps` steps have been taken in all (capped at the spec's steps).
    void runTo(long steps);
    // Stops after the step in progress; an idle snapshot follows.
    void pause();
    // How long the worker waits after each step (0: full speed); takes effect at once.
    void setStepDelayUs(int microseconds);
    [[nodiscard]] int stepDelayUs() const { return delayUs_.load(); }
    // Steps whose maps are kept from now on (those already passed are kept only if they were
    // chosen then).
    void setFrameSteps(std::vector<long> steps);
    // Keeps the current maps as the frame of the current step (while idle).
    void keepCurrentFrame();

    [[nodiscard]] const attn::gpt2::RunSpec& spec() const { return spec_; }
    [[nodiscard]] long steps() const { return last_.steps; }
    [[nodiscard]] bool running() const { return running_; }
    [[nodiscard]] bool finished() const { return last_.steps >= spec_.steps; }
    [[nodiscard]] const std::vector<double>& losses() const { return losses_; }
    [[nodiscard]] const std::vector<attn::gpt2::Measure>& measures() const { return measures_; }
    [[nodiscard]] const MapsPtr& maps() const { return last_.maps; }
    [[nodiscard]] const std::map<long, MapsPtr>& frames() const { return frames_; }
    [[nodiscard]] const QString& error() const { return last_.error; }
    // The run as the worker left it once it stopped under the latest command; null while it
    // runs.
    [[nodiscard]] std::shared_ptr<const attn::gpt2::ModelRun> settledRun() const
    {
        return !running_ && last_.idle && last_.generation == commands_ ? last_.run : nullptr;
    }

Q_SIGNALS:
    // After the run's own state (losses(), measures(), maps(), frames()) took a snapshot in.
    void snapshotArrived();

private:
    void work(std::stop_token stop);
    void waitAfterStep(const std::stop_token& stop, int generation);
    void post(ModelTrainSnapshot snap);
    void receive(ModelTrainSnapshot snap);

    // Worker side only.
    std::unique_ptr<attn::gpt2::ModelRun> run_;
    // Shared, under mutex_.
    std::mutex mutex_;
    std::condition_variable_any wake_;
    long target_ = 0;
    int generation_ = 0;
    std::vector<long> frameSteps_;
    std::atomic<bool> inFlight_{false};
    std::atomic<int> delayUs_{0};
    // GUI side only.
    attn::gpt2::RunSpec spec_;
    std::vector<double> losses_;
    std::vector<attn::gpt2::Measure> measures_;
    std::map<long, MapsPtr> frames_;
    ModelTrainSnapshot last_;
    bool running_ = false;
    int commands_ = 0;
    std::jthread thread_;  // last: joined before anything above goes
};

}  // namespace attnlab
