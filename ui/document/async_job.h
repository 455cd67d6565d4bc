// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// One computation at a time on a worker thread, with cancel, progress and a generation guard.
//
// The work runs on the global thread pool and reads only what it was given (copies, shared
// pointers to immutable data); it polls control.cancelled() and reports control.report().
// Its result is handed to `done` on the thread of `context` (the document's), once, and only
// if it is the result of the latest start(): a job that was dropped, or a late signal of an
// earlier one, is never delivered (the generation guard).

#include <atomic>
#include <functional>
#include <memory>

#include <QFutureWatcher>
#include <QObject>
#include <QThreadPool>
#include <QtConcurrent/QtConcurrentRun>

namespace attnlab {

// Shared by the document and its worker.
class JobControl {
public:
    [[nodiscard]] bool cancelled() const { return cancel_.load(); }
    void cancel() { cancel_.store(true); }
    // For work that polls a flag of its own kind (a file read in pieces).
    [[nodiscard]] const std::atomic<bool>& cancelFlag() const { return cancel_; }
    // Progress in the work's own unit (a fraction, layers done, ...).
    void report(double amount) { progress_.store(amount); }
    [[nodiscard]] double progress() const { return progress_.load(); }

private:
    std::atomic<bool> cancel_{false};
    std::atomic<double> progress_{0.0};
};

template <class Result>
class AsyncJob {
public:
    using Work = std::function<Result(JobControl& control)>;
    using Done = std::function<void(Result result)>;

    // `pool`: where the work runs (the global pool unless the work must not wait for it).
    explicit AsyncJob(QObject* context, QThreadPool* pool = QThreadPool::globalInstance())
        : context_(context), pool_(pool)
    {
        QObject::connect(&watcher_, &QFutureWatcherBase::finished, context_,
                         [this] { deliver(watched_); });
    }
    // Cancels the job in flight and waits for it; its result is dropped.
    ~AsyncJob() { drop(); }
    AsyncJob(const AsyncJob&) = delete;
    AsyncJob& operator=(const AsyncJob&) = delete;

    // Starts `work`; `done` receives its result. Only one job runs at a time: the caller decides
    // what a change arriving meanwhile does (ChangePolicy), so starting while running is a bug.
    void start(Work work, Done done)
    {
        Q_ASSERT(!running_);
        control_ = std::make_shared<JobControl>();
        done_ = std::move(done);
        running_ = true;
        watched_ = ++generation_;
        watcher_.setFuture(QtConcurrent::run(
            pool_, [work = std::move(work), control = control_] { return work(*control); }));
    }
    // From start() until its result is delivered (or dropped).
    [[nodiscard]] bool running() const { return running_; }
    // Asks the work to stop; it still returns, and what it returns is delivered.
    void cancel()
    {
        if (control_) control_->cancel();
    }
    [[nodiscard]] bool cancelRequested() const { return control_ && control_->cancelled(); }
    [[nodiscard]] double progress() const { return control_ ? control_->progress() : 0.0; }
    // Counts start()s: the job whose result `done` receives is generation().
    [[nodiscard]] unsigned long long generation() const { return generation_; }

    // Waits for the job in flight and delivers its result now (flush, tests).
    void wait()
    {
        if (!running_) return;
        watcher_.waitForFinished();
        deliver(watched_);
    }
    // Cancels the job in flight, waits for it to return and drops its result.
    void drop()
    {
        if (!running_) return;
        cancel();
        ++generation_;  // whatever it returns, and a finished() still queued, is stale now
        watcher_.waitForFinished();
        running_ = false;
        done_ = {};
    }

private:
    void deliver(unsigned long long generation)
    {
        // The future's own state: the watcher's isFinished() waits for its queued signal.
        if (!running_ || generation != generation_ || !watcher_.future().isFinished()) return;
        running_ = false;
        Result result = watcher_.future().takeResult();
        watcher_.setFuture(QFuture<Result>());
        Done done = std::move(done_);
        done_ = {};
        done(std::move(result));  // may start the next job
    }

    QObject* context_;
    QThreadPool* pool_;
    QFutureWatcher<Result> watcher_;
    std::shared_ptr<JobControl> control_;
    Done done_;
    bool running_ = false;
    unsigned long long generation_ = 0;
    unsigned long long watched_ = 0;  // the generation watcher_ watches
};

}  // namespace attnlab
