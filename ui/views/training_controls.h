// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The run controls both trainers share: Start (which reads as Continue once the run has taken a
// step), Pause, Step, Reset and the speed. The panel says what its run allows now (setState)
// and which words the buttons carry (setWords: the words say what a button does to that
// panel's run, so they are the panel's); the controls enable the buttons by the state, add the
// panel's reason under the tooltip of a disabled one, and ask for what a button does through a
// signal. The panel then does it to its run: the controls never touch a run themselves. Pause
// is a button of its own, or Start turns into Pause while the run trains.

#include <vector>

#include <QKeySequence>
#include <QString>
#include <QWidget>

class QPushButton;
class QSlider;

namespace attnlab {

class SpeedControl;

class TrainingControls : public QWidget {
    Q_OBJECT
public:
    // Where Pause is: a button of its own beside Start, or Start itself while the run trains.
    enum class PauseButton { Own, OnStart };
    // Where the speed is: under the buttons, or apart, where the panel lays out speed().
    enum class SpeedPlace { Below, Apart };

    // What the buttons say, in the panel's words and language.
    struct Words {
        QString start;   // Start before the run has taken a step
        QString resume;  // Start once it has (Continue)
        QString pause;
        QString step;
        QString reset;
        QString startTip, pauseTip, stepTip, resetTip;  // what each does
    };

    // What the panel's run allows now. A reason, when given, is added under the tooltip of its
    // button while the button is disabled.
    struct State {
        bool ready = false;     // there is a run to train
        bool running = false;   // it is training
        bool begun = false;     // it has taken a step: Start reads as resume
        bool finished = false;  // it has taken every step it was set: nothing to Start
        bool canStep = false;   // Step may take one step now
        bool canReset = false;  // there is something to go back to step 0 from
        QString whyNotStart, whyNotPause, whyNotStep, whyNotReset;
    };

    // Keyboard shortcuts of the buttons; an empty sequence is none.
    struct Keys {
        QKeySequence start, pause, step, reset;
    };

    // `stepsPerSecond`: the speed's rates, slowest first, 0 for full speed (SpeedControl).
    TrainingControls(PauseButton pause, SpeedPlace place, std::vector<int> stepsPerSecond,
                     QWidget* parent = nullptr);

    void setWords(const Words& words);
    void setState(const State& state);
    // The keys click their buttons (when enabled) while the focus is anywhere in `scope`, the
    // panel, and are shown in the tooltips. Set once.
    void setKeys(const Keys& keys, QWidget* scope);

    [[nodiscard]] const State& state() const { return state_; }
    [[nodiscard]] QPushButton* startButton() const { return start_; }
    // Null when Start is also Pause (PauseButton::OnStart).
    [[nodiscard]] QPushButton* pauseButton() const { return pause_; }
    [[nodiscard]] QPushButton* stepButton() const { return step_; }
    [[nodiscard]] QPushButton* resetButton() const { return reset_; }
    [[nodiscard]] SpeedControl* speed() const { return speed_; }
    [[nodiscard]] QSlider* speedSlider() const;
    // The wait after each step at the chosen speed, 0 at full speed.
    [[nodiscard]] int stepDelayUs() const;

Q_SIGNALS:
    void startRequested();
    void pauseRequested();
    void stepRequested();
    void resetRequested();
    // The speed changed: the run should wait this long after each step.
    void delayChanged(int microseconds);

private:
    enum class Action { Start, Pause, Step, Reset };
    // The texts, tooltips and enabling from the words, the state and the keys.
    void refresh();
    // The request a click on Start makes: Pause while Start is also Pause and the run trains.
    void startClicked();
    // The button that does `action` now (null: none), which its key clicks.
    [[nodiscard]] QPushButton* buttonFor(Action action) const;

    const PauseButton pauseButton_;
    QPushButton* start_;
    QPushButton* pause_ = nullptr;
    QPushButton* step_;
    QPushButton* reset_;
    SpeedControl* speed_;
    Words words_;
    State state_;
    Keys keys_;
};

}  // namespace attnlab
