// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/panels/controls_panel.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QSignalBlocker>
#include <QSpinBox>

#include "ui/document/document.h"
#include "ui/views/panel_message.h"

namespace attnlab {

ControlsPanel::ControlsPanel(Document* doc, QWidget* parent) : QWidget(parent), doc_(doc)
{
    form_ = new QFormLayout(this);
    buildScoringControls(form_);
    buildPositionControls(form_);
    buildHeadControls(form_);
    connectControls();
    refresh();
}

// How the scores are made: the mode, their scaling, d_k and the score function.
void ControlsPanel::buildScoringControls(QFormLayout* form)
{
    mode_ = new QComboBox(this);
    mode_->addItem(tr("Self-attention"));
    mode_->addItem(tr("Masked (causal) self-attention"));
    mode_->addItem(tr("Cross-attention"));
    mode_->setToolTip(
        tr("Self: Q, K, V from one sequence. Causal: every future position is "
           "masked before the softmax. Cross: Q from the target, K and V from the "
           "source sequence."));
    form->addRow(tr("&Mode:"), mode_);

    scaling_ = new QComboBox(this);
    scaling_->addItem(tr("Divide by √d_k"));
    scaling_->addItem(tr("No scaling"));
    scaling_->addItem(tr("Temperature τ"));
    scaling_->setToolTip(
        tr("Without scaling the variance of q·k grows with d_k, the softmax "
           "saturates to nearly one-hot and its gradient vanishes."));
    form->addRow(tr("&Scaling:"), scaling_);

    temperature_ = new QDoubleSpinBox(this);
    temperature_->setRange(0.01, 1000.0);
    temperature_->setDecimals(2);
    temperature_->setSingleStep(0.1);
    // Typed values apply on Enter or when focus leaves: applying each keystroke would reformat
    // the text under the cursor ("0.2" becomes "0.20", so typing 0.25 gives 0.20).
    temperature_->setKeyboardTracking(false);
    temperature_->setToolTip(tr("Scores are divided by τ before the softmax."));
    form->addRow(tr("&Temperature τ:"), temperature_);

    dk_ = new QSpinBox(this);
    dk_->setRange(1, 512);
    dk_->setKeyboardTracking(false);  // typing 16 must not first apply d_k = 1
    dk_->setToolTip(tr("Key dimension d_k. Changing it draws new projections from the seed."));
    form->addRow(tr("&d_k:"), dk_);

    score_ = new QComboBox(this);
    score_->addItem(tr("Scaled dot product"));
    score_->addItem(tr("Additive (vᵀ tanh(W q + U k))"));
    score_->setToolTip(
        tr("Dot-product scoring is one dense matrix product; additive scoring "
           "runs a small feed-forward network for every pair."));
    form->addRow(tr("S&core:"), score_);
}

void ControlsPanel::buildPositionControls(QFormLayout* form)
{
    rope_ = new QCheckBox(tr("&Rotary positions (RoPE)"), this);
    rope_->setToolTip(
        tr("Turns each query and key by its position before the scores, pair of coordinates "
           "by pair, so that q·k depends on the distance between the tokens."));
    form->addRow(QString(), rope_);

    theta_ = new QDoubleSpinBox(this);
    theta_->setRange(1.0, 1e7);
    theta_->setDecimals(1);
    theta_->setStepType(QAbstractSpinBox::AdaptiveDecimalStepType);
    theta_->setKeyboardTracking(false);  // typing 500 must not first apply θ = 5
    theta_->setToolTip(
        tr("The base θ of the rotation: pair i turns by position × θ^(−2i/d_k). A smaller θ "
           "turns faster, so the preference for near tokens decays and oscillates sooner."));
    form->addRow(tr("RoPE &base θ:"), theta_);
}

// The projections and the heads: how many, which one is shown; then the refusal message.
void ControlsPanel::buildHeadControls(QFormLayout* form)
{
    shared_ = new QCheckBox(tr("One projection for Q, K and V"), this);
    shared_->setToolTip(
        tr("W_K and W_V taken equal to W_Q: a token then mostly attends to "
           "itself."));
    form->addRow(QString(), shared_);

    heads_ = new QSpinBox(this);
    heads_->setRange(1, 16);
    heads_->setKeyboardTracking(false);
    heads_->setToolTip(
        tr("Number of heads. The heads that stay keep their matrices; new ones are drawn from "
           "the seed."));
    form->addRow(tr("&Heads:"), heads_);

    head_ = new QComboBox(this);
    head_->setToolTip(tr("The head shown in the maps and panels."));
    form->addRow(tr("Head &shown:"), head_);
    message_ = new PanelMessage(this);
    form->addRow(message_);
}

void ControlsPanel::connectControls()
{
    connect(mode_, &QComboBox::activated, this, &ControlsPanel::changeMode);
    connect(scaling_, &QComboBox::activated, this, &ControlsPanel::changeScaling);
    connect(temperature_, &QDoubleSpinBox::valueChanged, this, &ControlsPanel::changeTemperature);
    connect(dk_, &QSpinBox::editingFinished, this, [this] { changeKeyDim(dk_->value()); });
    connect(score_, &QComboBox::activated, this, &ControlsPanel::changeScore);
    connect(shared_, &QCheckBox::toggled, this, &ControlsPanel::changeShared);
    connect(rope_, &QCheckBox::toggled, this, &ControlsPanel::changeRope);
    connect(theta_, &QDoubleSpinBox::valueChanged, this, &ControlsPanel::changeTheta);
    connect(heads_, &QSpinBox::editingFinished, this, [this] { changeHeads(heads_->value()); });
    connect(head_, &QComboBox::activated, doc_, &Document::setHead);
    connect(doc_, &Document::inputsChanged, this, &ControlsPanel::refresh);
    connect(doc_, &Document::selectionChanged, this, &ControlsPanel::refresh);
}

void ControlsPanel::refresh()
{
    const attn::AttentionInput& in = doc_->session().input;
    const QSignalBlocker b1(mode_), b2(scaling_), b3(temperature_), b4(dk_), b5(score_),
        b6(shared_), b7(heads_), b8(head_), b9(rope_), b10(theta_);
    mode_->setCurrentIndex(static_cast<int>(in.mode));
    scaling_->setCurrentIndex(in.scaling == attn::Scaling::SqrtDk ? 0
                              : in.scaling == attn::Scaling::None ? 1
                                                                  : 2);
    temperature_->setValue(in.temperature);
    temperature_->setEnabled(in.scaling == attn::Scaling::Temperature);
    dk_->setValue(static_cast<int>(in.keyDim()));
    score_->setCurrentIndex(static_cast<int>(in.score));
    shared_->setChecked(in.sharedProjections);
    rope_->setChecked(in.rope.has_value());
    theta_->setValue(in.rope ? in.rope->theta : attn::Rope{}.theta);
    form_->setRowVisible(theta_, in.rope.has_value());
    const int heads = static_cast<int>(in.heads.size());
    heads_->setValue(heads);
    head_->clear();
    for (int h = 0; h < heads; ++h) head_->addItem(tr("Head %1").arg(h + 1));
    head_->setCurrentIndex(doc_->head());
}

void ControlsPanel::changeMode(int index)
{
    settle(doc_->setMode(static_cast<attn::Mode>(index)));
}

void ControlsPanel::changeScaling(int index)
{
    const attn::Scaling scaling = index == 0   ? attn::Scaling::SqrtDk
                                  : index == 1 ? attn::Scaling::None
                                               : attn::Scaling::Temperature;
    settle(doc_->setScaling(scaling));
}

void ControlsPanel::changeTemperature(double value)
{
    settle(doc_->setTemperature(value));
}

void ControlsPanel::changeKeyDim(int dk)
{
    if (dk == doc_->session().input.keyDim()) return;
    settle(doc_->setKeyDim(dk));
}

void ControlsPanel::changeScore(int index)
{
    settle(doc_->setScore(static_cast<attn::ScoreFunction>(index)));
}

void ControlsPanel::changeShared(bool on)
{
    settle(doc_->setShared(on));
}

void ControlsPanel::changeRope(bool on)
{
    std::optional<attn::Rope> rope;
    if (on) {
        rope = attn::Rope{};
        rope->theta = theta_->value();
    }
    settle(doc_->setRope(rope));
}

void ControlsPanel::changeTheta(double theta)
{
    std::optional<attn::Rope> rope = doc_->session().input.rope;
    if (!rope || rope->theta == theta) return;
    rope->theta = theta;
    settle(doc_->setRope(rope, true));  // the spin box's steps are one undo step
}

void ControlsPanel::changeHeads(int heads)
{
    if (heads == static_cast<int>(doc_->session().input.heads.size())) return;
    settle(doc_->setHeadCount(heads));
}

void ControlsPanel::settle(bool accepted)
{
    // A refused change: say why here, beside the control, and show the session as it is.
    message_->say(accepted ? QString() : doc_->lastError());
    if (!accepted) refresh();
}

QString ControlsPanel::message() const
{
    return message_->isHidden() ? QString() : message_->text();
}

}  // namespace attnlab
