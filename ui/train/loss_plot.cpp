// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/train/loss_plot.h"

#include <algorithm>
#include <cmath>

#include "ui/views/log_ticker.h"

namespace attnlab {

namespace {

const QColor kColors[2] = {QColor(31, 119, 180), QColor(214, 95, 14)};

}  // namespace

LossPlot::LossPlot(QWidget* parent) : QCustomPlot(parent)
{
    setObjectName(QStringLiteral("TrainerLossPlot"));
    setMinimumSize(260, 170);
    for (int i = 0; i < 2; ++i) {
        graphs_[i] = addGraph();
        graphs_[i]->setPen(QPen(kColors[i], 2.0, i == 0 ? Qt::SolidLine : Qt::DashLine));
        graphs_[i]->setAdaptiveSampling(true);
    }
    xAxis->setLabel(tr("Step"));
    yAxis->setLabel(tr("Loss"));
    xAxis->setRange(0, 10);
    yAxis->setRange(0, 1);
    legend->setFont(QFont(font().family(), 8));
    // The legend lives in a row of its own below the axes (see setCurveCount), never over the
    // curves: the comparison's curves can run anywhere in the plot area.
    axisRect()->insetLayout()->take(legend);
    legend->setFillOrder(QCPLegend::foColumnsFirst);
    legend->setBorderPen(Qt::NoPen);
    legend->setBrush(Qt::NoBrush);
    legend->setMargins(QMargins(4, 0, 4, 2));
    setCurveCount(1);
}

void LossPlot::setCurve(int index, const QString& name, const std::vector<double>& losses,
                        double final)
{
    QCPGraph* g = graphs_[index];
    Drawn& d = drawn_[index];
    if (losses.size() < d.losses) {
        g->data()->clear();
        d = Drawn{};
    }
    if (d.final) g->data()->removeAfter(static_cast<double>(d.losses) - 0.5);
    const auto take = [&d](double y) {
        if (!std::isfinite(y)) return;
        d.lo = std::min(d.lo, y);
        d.hi = std::max(d.hi, y);
        if (y > 0.0) d.loPositive = std::min(d.loPositive, y);
    };
    QVector<double> x, y;
    for (std::size_t k = d.losses; k < losses.size(); ++k) {
        x.push_back(static_cast<double>(k));
        y.push_back(losses[k]);
        take(losses[k]);
    }
    d.losses = losses.size();
    d.final = std::isfinite(final);
    if (d.final) {
        x.push_back(static_cast<double>(losses.size()));
        y.push_back(final);
        take(final);
    }
    const bool renamed = g->name() != name;
    g->setName(name);
    g->addData(x, y, true);
    if (renamed) fitLegend();
    rescale();
}

void LossPlot::clearCurves()
{
    for (int i = 0; i < 2; ++i) {
        graphs_[i]->data()->clear();
        drawn_[i] = Drawn{};
    }
    rescale();
}

void LossPlot::setCurveCount(int count)
{
    graphs_[1]->setVisible(count > 1);
    graphs_[1]->removeFromLegend();
    if (count > 1) graphs_[1]->addToLegend();
    legend->setVisible(count > 1);
    // Only a shown legend takes a row: a single curve keeps the whole height.
    const bool placed = legend->layout() == plotLayout();
    if (count > 1 && !placed) {
        plotLayout()->addElement(1, 0, legend);
        plotLayout()->setRowStretchFactor(1, 0.001);
    } else if (count <= 1 && placed) {
        plotLayout()->take(legend);
        plotLayout()->simplify();
    }
    fitLegend();
    rescale();
}

void LossPlot::resizeEvent(QResizeEvent* event)
{
    QCustomPlot::resizeEvent(event);
    fitLegend();
}

void LossPlot::fitLegend()
{
    int need = legend->margins().left() + legend->margins().right();
    for (int i = 0; i < legend->itemCount(); ++i)
        need += legend->item(i)->minimumOuterSizeHint().width() + legend->columnSpacing();
    const int wrap = need > width() ? 1 : 0;
    if (legend->wrap() != wrap) {
        legend->setWrap(wrap);
        legend->setFillOrder(QCPLegend::foColumnsFirst, true);
    }
}

void LossPlot::setLogScale(bool log)
{
    log_ = log;
    if (log) {
        setLogAxis(yAxis, LogTicker::Labels::Powers);
    } else {
        yAxis->setScaleType(QCPAxis::stLinear);
        yAxis->setTicker(QSharedPointer<QCPAxisTicker>(new QCPAxisTicker));
    }
    rescale();
}

void LossPlot::rescale()
{
    double maxX = 10.0, lo = INFINITY, hi = -INFINITY;
    for (int i = 0; i < 2; ++i) {
        if (!graphs_[i]->visible() || graphs_[i]->data()->isEmpty()) continue;
        const Drawn& d = drawn_[i];
        maxX = std::max(maxX, static_cast<double>(d.losses));
        lo = std::min(lo, log_ ? d.loPositive : d.lo);
        hi = std::max(hi, d.hi);
    }
    xAxis->setRange(0.0, maxX);
    if (!std::isfinite(lo) || !std::isfinite(hi)) {
        yAxis->setRange(log_ ? 1e-3 : 0.0, 1.0);
    } else if (log_) {
        yAxis->setRange(lo / 1.5, hi * 1.5);
    } else {
        yAxis->setRange(0.0, std::max(hi * 1.08, 1e-9));
    }
    replot(rpQueuedReplot);
}

}  // namespace attnlab
