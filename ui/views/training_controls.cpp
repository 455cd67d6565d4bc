// SPDX-License-Identifier: GPL-3.0-or-later
// The run controls both trainers share: their buttons, keys, enabling and requests.
#include "ui/views/training_controls.h"

#include <QGridLayout>
#include <QPushButton>
#include <QShortcut>

#include "ui/views/speed_control.h"

namespace attnlab {

namespace {

// What a button does, with its key, and below it why it is disabled, when it is.
void describeButton(QPushButton* b, bool enabled, const QString& tip, const QKeySequence& key,
                    const QString& whyNot)
{
    b->setEnabled(enabled);
    const QString base =
        key.isEmpty() ? tip
                      : QStringLiteral("%1 (%2)").arg(tip, key.toString(QKeySequence::NativeText));
    b->setToolTip(enabled || whyNot.isEmpty() ? base : base + QStringLiteral("\n") + whyNot);
}

}  // namespace

TrainingControls::TrainingControls(PauseButton pause, SpeedPlace place,
                                   std::vector<int> stepsPerSecond, QWidget* parent)
    : QWidget(parent),
      pauseButton_(pause),
      start_(new QPushButton(this)),
      step_(new QPushButton(this)),
      reset_(new QPushButton(this)),
      speed_(new SpeedControl(std::move(stepsPerSecond), this))
{
    if (pause == PauseButton::Own) pause_ = new QPushButton(this);
    auto* grid = new QGridLayout(this);
    grid->setContentsMargins(0, 0, 0, 0);
    grid->setVerticalSpacing(3);  // as compact as the trainers' settings around it
    int column = 0;
    for (QPushButton* b : {start_, pause_, step_, reset_})
        if (b) grid->addWidget(b, 0, column++);
    // Apart, the panel's layout takes the speed in (and makes it its child).
    if (place == SpeedPlace::Below) grid->addWidget(speed_, 1, 0, 1, column);
    connect(start_, &QPushButton::clicked, this, &TrainingControls::startClicked);
    if (pause_) connect(pause_, &QPushButton::clicked, this, &TrainingControls::pauseRequested);
    connect(step_, &QPushButton::clicked, this, &TrainingControls::stepRequested);
    connect(reset_, &QPushButton::clicked, this, &TrainingControls::resetRequested);
    connect(speed_, &SpeedControl::delayChanged, this, &TrainingControls::delayChanged);
    refresh();
}

QSlider* TrainingControls::speedSlider() const
{
    return speed_->slider();
}

int TrainingControls::stepDelayUs() const
{
    return speed_->stepDelayUs();
}

void TrainingControls::setWords(const Words& words)
{
    words_ = words;
    refresh();
}

void TrainingControls::setState(const State& state)
{
    state_ = state;
    refresh();
}

void TrainingControls::setKeys(const Keys& keys, QWidget* scope)
{
    keys_ = keys;
    const std::pair<Action, QKeySequence> bindings[] = {{Action::Start, keys.start},
                                                        {Action::Pause, keys.pause},
                                                        {Action::Step, keys.step},
                                                        {Action::Reset, keys.reset}};
    for (const auto& [action, key] : bindings) {
        if (key.isEmpty()) continue;
        auto* shortcut = new QShortcut(key, scope);
        shortcut->setContext(Qt::WidgetWithChildrenShortcut);
        connect(shortcut, &QShortcut::activated, this, [this, action] {
            QPushButton* b = buttonFor(action);
            if (b && b->isEnabled()) b->click();
        });
    }
    refresh();
}

QPushButton* TrainingControls::buttonFor(Action action) const
{
    const bool startPauses = pauseButton_ == PauseButton::OnStart && state_.running;
    switch (action) {
    case Action::Start: return startPauses ? nullptr : start_;
    case Action::Pause: return pause_ ? pause_ : startPauses ? start_ : nullptr;
    case Action::Step: return step_;
    case Action::Reset: return reset_;
    }
    return nullptr;
}

void TrainingControls::startClicked()
{
    if (pauseButton_ == PauseButton::OnStart && state_.running)
        Q_EMIT pauseRequested();
    else
        Q_EMIT startRequested();
}

void TrainingControls::refresh()
{
    const State& s = state_;
    const bool startPauses = pauseButton_ == PauseButton::OnStart && s.running;
    // Start waits while its own Pause is there to stop the run; as Pause it stays enabled.
    const bool startable =
        s.ready && !s.finished && (pauseButton_ == PauseButton::OnStart || !s.running);
    start_->setText(startPauses ? words_.pause : s.begun ? words_.resume : words_.start);
    if (startPauses)
        describeButton(start_, startable, words_.pauseTip, keys_.pause, s.whyNotPause);
    else
        describeButton(start_, startable, words_.startTip, keys_.start, s.whyNotStart);
    if (pause_) {
        pause_->setText(words_.pause);
        describeButton(pause_, s.running, words_.pauseTip, keys_.pause, s.whyNotPause);
    }
    step_->setText(words_.step);
    describeButton(step_, s.canStep, words_.stepTip, keys_.step, s.whyNotStep);
    reset_->setText(words_.reset);
    describeButton(reset_, s.canReset, words_.resetTip, keys_.reset, s.whyNotReset);
}

}  // namespace attnlab
