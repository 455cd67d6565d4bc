// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The toggles: mode (self / causal / cross), scaling and temperature, d_k, score
// function, rotary positions and their theta, shared projections, number of heads and the
// head shown. Each change is
// one undoable session change; the panel mirrors the session on every change.

#include <QWidget>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QFormLayout;
class QSpinBox;

namespace attnlab {

class Document;
class PanelMessage;

class ControlsPanel : public QWidget {
    Q_OBJECT
public:
    explicit ControlsPanel(Document* doc, QWidget* parent = nullptr);

    [[nodiscard]] QComboBox* modeBox() const { return mode_; }
    [[nodiscard]] QComboBox* scalingBox() const { return scaling_; }
    [[nodiscard]] QSpinBox* keyDimBox() const { return dk_; }
    [[nodiscard]] QSpinBox* headsBox() const { return heads_; }
    [[nodiscard]] QCheckBox* sharedBox() const { return shared_; }
    [[nodiscard]] QDoubleSpinBox* temperatureBox() const { return temperature_; }
    [[nodiscard]] QCheckBox* ropeBox() const { return rope_; }
    [[nodiscard]] QDoubleSpinBox* ropeThetaBox() const { return theta_; }
    // Why the panel's last change was refused, or empty.
    [[nodiscard]] QString message() const;

private:
    void buildScoringControls(QFormLayout* form);
    void buildPositionControls(QFormLayout* form);
    void buildHeadControls(QFormLayout* form);
    void connectControls();
    void refresh();
    void changeMode(int index);
    void changeScaling(int index);
    void changeTemperature(double value);
    void changeKeyDim(int dk);
    void changeScore(int index);
    void changeShared(bool on);
    void changeRope(bool on);
    void changeTheta(double theta);
    void changeHeads(int heads);
    void settle(bool accepted);

    Document* doc_;
    QFormLayout* form_;
    QComboBox* mode_;
    QComboBox* scaling_;
    QDoubleSpinBox* temperature_;
    QSpinBox* dk_;
    QComboBox* score_;
    QCheckBox* rope_;
    QDoubleSpinBox* theta_;
    QCheckBox* shared_;
    QSpinBox* heads_;
    QComboBox* head_;
    PanelMessage* message_;
};

}  // namespace attnlab
