// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// How fast a training run steps, for both trainers: "Speed:", a slider over a short list of
// rates (steps a second, the last one full speed) and the rate it is set to. The run waits
// stepDelayUs() after each step (SteppedRun::setStepDelayUs).

#include <vector>

#include <QWidget>

class QLabel;
class QSlider;

namespace attnlab {

class SpeedControl : public QWidget {
    Q_OBJECT
public:
    // `stepsPerSecond`: the slider's rates from slowest to fastest, 0 for full speed; it starts
    // at the fastest.
    SpeedControl(std::vector<int> stepsPerSecond, QWidget* parent = nullptr);

    // The wait after each step at the chosen rate, 0 at full speed.
    [[nodiscard]] int stepDelayUs() const;
    // The chosen rate in steps a second, 0 for full speed.
    [[nodiscard]] int stepsPerSecond() const;
    [[nodiscard]] QSlider* slider() const { return slider_; }
    // Sets the slider's tooltip and the name's beside it.
    void setHelp(const QString& text);

Q_SIGNALS:
    void delayChanged(int microseconds);

protected:
    void changeEvent(QEvent* event) override;

private:
    void retranslate();

    std::vector<int> rates_;
    QLabel* name_;
    QSlider* slider_;
    QLabel* value_;
};

}  // namespace attnlab
