// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// One training run on a worker thread (std::jthread). The worker steps the Trainer at full
// speed, or waits a set delay after each step so that a class can watch, and posts snapshots to the
// GUI thread through queued calls: at most one in flight and at most one per kSnapshotIntervalMs,
// plus one whenever it stops (paused, finished, failed). The GUI thread never computes attention
// and never waits for the worker, except for joining it when the run is destroyed (which stops it
// after the step in progress).
//
//   GUI                      worker
//   runTo(N) / pause()  ->   steps while steps() < target
//   snapshot(s)        <-    step, new losses, P of example 0, film-strip frames, [trainer]

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <map>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include <QObject>
#include <QStringList>

#include "core/train/trainer.h"

namespace attnlab {

// The steady clock in nanoseconds: the trainer's snapshots and the panel's redraws are paced by it.
inline qint64 steadyNowNs()
{
    return std::chrono::duration_cast<std::chrono::nanoseconds>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

struct TrainSnapshot {
    int steps = 0;                       // steps taken
    int firstLoss = 0;                   // index of newLosses.front() in Trainer::losses()
    std::vector<double> newLosses;       // losses recorded since the previous snapshot
    attn::Matrix weights;                // the trained head's P on example 0, after `steps` steps
    std::map<int, attn::Matrix> frames;  // film-strip frames recorded since the last snapshot
    bool idle = false;                   // the worker has stopped and waits for a command
    double loss = 0.0;                   // idle: the loss of the current parameters
    std::shared_ptr<const attn::Trainer> trainer;  // idle: a copy of the trainer (for Keep)
    QString error;                                 // a step failed (the run stopped)
    qint64 postedNs = 0;                           // when it was posted (steady clock)
    int generation = 0;  // the command (runTo/pause) in force when it was made
};

class TrainRun : public QObject {
    Q_OBJECT
public:
    static constexpr int kSnapshotIntervalMs = 33;

    // Takes the trainer (made by makeTrainer); `frames`: steps at which P is kept.
    TrainRun(attn::Trainer trainer, std::vector<int> frames, QObject* parent = nullptr);
    ~TrainRun() override;  // stops and joins the worker

    // Runs until `steps` steps have been taken in all (no-op when already there).
    void runTo(int steps);
    // Stops after the step in progress; an idle snapshot follows.
    void pause();
    // How long the worker waits after each step (0: full speed). Takes effect at once, also
    // during a wait; pause() and destruction cut a wait short.
    void setStepDelayUs(int microseconds);
    [[nodiscard]] int stepDelayUs() const { return delayUs_.load(); }
    [[nodiscard]] const std::vector<double>& losses() const { return losses_; }
    [[nodiscard]] const TrainSnapshot& last() const { return last_; }
    [[nodiscard]] const std::map<int, attn::Matrix>& frames() const { return frames_; }
    // Tokens and target of example 0 (fixed for the run).
    [[nodiscard]] const attn::TrainExample& example() const { return example_; }
    [[nodiscard]] bool running() const { return running_; }
    [[nodiscard]] int head() const { return head_; }       // the trained head
    [[nodiscard]] bool shared() const { return shared_; }  // one shared projection
    // The trainer as the worker left it, once it has stopped under the latest command (Keep
    // takes it); null while it runs.
    [[nodiscard]] std::shared_ptr<const attn::Trainer> settledTrainer() const
    {
        return !running_ && last_.idle && last_.generation == commands_ ? last_.trainer : nullptr;
    }

Q_SIGNALS:
    // After the run's own state (losses(), last(), frames()) took the snapshot in.
    void snapshotArrived();

private:
    void work(std::stop_token stop);
    // The throttle: waits the step delay unless a new command or the stop comes first.
    void waitAfterStep(const std::stop_token& stop, int generation);
    void post(TrainSnapshot snap);
    void receive(TrainSnapshot snap);

    // Worker side only.
    attn::Trainer trainer_;
    std::vector<int> frameSteps_;
    // Shared: target under mutex_; inFlight_ atomic.
    std::mutex mutex_;
    std::condition_variable_any wake_;
    int target_ = 0;
    int generation_ = 0;  // counts runTo() and pause() calls
    std::atomic<bool> inFlight_{false};
    std::atomic<int> delayUs_{0};
    // GUI side only.
    attn::TrainExample example_;
    std::vector<double> losses_;
    std::map<int, attn::Matrix> frames_;
    TrainSnapshot last_;
    bool running_ = false;
    int head_ = 0;
    bool shared_ = false;
    int commands_ = 0;     // the GUI's count of generation_
    std::jthread thread_;  // last: joined before anything above goes
};

}  // namespace attnlab
