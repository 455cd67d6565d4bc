// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/model/model_train_run.h"

#include <algorithm>

namespace attnlab {

ModelTrainStepper::ModelTrainStepper(std::unique_ptr<attn::gpt2::ModelRun> run,
                                     std::shared_ptr<FrameChoice> frames)
    : run_(std::move(run)), frames_(std::move(frames))
{
}

void ModelTrainStepper::keepFrame()
{
    const long k = run_->trainer().steps();
    bool chosen = false;
    {
        std::lock_guard lock(frames_->mutex);
        chosen = std::binary_search(frames_->steps.begin(), frames_->steps.end(), k);
    }
    if (chosen) pendingFrames_[k] = std::make_shared<const attn::gpt2::HeadMaps>(run_->liveMaps());
}

attn::Status ModelTrainStepper::step()
{
    attn::Status s = run_->step();
    if (s.ok()) keepFrame();
    return s;
}

ModelTrainSnapshot ModelTrainStepper::snapshot(RunStamp stamp)
{
    ModelTrainSnapshot s;
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
    if (s.idle) s.run = std::make_shared<const attn::gpt2::ModelRun>(*run_);
    return s;
}

void ModelTrainStepper::receive(ModelTrainState& state, ModelTrainSnapshot& snap)
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

namespace {

std::shared_ptr<FrameChoice> chosen(std::vector<long> steps)
{
    auto choice = std::make_shared<FrameChoice>();
    std::sort(steps.begin(), steps.end());
    choice->steps = std::move(steps);
    return choice;
}

}  // namespace

ModelTrainRun::ModelTrainRun(std::unique_ptr<attn::gpt2::ModelRun> run, std::vector<long> frames,
                             QObject* parent)
    : ModelTrainRun(run->spec(), chosen(std::move(frames)), std::move(run), parent)
{
}

ModelTrainRun::ModelTrainRun(const attn::gpt2::RunSpec& spec, std::shared_ptr<FrameChoice> choice,
                             std::unique_ptr<attn::gpt2::ModelRun>&& run, QObject* parent)
    : SteppedRun(ModelTrainStepper(std::move(run), choice), spec.steps, kSnapshotIntervalMs,
                 parent),
      spec_(spec),
      choice_(std::move(choice))
{
}

void ModelTrainRun::setFrameSteps(std::vector<long> steps)
{
    std::sort(steps.begin(), steps.end());
    std::lock_guard lock(choice_->mutex);
    choice_->steps = std::move(steps);
}

void ModelTrainRun::keepCurrentFrame()
{
    if (last().maps) state_.frames[stamp().steps] = last().maps;
}

}  // namespace attnlab
