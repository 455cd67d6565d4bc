// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/panels/cost_plot.h"

#include <algorithm>
#include <cmath>

#include <QLocale>

#include "ui/views/log_ticker.h"

namespace attnlab {

namespace {

const QColor kTimeColor(31, 119, 180);
const QColor kMemoryColor(214, 95, 14);
const QColor kBudgetColor(200, 30, 30);

QString gib(double bytes)
{
    return QLocale().formattedDataSize(static_cast<qint64>(bytes), 1, QLocale::DataSizeIecFormat);
}

}  // namespace

CostPlot::CostPlot(QWidget* parent) : QCustomPlot(parent)
{
    setObjectName(QStringLiteral("CostPlot"));
    setMinimumSize(420, 260);
    setLogAxis(xAxis, LogTicker::Labels::Numbers);
    setLogAxis(yAxis, LogTicker::Labels::Powers);
    setLogAxis(yAxis2, LogTicker::Labels::Bytes, 32.0);
    yAxis2->setVisible(true);
    xAxis->setRange(kMinN, kMaxN);
    yAxis->setRange(1e-5, 1e2);
    yAxis2->setRange(1e4, 1.5e12);
    time_ = addSeries(yAxis, kTimeColor, Qt::SolidLine, QCPScatterStyle::ssDisc);
    square_ = addSeries(yAxis, kTimeColor.lighter(150), Qt::DashLine, QCPScatterStyle::ssNone);
    weights_ = addSeries(yAxis2, kMemoryColor, Qt::SolidLine, QCPScatterStyle::ssSquare);
    estimate_ = addSeries(yAxis2, kMemoryColor.lighter(140), Qt::DotLine, QCPScatterStyle::ssNone);
    longTime_ = addSeries(yAxis, kTimeColor, Qt::SolidLine, QCPScatterStyle::ssTriangle);
    longWeights_ = addSeries(yAxis2, kMemoryColor, Qt::SolidLine, QCPScatterStyle::ssTriangle);
    longEstimate_ =
        addSeries(yAxis2, kMemoryColor.lighter(140), Qt::DashDotLine, QCPScatterStyle::ssNone);
    for (QCPGraph* g : {longTime_, longWeights_, longEstimate_}) g->removeFromLegend();
    budget_ = new QCPItemStraightLine(this);
    budget_->point1->setAxes(xAxis, yAxis2);
    budget_->point2->setAxes(xAxis, yAxis2);
    budget_->setPen(QPen(kBudgetColor, 1.2, Qt::DashDotLine));
    budgetLabel_ = new QCPItemText(this);
    budgetLabel_->position->setAxes(xAxis, yAxis2);
    budgetLabel_->setPositionAlignment(Qt::AlignLeft | Qt::AlignBottom);
    budgetLabel_->setColor(kBudgetColor);
    addMarker(1000.0, tr("n = 1,000\n10⁶ scores"), 0.02);
    addMarker(100000.0, tr("n = 100,000\n10¹⁰ scores\n= %1 as doubles").arg(gib(8e10)), 0.02);
    for (auto [axis, color] : {std::pair{yAxis, kTimeColor}, std::pair{yAxis2, kMemoryColor}}) {
        axis->setLabelColor(color);
        axis->setTickLabelColor(color);
    }
    legend->setVisible(true);
    legend->setFont(QFont(font().family(), 8));
    axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignLeft);
    retitle();
}

QCPGraph* CostPlot::addSeries(QCPAxis* valueAxis, const QColor& color, Qt::PenStyle style,
                              QCPScatterStyle::ScatterShape shape)
{
    QCPGraph* g = addGraph(xAxis, valueAxis);
    g->setPen(QPen(color, 2.0, style));
    g->setScatterStyle(QCPScatterStyle(shape, color, color, 6));
    return g;
}

void CostPlot::addMarker(double n, const QString& text, double y)
{
    auto* line = new QCPItemStraightLine(this);
    line->point1->setCoords(n, 1.0);
    line->point2->setCoords(n, 10.0);
    line->setPen(QPen(Qt::gray, 1.0, Qt::DotLine));
    auto* label = new QCPItemText(this);
    label->position->setTypeX(QCPItemPosition::ptPlotCoords);
    label->position->setTypeY(QCPItemPosition::ptAxisRectRatio);
    label->position->setCoords(n, 1.0 - y);
    label->setPositionAlignment(Qt::AlignRight | Qt::AlignBottom);
    label->setTextAlignment(Qt::AlignRight);
    label->setPadding(QMargins(2, 2, 4, 2));
    label->setText(text);
}

void CostPlot::retitle()
{
    xAxis->setLabel(tr("Sequence length n (log scale)"));
    yAxis->setLabel(tr("Compute time (s)"));
    yAxis2->setLabel(tr("Memory"));
    time_->setName(tr("Measured time"));
    square_->setName(tr("n² line through the last point"));
    weights_->setName(tr("Weights held (n²·h·8 bytes)"));
    estimate_->setName(tr("Estimate: every kept stage"));
    longTime_->setName(tr("Measured time, only the weights kept (float)"));
    longWeights_->setName(tr("Weights held in float (n²·h·4 bytes)"));
    longEstimate_->setName(tr("Estimate: only the weights kept"));
}

void CostPlot::setShape(const CostShape& shape, const attn::Limits& limits)
{
    QVector<double> n, bytes, longN, longBytes;
    for (double x = kMinN; x <= kMaxN * 1.0001; x *= std::pow(10.0, 0.125)) {
        n.push_back(x);
        bytes.push_back(static_cast<double>(costEstimateBytes(std::lround(x), shape)));
        longN.push_back(x);
        longBytes.push_back(static_cast<double>(costLongEstimateBytes(std::lround(x), shape)));
    }
    estimate_->setData(n, bytes, true);
    longEstimate_->setData(longN, longBytes, true);
    const double budget = static_cast<double>(limits.maxBytes);
    budget_->point1->setCoords(kMinN, budget);
    budget_->point2->setCoords(kMaxN, budget);
    budgetLabel_->position->setCoords(2500.0, budget);
    budgetLabel_->setText(tr("memory budget %1").arg(gib(budget)));
    replot(rpQueuedReplot);
}

void CostPlot::setPoints(const std::vector<CostPoint>& points)
{
    QVector<double> n, seconds, fullN, fullSeconds, fullBytes, longN, longSeconds, longBytes;
    for (const CostPoint& p : points) {
        const double x = static_cast<double>(p.n);
        const double t = std::max(p.seconds, 1e-7);
        const double b = static_cast<double>(p.weightBytes);
        n.push_back(x);
        seconds.push_back(t);
        (p.weightsOnly ? longN : fullN).push_back(x);
        (p.weightsOnly ? longSeconds : fullSeconds).push_back(t);
        (p.weightsOnly ? longBytes : fullBytes).push_back(b);
    }
    time_->setData(fullN, fullSeconds, true);
    weights_->setData(fullN, fullBytes, true);
    longTime_->setData(longN, longSeconds, true);
    longWeights_->setData(longN, longBytes, true);
    // The weights-only series join the legend once they have points.
    for (QCPGraph* g : {longTime_, longWeights_, longEstimate_}) {
        if (longN.isEmpty())
            g->removeFromLegend();
        else
            g->addToLegend();
    }
    QVector<double> sn, ss;
    if (!points.empty()) {
        // time(n) = t_last (n / n_last)²: the slope a quadratic cost would have.
        const double n0 = n.back();
        const double t0 = seconds.back();
        for (double x : {kMinN, n0, kMaxN}) {
            sn.push_back(x);
            ss.push_back(t0 * (x / n0) * (x / n0));
        }
        const auto [lo, hi] = std::minmax_element(seconds.begin(), seconds.end());
        yAxis->setRange(std::min(*lo, ss.front()) / 3.0, std::max(*hi * 30.0, 1.0));
    }
    square_->setData(sn, ss, true);
    replot(rpQueuedReplot);
}

}  // namespace attnlab
