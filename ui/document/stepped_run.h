// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A run that steps on a worker thread (std::jthread) while the window watches: a head training
// (ui/train), a whole model training (ui/model), and any later run of the same shape. The worker
// steps at full speed, or waits a set delay after each step so that a class can watch, and posts
// snapshots to the GUI thread through queued calls: at most one in flight and at most one per
// interval, plus one whenever it stops (paused, finished, failed). The GUI thread never computes
// and never waits for the worker, except for joining it when the run is destroyed (which stops it
// after the step in progress).
//
//   GUI                      worker
//   runTo(N) / pause()  ->   steps while steps() < target
//   snapshot(s)        <-    a RunStamp and what changed since the previous snapshot
//
// A new kind of run is a Stepper and its snapshot type, no more. The Stepper lives on the worker
// (moved into the run) and provides:
//   using Snapshot = ...;      derived from RunStamp: the stamp and what changed since the last
//   using State = ...;         what the GUI gathers from the snapshots (losses, frames, ...)
//   void begin();              on the worker, before the first step
//   long steps() const;        steps taken
//   attn::Status step();       one step
//   Snapshot snapshot(RunStamp stamp);         what changed since the previous call, stamped
//   static void receive(State&, Snapshot&);    on the GUI thread: folds a snapshot in (it may
//                                              move parts out; the rest is kept as last())

#include <atomic>
#include <condition_variable>
#include <mutex>
#include <thread>

#include <QObject>
#include <QString>

#include "core/status.h"

namespace attnlab {

// The steady clock in nanoseconds: snapshots and the panels' redraws are paced by it.
qint64 steadyNowNs();

struct RunStamp {
    long steps = 0;       // steps taken when the snapshot was made
    bool idle = false;    // the worker has stopped and waits for a command
    int generation = 0;   // the command (runTo/pause) in force when it was made
    QString error;        // a step failed (the run stopped), translated
    qint64 postedNs = 0;  // when it was posted (steady clock)
};

class SteppedRunBase : public QObject {
    Q_OBJECT
public:
    ~SteppedRunBase() override;

    // Runs until `steps` steps have been taken in all (capped at the run's last step; no-op
    // when already there).
    void runTo(long steps);
    // Stops after the step in progress; an idle snapshot follows.
    void pause();
    // How long the worker waits after each step (0: full speed). Takes effect at once, also
    // during a wait; pause() and destruction cut a wait short.
    void setStepDelayUs(int microseconds);
    [[nodiscard]] int stepDelayUs() const { return delayUs_.load(); }
    // A command is being carried out: steps are taken, or will be.
    [[nodiscard]] bool running() const { return running_; }
    // The latest snapshot's stamp.
    [[nodiscard]] const RunStamp& stamp() const { return stamp_; }
    // The worker stopped under the latest command: what it left is the run's (Keep, Save).
    [[nodiscard]] bool settled() const
    {
        return !running_ && stamp_.idle && stamp_.generation == commands_;
    }

Q_SIGNALS:
    // After the run's own state took the snapshot in.
    void snapshotArrived();

protected:
    // `lastStep`: runTo() goes no further; `initialSteps`: the stepper's steps() at the start.
    SteppedRunBase(long lastStep, long initialSteps, int snapshotIntervalMs, QObject* parent);
    // The derived run's constructor ends with start(); its destructor begins with stop(), so
    // that the worker never calls into a part of the run that is not there.
    void start();
    void stop();
    // GUI side: a snapshot with `stamp` was folded in.
    void arrived(RunStamp stamp);
    std::atomic<bool> inFlight_{false};

private:
    // Worker side, given by SteppedRun<Stepper>.
    virtual void workerBegin() = 0;
    [[nodiscard]] virtual long workerSteps() const = 0;
    virtual attn::Status workerStep() = 0;
    virtual void workerPost(RunStamp stamp) = 0;
    void work(const std::stop_token& stop);
    void post(bool idle, QString error, int generation);
    // The throttle: waits the step delay unless a new command or the stop comes first.
    void waitAfterStep(const std::stop_token& stop, int generation);

    const long lastStep_;
    const qint64 intervalNs_;
    // Shared, under mutex_ (delayUs_ atomic so that the GUI reads it without the lock).
    std::mutex mutex_;
    std::condition_variable_any wake_;
    long target_ = 0;
    int generation_ = 0;  // counts runTo() and pause() calls
    std::atomic<int> delayUs_{0};
    // Worker side only.
    qint64 lastPostNs_ = 0;
    // GUI side only.
    RunStamp stamp_;
    bool running_ = false;
    int commands_ = 0;  // the GUI's count of generation_
    std::jthread thread_;
};

template <class Stepper>
class SteppedRun : public SteppedRunBase {
public:
    using Snapshot = typename Stepper::Snapshot;
    using State = typename Stepper::State;

    SteppedRun(Stepper stepper, long lastStep, int snapshotIntervalMs, QObject* parent = nullptr)
        : SteppedRunBase(lastStep, stepper.steps(), snapshotIntervalMs, parent),
          stepper_(std::move(stepper))
    {
        last_.steps = stepper_.steps();
        start();
    }
    ~SteppedRun() override { stop(); }

    // What the snapshots brought, gathered; and the latest snapshot (less what receive() took).
    [[nodiscard]] const State& state() const { return state_; }
    [[nodiscard]] const Snapshot& last() const { return last_; }

protected:
    State state_;  // GUI side

private:
    void workerBegin() override { stepper_.begin(); }
    [[nodiscard]] long workerSteps() const override { return stepper_.steps(); }
    attn::Status workerStep() override { return stepper_.step(); }
    void workerPost(RunStamp stamp) override
    {
        Snapshot snap = stepper_.snapshot(std::move(stamp));
        inFlight_.store(true);
        // Queued to this object's (the GUI) thread; dropped by Qt if the run is deleted first.
        QMetaObject::invokeMethod(
            this,
            [this, s = std::move(snap)]() mutable {
                inFlight_.store(false);
                Stepper::receive(state_, s);
                last_ = std::move(s);
                arrived(last_);
            },
            Qt::QueuedConnection);
    }

    Stepper stepper_;  // worker side once started
    Snapshot last_;    // GUI side
};

}  // namespace attnlab
