// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/train/train_run.h"

#include <algorithm>
#include <chrono>

#include "core/attention.h"
#include "ui/readers/status_text.h"

namespace attnlab {

namespace {

// The trained head's weights on example 0 with the current parameters (empty on failure).
attn::Matrix exampleWeights(const attn::Trainer& trainer)
{
    attn::AttentionResult result;
    if (!attn::computeAttention<double>(trainer.exampleInput(0), result).ok()) return {};
    const auto head = static_cast<std::size_t>(trainer.settings().head);
    return head < result.heads.size() ? result.heads[head].weights : attn::Matrix();
}

}  // namespace

TrainRun::TrainRun(attn::Trainer trainer, std::vector<int> frames, QObject* parent)
    : QObject(parent), trainer_(std::move(trainer)), frameSteps_(std::move(frames))
{
    head_ = trainer_.settings().head;
    shared_ = trainer_.settings().shared;
    if (!trainer_.examples().empty()) example_ = trainer_.examples().front();
    std::sort(frameSteps_.begin(), frameSteps_.end());
    thread_ = std::jthread([this](std::stop_token stop) { work(std::move(stop)); });
}

TrainRun::~TrainRun()
{
    thread_.request_stop();
    wake_.notify_all();
    if (thread_.joinable()) thread_.join();
}

void TrainRun::runTo(int steps)
{
    {
        std::lock_guard lock(mutex_);
        target_ = steps;
        commands_ = ++generation_;
    }
    running_ = steps > last_.steps;
    wake_.notify_all();
}

void TrainRun::pause()
{
    {
        std::lock_guard lock(mutex_);
        target_ = 0;
        commands_ = ++generation_;
    }
    wake_.notify_all();
}

void TrainRun::setStepDelayUs(int microseconds)
{
    {
        std::lock_guard lock(mutex_);
        delayUs_.store(std::max(0, microseconds));
    }
    wake_.notify_all();
}

void TrainRun::work(std::stop_token stop)
{
    int sentLosses = 0;
    qint64 lastPost = 0;
    std::map<int, attn::Matrix> pendingFrames;
    const auto keepFrame = [&] {
        const int k = trainer_.steps();
        if (std::binary_search(frameSteps_.begin(), frameSteps_.end(), k))
            pendingFrames[k] = exampleWeights(trainer_);
    };
    const auto snapshot = [&](bool idle, QString error, int generation) {
        TrainSnapshot s;
        s.generation = generation;
        s.steps = trainer_.steps();
        s.firstLoss = sentLosses;
        s.newLosses.assign(trainer_.losses().begin() + sentLosses, trainer_.losses().end());
        sentLosses = static_cast<int>(trainer_.losses().size());
        s.weights = exampleWeights(trainer_);
        s.frames = std::move(pendingFrames);
        pendingFrames.clear();
        s.idle = idle;
        s.error = std::move(error);
        if (idle) {
            (void)trainer_.currentLoss(s.loss);
            s.trainer = std::make_shared<const attn::Trainer>(trainer_);
        }
        lastPost = steadyNowNs();
        post(std::move(s));
    };

    keepFrame();
    int idleGeneration = -1;  // the command the last idle snapshot answered
    while (!stop.stop_requested()) {
        int generation = 0;
        {
            std::unique_lock lock(mutex_);
            if (target_ <= trainer_.steps()) {
                if (idleGeneration != generation_) {
                    idleGeneration = generation_;
                    lock.unlock();
                    snapshot(true, {}, idleGeneration);
                    continue;
                }
                wake_.wait(lock, stop, [&] {
                    return target_ > trainer_.steps() || generation_ != idleGeneration;
                });
                continue;
            }
            generation = generation_;
        }
        if (const attn::Status s = trainer_.step(); !s.ok()) {
            {
                std::lock_guard lock(mutex_);
                target_ = trainer_.steps();
                idleGeneration = generation_;
                generation = generation_;
            }
            snapshot(true, statusMessage(s), generation);
            continue;
        }
        keepFrame();
        if (!inFlight_.load() && steadyNowNs() - lastPost >= kSnapshotIntervalMs * 1000000LL)
            snapshot(false, {}, generation);
        waitAfterStep(stop, generation);
    }
}

void TrainRun::waitAfterStep(const std::stop_token& stop, int generation)
{
    const auto begin = std::chrono::steady_clock::now();
    std::unique_lock lock(mutex_);
    // Re-read the delay on every wake: a faster setting ends the wait early, and a new command
    // (pause, another target) is served at once.
    while (!stop.stop_requested() && generation_ == generation && target_ > trainer_.steps()) {
        const auto until = begin + std::chrono::microseconds(delayUs_.load());
        if (std::chrono::steady_clock::now() >= until) break;
        const int delay = delayUs_.load();
        (void)wake_.wait_until(lock, stop, until, [&] {
            return generation_ != generation || delayUs_.load() != delay;
        });
    }
}

void TrainRun::post(TrainSnapshot snap)
{
    snap.postedNs = steadyNowNs();
    inFlight_.store(true);
    // Queued to this object's (the GUI) thread; dropped by Qt if the run is deleted first.
    QMetaObject::invokeMethod(
        this, [this, s = std::move(snap)]() mutable { receive(std::move(s)); },
        Qt::QueuedConnection);
}

void TrainRun::receive(TrainSnapshot snap)
{
    inFlight_.store(false);
    if (static_cast<int>(losses_.size()) == snap.firstLoss)
        losses_.insert(losses_.end(), snap.newLosses.begin(), snap.newLosses.end());
    for (auto& [step, weights] : snap.frames) frames_[step] = std::move(weights);
    snap.frames.clear();
    snap.newLosses.clear();
    // An idle snapshot answers the latest command only if made under it; an older one (made
    // before a later runTo) says nothing about whether the run goes on.
    if (snap.idle && snap.generation == commands_) running_ = false;
    last_ = std::move(snap);
    Q_EMIT snapshotArrived();
}

}  // namespace attnlab
