#include "ui/panels/controls_panel.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QSignalBlocker>
#include <QSpinBox>

#include "ui/document/document.h"

namespace attnlab {

namespace {
enum MergeIds { TemperatureMerge = 1 };
}

ControlsPanel::ControlsPanel(Document* doc, QWidget* parent) : QWidget(parent), doc_(doc)
{
    auto* form = new QFormLayout(this);

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
    temperature_->setToolTip(tr("Scores are divided by τ before the softmax."));
    form->addRow(tr("&Temperature τ:"), temperature_);

    dk_ = new QSpinBox(this);
    dk_->setRange(1, 512);
    dk_->setToolTip(tr("Key dimension d_k. Changing it draws new projections from the seed."));
    form->addRow(tr("&d_k:"), dk_);

    score_ = new QComboBox(this);
    score_->addItem(tr("Scaled dot product"));
    score_->addItem(tr("Additive (vᵀ tanh(W q + U k))"));
    score_->setToolTip(
        tr("Dot-product scoring is one dense matrix product; additive scoring "
           "runs a small feed-forward network for every pair."));
    form->addRow(tr("S&core:"), score_);

    shared_ = new QCheckBox(tr("One projection for Q, K and V"), this);
    shared_->setToolTip(
        tr("W_K and W_V taken equal to W_Q: a token then mostly attends to "
           "itself."));
    form->addRow(QString(), shared_);

    heads_ = new QSpinBox(this);
    heads_->setRange(1, 16);
    heads_->setToolTip(tr("Number of heads. Changing it draws new projections from the seed."));
    form->addRow(tr("&Heads:"), heads_);

    head_ = new QComboBox(this);
    head_->setToolTip(tr("The head shown in the maps and panels."));
    form->addRow(tr("Head &shown:"), head_);

    connect(mode_, &QComboBox::activated, this, &ControlsPanel::changeMode);
    connect(scaling_, &QComboBox::activated, this, &ControlsPanel::changeScaling);
    connect(temperature_, &QDoubleSpinBox::valueChanged, this, &ControlsPanel::changeTemperature);
    connect(dk_, &QSpinBox::editingFinished, this, [this] { changeKeyDim(dk_->value()); });
    connect(score_, &QComboBox::activated, this, &ControlsPanel::changeScore);
    connect(shared_, &QCheckBox::toggled, this, &ControlsPanel::changeShared);
    connect(heads_, &QSpinBox::editingFinished, this, [this] { changeHeads(heads_->value()); });
    connect(head_, &QComboBox::activated, doc_, &Document::setHead);
    connect(doc_, &Document::inputsChanged, this, &ControlsPanel::refresh);
    connect(doc_, &Document::selectionChanged, this, &ControlsPanel::refresh);
    refresh();
}

void ControlsPanel::refresh()
{
    const attn::AttentionInput& in = doc_->session().input;
    const QSignalBlocker b1(mode_), b2(scaling_), b3(temperature_), b4(dk_), b5(score_),
        b6(shared_), b7(heads_), b8(head_);
    mode_->setCurrentIndex(static_cast<int>(in.mode));
    scaling_->setCurrentIndex(in.scaling == attn::Scaling::SqrtDk ? 0
                              : in.scaling == attn::Scaling::None ? 1
                                                                  : 2);
    temperature_->setValue(in.temperature);
    temperature_->setEnabled(in.scaling == attn::Scaling::Temperature);
    dk_->setValue(static_cast<int>(in.keyDim()));
    score_->setCurrentIndex(static_cast<int>(in.score));
    shared_->setChecked(in.sharedProjections);
    const int heads = static_cast<int>(in.heads.size());
    heads_->setValue(heads);
    head_->clear();
    for (int h = 0; h < heads; ++h) head_->addItem(tr("Head %1").arg(h + 1));
    head_->setCurrentIndex(doc_->head());
}

void ControlsPanel::changeMode(int index)
{
    const auto mode = static_cast<attn::Mode>(index);
    if (!doc_->changeSession(tr("Change mode"), [mode](Session& s) {
            s.input.mode = mode;
            s.input.mask.reset();  // the custom mask's shape depends on the key sequence
            s.input.edits.clear();
        }))
        refresh();
}

void ControlsPanel::changeScaling(int index)
{
    const attn::Scaling scaling = index == 0   ? attn::Scaling::SqrtDk
                                  : index == 1 ? attn::Scaling::None
                                               : attn::Scaling::Temperature;
    if (!doc_->changeSession(tr("Change scaling"),
                             [scaling](Session& s) { s.input.scaling = scaling; }))
        refresh();
}

void ControlsPanel::changeTemperature(double value)
{
    doc_->changeSession(
        tr("Change temperature"), [value](Session& s) { s.input.temperature = value; },
        TemperatureMerge);
}

void ControlsPanel::changeKeyDim(int dk)
{
    if (dk == doc_->session().input.keyDim()) return;
    if (!doc_->changeSession(tr("Change d_k"), [dk](Session& s) {
            const int heads = static_cast<int>(s.input.heads.size());
            const int dv = s.input.sharedProjections ? dk : static_cast<int>(s.input.valueDim());
            randomiseProjections(s, heads, dk, dv, s.seed);
        }))
        refresh();
}

void ControlsPanel::changeScore(int index)
{
    const auto score = static_cast<attn::ScoreFunction>(index);
    if (!doc_->changeSession(tr("Change score function"),
                             [score](Session& s) { s.input.score = score; }))
        refresh();
}

void ControlsPanel::changeShared(bool on)
{
    if (!doc_->changeSession(
            on ? tr("Share projections") : tr("Separate projections"), [on](Session& s) {
                s.input.sharedProjections = on;
                const int dk = static_cast<int>(s.input.keyDim());
                const int dv = static_cast<int>(s.input.heads.front().W_V.cols());
                if (on && dv != dk)
                    randomiseProjections(s, static_cast<int>(s.input.heads.size()), dk, dk, s.seed);
                s.input.edits.clear();
            }))
        refresh();
}

void ControlsPanel::changeHeads(int heads)
{
    if (heads == static_cast<int>(doc_->session().input.heads.size())) return;
    if (!doc_->changeSession(tr("Change number of heads"), [heads](Session& s) {
            randomiseProjections(s, heads, static_cast<int>(s.input.keyDim()),
                                 static_cast<int>(s.input.valueDim()), s.seed);
        }))
        refresh();
}

}  // namespace attnlab
