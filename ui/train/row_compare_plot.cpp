// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/train/row_compare_plot.h"

#include <algorithm>

#include "ui/readers/session.h"

namespace attnlab {

RowComparePlot::RowComparePlot(QWidget* parent) : QCustomPlot(parent)
{
    setObjectName(QStringLiteral("TrainerRowPlot"));
    setMinimumSize(200, 170);
    plotLayout()->insertRow(0);
    title_ = new QCPTextElement(this, QString(), QFont(font().family(), 9, QFont::Bold));
    plotLayout()->addElement(0, 0, title_);
    goal_ = new QCPBars(xAxis, yAxis);
    goal_->setPen(QPen(QColor(90, 90, 90), 1.2));
    goal_->setBrush(QColor(200, 200, 200, 160));
    goal_->setWidth(0.8);
    live_ = new QCPBars(xAxis, yAxis);
    live_->setPen(Qt::NoPen);
    live_->setBrush(QColor(31, 119, 180));
    live_->setWidth(0.45);
    goal_->setName(tr("target"));
    live_->setName(tr("P now"));
    yAxis->setRange(0.0, 1.38);  // room above a weight of 1 for the legend
    legend->setVisible(true);
    legend->setFont(QFont(font().family(), 8));
    axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignRight);
}

void RowComparePlot::setRow(const QString& title, const QStringList& keys,
                            const QVector<double>& weights, const QVector<double>& target)
{
    weights_ = weights;
    target_ = target;
    title_->setText(title);
    QVector<double> x;
    const qsizetype n = std::max(weights.size(), target.size());
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    const qsizetype every = std::max<qsizetype>(1, n / 12);
    for (qsizetype j = 0; j < n; ++j) {
        x.push_back(static_cast<double>(j));
        if (j % every == 0 && j < keys.size())
            ticker->addTick(static_cast<double>(j), keys[j].left(kMaxShownLabel));
    }
    xAxis->setTicker(ticker);
    xAxis->setTickLabelRotation(n > 6 ? 60 : 0);
    xAxis->setRange(-0.6, static_cast<double>(n) - 0.4);
    live_->setData(x.mid(0, weights.size()), weights, true);
    goal_->setData(x.mid(0, target.size()), target, true);
    replot(rpQueuedReplot);
}

}  // namespace attnlab
