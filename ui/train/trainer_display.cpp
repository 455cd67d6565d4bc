// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/train/trainer_display.h"

#include <QCheckBox>
#include <QGridLayout>
#include <QLabel>

#include "ui/readers/session.h"
#include "ui/train/loss_plot.h"
#include "ui/train/row_compare_plot.h"
#include "ui/views/heatmap_view.h"

namespace attnlab {

namespace {

HeatmapContent contentFor(const attn::Matrix& m, const QStringList& rows,
                          const QStringList& columns, const QString& title)
{
    HeatmapContent c;
    c.values = m;
    c.rowLabels = labelsFor(rows, m.rows());
    c.columnLabels = labelsFor(columns, m.cols());
    c.title = title;
    c.scale = ColorScale::Weights;
    return c;
}

}  // namespace

TrainerDisplay::TrainerDisplay(QWidget* parent) : QWidget(parent)
{
    loss_ = new LossPlot(this);
    log_ = new QCheckBox(tr("&Log scale"), this);
    log_->setObjectName(QStringLiteral("TrainerLogScale"));
    log_->setToolTip(tr("Draw the loss on a logarithmic axis: late progress stays visible."));
    connect(log_, &QCheckBox::toggled, loss_, &LossPlot::setLogScale);
    target_ = new HeatmapView(this);
    target_->setObjectName(QStringLiteral("TrainerTargetMap"));
    live_ = new HeatmapView(this);
    live_->setObjectName(QStringLiteral("TrainerLiveMap"));
    for (HeatmapView* v : {target_, live_}) {
        v->setMinimumSize(200, 190);
        v->setValueTextLimit(0);
    }
    rowPlot_ = new RowComparePlot(this);
    note_ = new QLabel(this);
    note_->setObjectName(QStringLiteral("TrainerSequenceNote"));
    note_->setWordWrap(true);
    note_->setStyleSheet(QStringLiteral("font-weight: bold;"));
    note_->hide();

    auto* grid = new QGridLayout(this);
    grid->setContentsMargins(0, 0, 0, 0);
    grid->addWidget(loss_, 0, 0, 2, 1);
    underLoss_ = new QHBoxLayout;
    underLoss_->setContentsMargins(0, 0, 0, 0);
    underLoss_->addWidget(log_);
    grid->addLayout(underLoss_, 2, 0);
    grid->addWidget(note_, 0, 1, 1, 3);
    grid->addWidget(target_, 1, 1, 2, 1);
    grid->addWidget(live_, 1, 2, 2, 1);
    grid->addWidget(rowPlot_, 1, 3, 2, 1);
    grid->setRowStretch(1, 1);
    grid->setColumnStretch(0, 4);
    for (int c = 1; c <= 3; ++c) grid->setColumnStretch(c, 3);

    connect(target_, &HeatmapView::cellClicked, this,
            [this](int row, int column, Qt::KeyboardModifiers modifiers) {
                setRow(row);
                Q_EMIT targetClicked(row, column, modifiers);
            });
    connect(live_, &HeatmapView::cellClicked, this,
            [this](int row, int, Qt::KeyboardModifiers) { setRow(row); });
}

void TrainerDisplay::addUnderLossPlot(QWidget* w)
{
    underLoss_->addStretch(1);
    underLoss_->addWidget(w);
}

void TrainerDisplay::setTokens(const QStringList& rows, const QStringList& columns)
{
    rows_ = rows;
    columns_ = columns;
}

void TrainerDisplay::setTarget(const attn::Matrix& target, const QString& title)
{
    targetMatrix_ = target;
    target_->setContent(contentFor(target, rows_, columns_, title));
    if (row_ < 0 || row_ >= target.rows()) row_ = static_cast<int>(target.rows()) - 1;
    updateRow();
}

void TrainerDisplay::setLive(const attn::Matrix& weights, int step)
{
    liveMatrix_ = weights;
    liveTitle_ = tr("P after %n step(s)", nullptr, step);
    live_->setContent(contentFor(weights, rows_, columns_, liveTitle_));
    updateRow();
}

void TrainerDisplay::clearLive()
{
    liveMatrix_ = attn::Matrix::Zero(targetMatrix_.rows(), targetMatrix_.cols());
    live_->setContent(contentFor(liveMatrix_, rows_, columns_, tr("P (not started)")));
    updateRow();
}

void TrainerDisplay::setRow(int row)
{
    row_ = row;
    target_->setSelection(row, -1);
    live_->setSelection(row, -1);
    updateRow();
}

void TrainerDisplay::updateRow()
{
    QVector<double> w, t;
    if (row_ >= 0 && row_ < liveMatrix_.rows())
        for (long j = 0; j < liveMatrix_.cols(); ++j) w.push_back(liveMatrix_(row_, j));
    if (row_ >= 0 && row_ < targetMatrix_.rows())
        for (long j = 0; j < targetMatrix_.cols(); ++j) t.push_back(targetMatrix_(row_, j));
    const QStringList rows = labelsFor(rows_, std::max<long>(row_ + 1, 1));
    const QString token = row_ >= 0 && row_ < rows.size() ? rows[row_] : QString();
    rowPlot_->setRow(tr("Row %1 “%2”: P vs target").arg(row_ + 1).arg(token.left(kMaxShownLabel)),
                     labelsFor(columns_, std::max(liveMatrix_.cols(), targetMatrix_.cols())), w, t);
    target_->setSelection(row_, -1);
    live_->setSelection(row_, -1);
}

}  // namespace attnlab
