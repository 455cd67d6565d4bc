// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/model/model_train_run.h"

#include <algorithm>
#include <chrono>

#include "ui/readers/status_text.h"

namespace attnlab {

namespace {

using Clock = std::chrono::steady_clock;

}  // namespace

ModelTrainRun::ModelTrainRun(std::unique_ptr<attn::gpt2::ModelRun> run, std::vector<long> frames,
                             QObject* parent)
    : QObject(parent), run_(std::move(run)), spec_(run_->spec())
{
    setFrameSteps(std::move(frames));
    last_.steps = run_->trainer().steps();
    thread_ = std::jthread([this](std::stop_token stop) { work(std::move(stop)); });
}

ModelTrainRun::~ModelTrainRun()
{
    thread_.request_stop();
    wake_.notify_all();
    if (thread_.joinable()) thread_.join();
}

void ModelTrainRun::runTo(long steps)
{
    steps = std::min(steps, spec_.steps);
    {
        std::lock_guard lock(mutex_);
        target_ = steps;
        commands_ = ++generation_;
    }
    running_ = steps > last_.steps;
    wake_.notify_all();
}

void ModelTrainRun::pause()
{
    {
        std::lock_guard lock(mutex_);
        target_ = 0;
        commands_ = ++generation_;
    }
    wake_.notify_all();
}

void ModelTrainRun::setStepDelayUs(int microseconds)
{
    {
        std::lock_guard lock(mutex_);
        delayUs_.store(std::max(0, microseconds));
    }
    wake_.notify_all();
}

void ModelTrainRun::setFrameSteps(std::vector<long> steps)
{
    std::sort(steps.begin(), steps.end());
    std::lock_guard lock(mutex_);
    frameSteps_ = std::move(steps);
}

void ModelTrainRun::keepCurrentFrame()
{
    if (last_.maps) frames_[last_.steps] = last_.maps;
}

void ModelTrainRun::work(std::stop_token stop)
{
    std::size_t sentLosses = 0, sentMeasures = 0;
    Clock::time_point lastPost{};
    std::map<long, MapsPtr> pendingFrames;
    const auto liveMaps = [&] {
        return std::make_shared<const attn::gpt2::HeadMaps>(run_->liveMaps());
    };
    const auto keepFrame = [&](const MapsPtr& maps) {
        const long k = run_->trainer().steps();
        bool chosen = false;
        {
            std::lock_guard lock(mutex_);
            chosen = std::binary_search(frameSteps_.begin(), frameSteps_.end(), k);
        }
        if (chosen) pendingFrames[k] = maps ? maps : liveMaps();
    };
    const auto snapshot = [&](bool idle, QString error, int generation, MapsPtr maps) {
        ModelTrainSnapshot s;
        s.generation = generation;
        s.steps = run_->trainer().steps();
        s.firstLoss = static_cast<long>(sentLosses);
        s.newLosses.assign(run_->losses().begin() + static_cast<long>(sentLosses),
                           run_->losses().end());
        sentLosses = run_->losses().size();
        s.firstMeasure = static_cast<long>(sentMeasures);
        s.newMeasures.assign(run_->measures().begin() + static_cast<long>(sentMeasures),
                             run_->measures().end());
        sentMeasures = run_->measures().size();
        s.maps = maps ? std::move(maps) : liveMaps();
        s.frames = std::move(pendingFrames);
        pendingFrames.clear();
        s.idle = idle;
        s.error = std::move(error);
        if (idle) s.run = std::make_shared<const attn::gpt2::ModelRun>(*run_);
        lastPost = Clock::now();
        post(std::move(s));
    };

    keepFrame(nullptr);
    int idleGeneration = -1;  // the command the last idle snapshot answered
    while (!stop.stop_requested()) {
        int generation = 0;
        {
            std::unique_lock lock(mutex_);
            if (target_ <= run_->trainer().steps()) {
                if (idleGeneration != generation_) {
                    idleGeneration = generation_;
                    lock.unlock();
                    snapshot(true, {}, idleGeneration, nullptr);
                    continue;
                }
                wake_.wait(lock, stop, [&] {
                    return target_ > run_->trainer().steps() || generation_ != idleGeneration;
                });
                continue;
            }
            generation = generation_;
        }
        if (const attn::Status s = run_->step(); !s.ok()) {
            {
                std::lock_guard lock(mutex_);
                target_ = run_->trainer().steps();
                idleGeneration = generation_;
                generation = generation_;
            }
            snapshot(true, statusMessage(s), generation, nullptr);
            continue;
        }
        keepFrame(nullptr);
        if (!inFlight_.load() &&
            Clock::now() - lastPost >= std::chrono::milliseconds(kSnapshotIntervalMs))
            snapshot(false, {}, generation, nullptr);
        waitAfterStep(stop, generation);
    }
}

void ModelTrainRun::waitAfterStep(const std::stop_token& stop, int generation)
{
    const auto begin = Clock::now();
    std::unique_lock lock(mutex_);
    // Re-read the delay on every wake: a faster setting ends the wait early, and a new command
    // (pause, another target) is served at once.
    while (!stop.stop_requested() && generation_ == generation &&
           target_ > run_->trainer().steps()) {
        const auto until = begin + std::chrono::microseconds(delayUs_.load());
        if (Clock::now() >= until) break;
        const int delay = delayUs_.load();
        (void)wake_.wait_until(lock, stop, until, [&] {
            return generation_ != generation || delayUs_.load() != delay;
        });
    }
}

void ModelTrainRun::post(ModelTrainSnapshot snap)
{
    inFlight_.store(true);
    // Queued to this object's (the GUI) thread; dropped by Qt if the run is deleted first.
    QMetaObject::invokeMethod(
        this, [this, s = std::move(snap)]() mutable { receive(std::move(s)); },
        Qt::QueuedConnection);
}

void ModelTrainRun::receive(ModelTrainSnapshot snap)
{
    inFlight_.store(false);
    if (static_cast<long>(losses_.size()) == snap.firstLoss)
        losses_.insert(losses_.end(), snap.newLosses.begin(), snap.newLosses.end());
    if (static_cast<long>(measures_.size()) == snap.firstMeasure)
        measures_.insert(measures_.end(), snap.newMeasures.begin(), snap.newMeasures.end());
    for (auto& [step, maps] : snap.frames) frames_[step] = std::move(maps);
    snap.frames.clear();
    snap.newLosses.clear();
    snap.newMeasures.clear();
    if (snap.idle && snap.generation == commands_) running_ = false;
    last_ = std::move(snap);
    Q_EMIT snapshotArrived();
}

}  // namespace attnlab
