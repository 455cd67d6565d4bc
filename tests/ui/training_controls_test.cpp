// SPDX-License-Identifier: GPL-3.0-or-later
// The run controls both trainers share, on their own: which buttons the state enables, what
// they say and why they are disabled, and the request each button, key and speed change makes.
#include "ui/views/training_controls.h"

#include <gtest/gtest.h>

#include <QApplication>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QSlider>
#include <QTest>
#include <QVBoxLayout>

#include "ui/views/speed_control.h"

namespace attnlab {
namespace {

using Pause = TrainingControls::PauseButton;
using Place = TrainingControls::SpeedPlace;

TrainingControls::Words words()
{
    TrainingControls::Words w;
    w.start = QStringLiteral("Start");
    w.resume = QStringLiteral("Continue");
    w.pause = QStringLiteral("Pause");
    w.step = QStringLiteral("Step");
    w.reset = QStringLiteral("Reset");
    w.startTip = QStringLiteral("Train");
    w.pauseTip = QStringLiteral("Stop");
    w.stepTip = QStringLiteral("One step");
    w.resetTip = QStringLiteral("Back to 0");
    return w;
}

// A run at step 0 that may start and step, with a reason for every button.
TrainingControls::State fresh()
{
    TrainingControls::State s;
    s.ready = true;
    s.canStep = true;
    s.whyNotStart = QStringLiteral("why not start");
    s.whyNotPause = QStringLiteral("why not pause");
    s.whyNotStep = QStringLiteral("why not step");
    s.whyNotReset = QStringLiteral("why not reset");
    return s;
}

TrainingControls::State running()
{
    TrainingControls::State s = fresh();
    s.running = true;
    s.begun = true;
    s.canStep = false;
    s.canReset = true;
    return s;
}

TEST(TrainingControls, AFreshRun_StartsAndStepsButHasNothingToPauseOrReset)
{
    TrainingControls c(Pause::Own, Place::Below, {10, 0});
    c.setWords(words());
    c.setState(fresh());
    EXPECT_TRUE(c.startButton()->isEnabled());
    EXPECT_EQ(c.startButton()->text(), QStringLiteral("Start"));
    EXPECT_EQ(c.startButton()->toolTip(), QStringLiteral("Train"));
    EXPECT_FALSE(c.pauseButton()->isEnabled());
    EXPECT_EQ(c.pauseButton()->toolTip(), QStringLiteral("Stop\nwhy not pause"));
    EXPECT_TRUE(c.stepButton()->isEnabled());
    EXPECT_EQ(c.stepButton()->toolTip(), QStringLiteral("One step"));
    EXPECT_FALSE(c.resetButton()->isEnabled());
    EXPECT_EQ(c.resetButton()->toolTip(), QStringLiteral("Back to 0\nwhy not reset"));
}

TEST(TrainingControls, ARunningRun_PausesAndResetsWhileStartWaitsAndReadsAsResume)
{
    TrainingControls c(Pause::Own, Place::Below, {10, 0});
    c.setWords(words());
    c.setState(running());
    EXPECT_FALSE(c.startButton()->isEnabled());
    EXPECT_EQ(c.startButton()->text(), QStringLiteral("Continue"));
    EXPECT_EQ(c.startButton()->toolTip(), QStringLiteral("Train\nwhy not start"));
    EXPECT_TRUE(c.pauseButton()->isEnabled());
    EXPECT_FALSE(c.stepButton()->isEnabled());
    EXPECT_EQ(c.stepButton()->toolTip(), QStringLiteral("One step\nwhy not step"));
    EXPECT_TRUE(c.resetButton()->isEnabled());
}

TEST(TrainingControls, NoRunOrAFinishedOne_CannotStart)
{
    for (const Pause pause : {Pause::Own, Pause::OnStart}) {
        TrainingControls c(pause, Place::Below, {10, 0});
        c.setWords(words());
        TrainingControls::State none;
        c.setState(none);
        EXPECT_FALSE(c.startButton()->isEnabled());
        EXPECT_FALSE(c.stepButton()->isEnabled());
        TrainingControls::State finished = fresh();
        finished.begun = true;
        finished.finished = true;
        c.setState(finished);
        EXPECT_FALSE(c.startButton()->isEnabled());
        EXPECT_EQ(c.startButton()->text(), QStringLiteral("Continue"));
    }
}

TEST(TrainingControls, StartThatAlsoPauses_TurnsIntoPauseWhileTheRunTrains)
{
    TrainingControls c(Pause::OnStart, Place::Below, {10, 0});
    c.setWords(words());
    EXPECT_EQ(c.pauseButton(), nullptr);
    QSignalSpy starts(&c, &TrainingControls::startRequested);
    QSignalSpy pauses(&c, &TrainingControls::pauseRequested);
    c.setState(fresh());
    c.startButton()->click();
    EXPECT_EQ(starts.count(), 1);
    EXPECT_EQ(pauses.count(), 0);

    c.setState(running());
    EXPECT_TRUE(c.startButton()->isEnabled());
    EXPECT_EQ(c.startButton()->text(), QStringLiteral("Pause"));
    EXPECT_EQ(c.startButton()->toolTip(), QStringLiteral("Stop"));
    c.startButton()->click();
    EXPECT_EQ(starts.count(), 1);
    EXPECT_EQ(pauses.count(), 1);

    TrainingControls::State paused = running();
    paused.running = false;
    c.setState(paused);
    EXPECT_EQ(c.startButton()->text(), QStringLiteral("Continue"));
    c.startButton()->click();
    EXPECT_EQ(starts.count(), 2);
    EXPECT_EQ(pauses.count(), 1);
}

TEST(TrainingControls, EachButton_AsksForWhatItDoes)
{
    TrainingControls c(Pause::Own, Place::Below, {10, 0});
    c.setWords(words());
    QSignalSpy starts(&c, &TrainingControls::startRequested);
    QSignalSpy pauses(&c, &TrainingControls::pauseRequested);
    QSignalSpy steps(&c, &TrainingControls::stepRequested);
    QSignalSpy resets(&c, &TrainingControls::resetRequested);
    c.setState(fresh());
    c.startButton()->click();
    c.stepButton()->click();
    c.setState(running());
    c.pauseButton()->click();
    c.resetButton()->click();
    c.startButton()->click();  // disabled while running: asks for nothing
    EXPECT_EQ(starts.count(), 1);
    EXPECT_EQ(steps.count(), 1);
    EXPECT_EQ(pauses.count(), 1);
    EXPECT_EQ(resets.count(), 1);
}

TEST(TrainingControls, TheSpeed_SetsTheDelayAfterEachStepAndSaysSo)
{
    TrainingControls c(Pause::Own, Place::Below, {50, 200, 0});
    EXPECT_EQ(c.speedSlider()->value(), c.speedSlider()->maximum());
    EXPECT_EQ(c.stepDelayUs(), 0);
    QSignalSpy delays(&c, &TrainingControls::delayChanged);
    c.speedSlider()->setValue(c.speedSlider()->minimum());
    ASSERT_EQ(delays.count(), 1);
    EXPECT_EQ(delays.at(0).at(0).toInt(), 20000);
    EXPECT_EQ(c.stepDelayUs(), 20000);
    c.speedSlider()->setValue(1);
    ASSERT_EQ(delays.count(), 2);
    EXPECT_EQ(delays.at(1).at(0).toInt(), 5000);
}

TEST(TrainingControls, TheSpeed_SitsUnderTheButtonsOrWhereThePanelPutsIt)
{
    TrainingControls below(Pause::Own, Place::Below, {10, 0});
    EXPECT_TRUE(below.isAncestorOf(below.speed()));

    QWidget panel;
    auto* layout = new QVBoxLayout(&panel);
    auto* apart = new TrainingControls(Pause::Own, Place::Apart, {10, 0}, &panel);
    auto* elsewhere = new QWidget(&panel);
    layout->addWidget(apart);
    layout->addWidget(elsewhere);
    (new QVBoxLayout(elsewhere))->addWidget(apart->speed());
    EXPECT_EQ(apart->speed()->parentWidget(), elsewhere);
    // It still drives the controls' delay where it is.
    QSignalSpy delays(apart, &TrainingControls::delayChanged);
    apart->speedSlider()->setValue(0);
    EXPECT_EQ(delays.count(), 1);
    EXPECT_EQ(apart->stepDelayUs(), 100000);
}

TEST(TrainingControls, Keys_ClickEnabledButtonsFromAnywhereInThePanelAndShowInTheTooltips)
{
    QWidget panel;
    auto* layout = new QVBoxLayout(&panel);
    auto* edit = new QLineEdit(&panel);
    auto* c = new TrainingControls(Pause::Own, Place::Below, {10, 0}, &panel);
    layout->addWidget(edit);
    layout->addWidget(c);
    c->setWords(words());
    const QKeySequence startKey(Qt::CTRL | Qt::Key_Return);
    const QKeySequence pauseKey(Qt::CTRL | Qt::Key_Period);
    c->setKeys({startKey, pauseKey, QKeySequence(), QKeySequence()}, &panel);
    c->setState(fresh());
    EXPECT_EQ(c->startButton()->toolTip(),
              QStringLiteral("Train (%1)").arg(startKey.toString(QKeySequence::NativeText)));
    EXPECT_EQ(c->stepButton()->toolTip(), QStringLiteral("One step"));

    panel.show();
    panel.activateWindow();
    ASSERT_TRUE(QTest::qWaitForWindowActive(&panel));
    edit->setFocus();
    ASSERT_TRUE(QTest::qWaitFor([edit] { return QApplication::focusWidget() == edit; }));
    QSignalSpy starts(c, &TrainingControls::startRequested);
    QSignalSpy pauses(c, &TrainingControls::pauseRequested);
    QTest::keyClick(edit, Qt::Key_Return, Qt::ControlModifier);
    EXPECT_EQ(starts.count(), 1);
    QTest::keyClick(edit, Qt::Key_Period, Qt::ControlModifier);  // Pause is disabled
    EXPECT_EQ(pauses.count(), 0);

    c->setState(running());
    QTest::keyClick(edit, Qt::Key_Return, Qt::ControlModifier);  // Start is disabled
    EXPECT_EQ(starts.count(), 1);
    QTest::keyClick(edit, Qt::Key_Period, Qt::ControlModifier);
    EXPECT_EQ(pauses.count(), 1);
}

TEST(TrainingControls, ThePauseKey_PausesThroughStartWhenStartAlsoPauses)
{
    QWidget panel;
    auto* layout = new QVBoxLayout(&panel);
    auto* edit = new QLineEdit(&panel);
    auto* c = new TrainingControls(Pause::OnStart, Place::Below, {10, 0}, &panel);
    layout->addWidget(edit);
    layout->addWidget(c);
    c->setWords(words());
    c->setKeys({QKeySequence(Qt::CTRL | Qt::Key_Return), QKeySequence(Qt::CTRL | Qt::Key_Period),
                QKeySequence(), QKeySequence()},
               &panel);
    panel.show();
    panel.activateWindow();
    ASSERT_TRUE(QTest::qWaitForWindowActive(&panel));
    edit->setFocus();
    ASSERT_TRUE(QTest::qWaitFor([edit] { return QApplication::focusWidget() == edit; }));
    QSignalSpy starts(c, &TrainingControls::startRequested);
    QSignalSpy pauses(c, &TrainingControls::pauseRequested);
    c->setState(fresh());
    QTest::keyClick(edit, Qt::Key_Period, Qt::ControlModifier);  // not training
    EXPECT_EQ(pauses.count(), 0);
    c->setState(running());
    QTest::keyClick(edit, Qt::Key_Return, Qt::ControlModifier);  // Start is Pause now
    EXPECT_EQ(starts.count(), 0);
    QTest::keyClick(edit, Qt::Key_Period, Qt::ControlModifier);
    EXPECT_EQ(pauses.count(), 1);
}

}  // namespace
}  // namespace attnlab
