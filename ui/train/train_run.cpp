// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/train/train_run.h"

#include <algorithm>
#include <limits>

#include "core/attention.h"

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

TrainStepper::TrainStepper(attn::Trainer trainer, std::vector<int> frames)
    : trainer_(std::move(trainer)), frameSteps_(std::move(frames))
{
    std::sort(frameSteps_.begin(), frameSteps_.end());
}

void TrainStepper::keepFrame()
{
    const int k = trainer_.steps();
    if (std::binary_search(frameSteps_.begin(), frameSteps_.end(), k))
        pendingFrames_[k] = exampleWeights(trainer_);
}

attn::Status TrainStepper::step()
{
    attn::Status s = trainer_.step();
    if (s.ok()) keepFrame();
    return s;
}

TrainSnapshot TrainStepper::snapshot(RunStamp stamp)
{
    TrainSnapshot s;
    static_cast<RunStamp&>(s) = std::move(stamp);
    s.firstLoss = sentLosses_;
    s.newLosses.assign(trainer_.losses().begin() + sentLosses_, trainer_.losses().end());
    sentLosses_ = static_cast<int>(trainer_.losses().size());
    s.weights = exampleWeights(trainer_);
    s.frames = std::move(pendingFrames_);
    pendingFrames_.clear();
    if (s.idle) {
        (void)trainer_.currentLoss(s.loss);
        s.trainer = std::make_shared<const attn::Trainer>(trainer_);
    }
    return s;
}

void TrainStepper::receive(TrainState& state, TrainSnapshot& snap)
{
    if (static_cast<int>(state.losses.size()) == snap.firstLoss)
        state.losses.insert(state.losses.end(), snap.newLosses.begin(), snap.newLosses.end());
    for (auto& [step, weights] : snap.frames) state.frames[step] = std::move(weights);
    snap.frames.clear();
    snap.newLosses.clear();
}

TrainRun::TrainRun(attn::Trainer trainer, std::vector<int> frames, QObject* parent)
    : SteppedRun(TrainStepper(trainer, std::move(frames)), std::numeric_limits<long>::max(),
                 kSnapshotIntervalMs, parent),
      head_(trainer.settings().head),
      shared_(trainer.settings().shared)
{
    if (!trainer.examples().empty()) example_ = trainer.examples().front();
}

}  // namespace attnlab
