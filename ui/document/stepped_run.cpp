// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/document/stepped_run.h"

#include <algorithm>
#include <chrono>

#include "ui/readers/status_text.h"

namespace attnlab {

qint64 steadyNowNs()
{
    return std::chrono::duration_cast<std::chrono::nanoseconds>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

SteppedRunBase::SteppedRunBase(long lastStep, long initialSteps, int snapshotIntervalMs,
                               QObject* parent)
    : QObject(parent), lastStep_(lastStep), intervalNs_(snapshotIntervalMs * 1000000LL)
{
    stamp_.steps = initialSteps;
}

SteppedRunBase::~SteppedRunBase()
{
    stop();
}

void SteppedRunBase::start()
{
    thread_ = std::jthread([this](const std::stop_token& stop) { work(stop); });
}

void SteppedRunBase::stop()
{
    thread_.request_stop();
    wake_.notify_all();
    if (thread_.joinable()) thread_.join();
}

void SteppedRunBase::runTo(long steps)
{
    steps = std::min(steps, lastStep_);
    {
        std::lock_guard lock(mutex_);
        target_ = steps;
        commands_ = ++generation_;
    }
    running_ = steps > stamp_.steps;
    wake_.notify_all();
}

void SteppedRunBase::pause()
{
    {
        std::lock_guard lock(mutex_);
        target_ = 0;
        commands_ = ++generation_;
    }
    wake_.notify_all();
}

void SteppedRunBase::setStepDelayUs(int microseconds)
{
    {
        std::lock_guard lock(mutex_);
        delayUs_.store(std::max(0, microseconds));
    }
    wake_.notify_all();
}

void SteppedRunBase::post(bool idle, QString error, int generation)
{
    RunStamp stamp;
    stamp.steps = workerSteps();
    stamp.idle = idle;
    stamp.generation = generation;
    stamp.error = std::move(error);
    stamp.postedNs = lastPostNs_ = steadyNowNs();
    workerPost(std::move(stamp));
}

void SteppedRunBase::work(const std::stop_token& stop)
{
    workerBegin();
    int idleGeneration = -1;  // the command the last idle snapshot answered
    while (!stop.stop_requested()) {
        int generation = 0;
        {
            std::unique_lock lock(mutex_);
            if (target_ <= workerSteps()) {
                if (idleGeneration != generation_) {
                    idleGeneration = generation_;
                    lock.unlock();
                    post(true, {}, idleGeneration);
                    continue;
                }
                wake_.wait(lock, stop, [&] {
                    return target_ > workerSteps() || generation_ != idleGeneration;
                });
                continue;
            }
            generation = generation_;
        }
        if (const attn::Status s = workerStep(); !s.ok()) {
            {
                std::lock_guard lock(mutex_);
                target_ = workerSteps();
                idleGeneration = generation_;
                generation = generation_;
            }
            post(true, statusMessage(s), generation);
            continue;
        }
        if (!inFlight_.load() && steadyNowNs() - lastPostNs_ >= intervalNs_)
            post(false, {}, generation);
        waitAfterStep(stop, generation);
    }
}

void SteppedRunBase::waitAfterStep(const std::stop_token& stop, int generation)
{
    const auto begin = std::chrono::steady_clock::now();
    std::unique_lock lock(mutex_);
    // Re-read the delay on every wake: a faster setting ends the wait early, and a new command
    // (pause, another target) is served at once.
    while (!stop.stop_requested() && generation_ == generation && target_ > workerSteps()) {
        const auto until = begin + std::chrono::microseconds(delayUs_.load());
        if (std::chrono::steady_clock::now() >= until) break;
        const int delay = delayUs_.load();
        (void)wake_.wait_until(lock, stop, until, [&] {
            return generation_ != generation || delayUs_.load() != delay;
        });
    }
}

void SteppedRunBase::arrived(RunStamp stamp)
{
    // An idle snapshot answers the latest command only if made under it; an older one (made
    // before a later runTo) says nothing about whether the run goes on.
    if (stamp.idle && stamp.generation == commands_) running_ = false;
    stamp_ = std::move(stamp);
    Q_EMIT snapshotArrived();
}

}  // namespace attnlab
