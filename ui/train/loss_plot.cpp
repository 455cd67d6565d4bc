#include "ui/train/loss_plot.h"

#include <algorithm>
#include <cmath>

#include "ui/panels/log_ticker.h"

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
    axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignRight);
    setCurveCount(1);
}

void LossPlot::setCurve(int index, const QString& name, const std::vector<double>& losses,
                        double final)
{
    QVector<double> x, y;
    x.reserve(static_cast<int>(losses.size()) + 1);
    y.reserve(static_cast<int>(losses.size()) + 1);
    for (std::size_t k = 0; k < losses.size(); ++k) {
        x.push_back(static_cast<double>(k));
        y.push_back(losses[k]);
    }
    if (std::isfinite(final)) {
        x.push_back(static_cast<double>(losses.size()));
        y.push_back(final);
    }
    graphs_[index]->setName(name);
    graphs_[index]->setData(x, y, true);
    rescale();
}

void LossPlot::setCurveCount(int count)
{
    graphs_[1]->setVisible(count > 1);
    graphs_[1]->removeFromLegend();
    if (count > 1) graphs_[1]->addToLegend();
    legend->setVisible(count > 1);
    rescale();
}

void LossPlot::clearCurves()
{
    for (QCPGraph* g : graphs_) g->data()->clear();
    rescale();
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
    for (QCPGraph* g : graphs_) {
        if (!g->visible() || g->data()->isEmpty()) continue;
        maxX = std::max(maxX, (g->data()->constEnd() - 1)->key);
        for (const QCPGraphData& d : *g->data()) {
            if (!std::isfinite(d.value) || (log_ && d.value <= 0.0)) continue;
            lo = std::min(lo, d.value);
            hi = std::max(hi, d.value);
        }
    }
    xAxis->setRange(0.0, maxX);
    if (!std::isfinite(lo)) {
        yAxis->setRange(log_ ? 1e-3 : 0.0, 1.0);
    } else if (log_) {
        yAxis->setRange(lo / 1.5, hi * 1.5);
    } else {
        yAxis->setRange(0.0, std::max(hi * 1.08, 1e-9));
    }
    replot(rpQueuedReplot);
}

}  // namespace attnlab
