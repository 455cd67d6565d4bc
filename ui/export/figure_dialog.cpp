// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/export/figure_dialog.h"

#include <algorithm>

#include <QButtonGroup>
#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QRadioButton>
#include <QSpinBox>
#include <QVBoxLayout>

namespace attnlab {

namespace {

constexpr FigureStage kDialogStages[] = {
    FigureStage::Weights, FigureStage::Difference, FigureStage::Pipeline, FigureStage::X,
    FigureStage::Q,       FigureStage::K,          FigureStage::V,        FigureStage::Scores,
    FigureStage::Scaled,  FigureStage::Mask,       FigureStage::Output,   FigureStage::Combined,
};

}  // namespace

FigureDialog::FigureDialog(const FigureSource& source, const FigureExportSettings& initial,
                           QWidget* parent)
    : QDialog(parent), source_(source)
{
    setWindowTitle(tr("Export figure"));
    auto* form = new QFormLayout;
    addFigureRows(form, initial);
    addSizeRows(form, initial);
    addRangeRows(form, initial);

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("&Export…"));
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(buttons);

    sizeTouched_ = !initial.defaultSize;
    connect(stage_, &QComboBox::currentIndexChanged, this, &FigureDialog::updateDefaultSize);
    connect(head_, &QComboBox::currentIndexChanged, this, &FigureDialog::updateDefaultSize);
    for (QSpinBox* s : {width_, height_})
        connect(s, &QSpinBox::editingFinished, this, [this] { sizeTouched_ = true; });
    if (initial.defaultSize) updateDefaultSize();
}

void FigureDialog::addFigureRows(QFormLayout* form, const FigureExportSettings& initial)
{
    stage_ = new QComboBox(this);
    for (FigureStage s : kDialogStages) {
        stage_->addItem(stageDisplayName(s), static_cast<int>(s));
        if (s == initial.request.stage) stage_->setCurrentIndex(stage_->count() - 1);
    }
    form->addRow(tr("&Show:"), stage_);
    head_ = new QComboBox(this);
    const int heads = source_.result ? static_cast<int>(source_.result->heads.size()) : 0;
    for (int h = 0; h < heads; ++h) head_->addItem(tr("Head %1").arg(h + 1), h);
    head_->addItem(tr("All heads"), -1);
    head_->setCurrentIndex(initial.request.allHeads ? heads
                                                    : std::clamp(initial.request.head, 0, heads));
    form->addRow(tr("&Head:"), head_);
}

void FigureDialog::addSizeRows(QFormLayout* form, const FigureExportSettings& initial)
{
    auto* sizeRow = new QHBoxLayout;
    width_ = new QSpinBox(this);
    height_ = new QSpinBox(this);
    for (QSpinBox* s : {width_, height_}) {
        s->setRange(64, 10000);
        s->setSuffix(tr(" px"));
        sizeRow->addWidget(s);
    }
    width_->setValue(initial.size.width());
    height_->setValue(initial.size.height());
    sizeRow->insertWidget(1, new QLabel(QStringLiteral("×"), this));
    // A row whose field is a layout gets a label without a buddy, which would print the
    // mnemonic's "&" as it is: give it the first spin box as its buddy.
    auto* sizeLabel = new QLabel(tr("&Size:"), this);
    sizeLabel->setBuddy(width_);
    form->addRow(sizeLabel, sizeRow);
    scale_ = new QComboBox(this);
    for (int s = 1; s <= 3; ++s)
        scale_->addItem(tr("%1× (PNG %2)").arg(s).arg(s == 1 ? tr("screen") : tr("print")), s);
    scale_->setCurrentIndex(std::clamp(static_cast<int>(initial.scale) - 1, 0, 2));
    scale_->setToolTip(tr("PNG pixels per unit of size; SVG and PDF are vectors at any scale."));
    form->addRow(tr("S&cale:"), scale_);
    square_ = new QCheckBox(tr("S&quare cells"), this);
    square_->setChecked(initial.request.squareCells);
    square_->setToolTip(
        tr("Every cell as wide as it is high; clear to let the cells fill the figure."));
    form->addRow(QString(), square_);
}

void FigureDialog::addRangeRows(QFormLayout* form, const FigureExportSettings& initial)
{
    rangeDefault_ =
        new QRadioButton(tr("Weights on [0, 1], other matrices on their own range"), this);
    rangeData_ = new QRadioButton(tr("Every map on its own range"), this);
    rangeFixed_ = new QRadioButton(tr("One fixed range for every map:"), this);
    rangeFixed_->setToolTip(
        tr("Keeps several exports comparable: the same colour means the "
           "same number in every figure."));
    auto* group = new QButtonGroup(this);
    for (QRadioButton* b : {rangeDefault_, rangeData_, rangeFixed_}) group->addButton(b);
    lo_ = new QDoubleSpinBox(this);
    hi_ = new QDoubleSpinBox(this);
    for (QDoubleSpinBox* s : {lo_, hi_}) {
        s->setRange(-1e6, 1e6);
        s->setDecimals(4);
    }
    lo_->setValue(initial.request.fixedRange ? initial.request.fixedRange->lower : 0.0);
    hi_->setValue(initial.request.fixedRange ? initial.request.fixedRange->upper : 1.0);
    if (initial.request.fixedRange)
        rangeFixed_->setChecked(true);
    else if (initial.request.weightsOnDataRange)
        rangeData_->setChecked(true);
    else
        rangeDefault_->setChecked(true);
    auto* fixedRow = new QHBoxLayout;
    fixedRow->addWidget(rangeFixed_);
    fixedRow->addWidget(lo_);
    fixedRow->addWidget(new QLabel(tr("to"), this));
    fixedRow->addWidget(hi_);
    auto* rangeBox = new QVBoxLayout;
    rangeBox->addWidget(rangeDefault_);
    rangeBox->addWidget(rangeData_);
    rangeBox->addLayout(fixedRow);
    auto* rangeLabel = new QLabel(tr("Colour range:"), this);
    rangeLabel->setBuddy(rangeDefault_);
    form->addRow(rangeLabel, rangeBox);
}

void FigureDialog::updateDefaultSize()
{
    if (sizeTouched_) return;
    Figure f;
    QString error;
    if (!buildFigure(source_, settings().request, f, error)) return;
    const QSize s = defaultFigureSize(f);
    width_->setValue(s.width());
    height_->setValue(s.height());
}

FigureExportSettings FigureDialog::settings() const
{
    FigureExportSettings s;
    s.request.stage = static_cast<FigureStage>(stage_->currentData().toInt());
    const int head = head_->currentData().toInt();
    s.request.allHeads = head < 0;
    s.request.head = std::max(0, head);
    if (rangeFixed_->isChecked() && lo_->value() < hi_->value())
        s.request.fixedRange = ValueRange(lo_->value(), hi_->value());
    s.request.weightsOnDataRange = rangeData_->isChecked();
    s.request.squareCells = square_->isChecked();
    s.size = QSize(width_->value(), height_->value());
    s.scale = scale_->currentData().toDouble();
    s.defaultSize = !sizeTouched_;
    return s;
}

}  // namespace attnlab
