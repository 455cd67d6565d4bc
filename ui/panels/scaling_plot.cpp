// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/panels/scaling_plot.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include <QLocale>

#include "ui/document/document.h"
#include "ui/views/log_ticker.h"

namespace attnlab {

namespace {

const QColor kVariance(31, 119, 180);
const QColor kEntropy(214, 95, 14);

QCPGraph* series(QCustomPlot* plot, QCPAxis* valueAxis, const QColor& color, Qt::PenStyle style,
                 QCPScatterStyle::ScatterShape shape)
{
    QCPGraph* g = plot->addGraph(plot->xAxis, valueAxis);
    g->setPen(QPen(color, style == Qt::SolidLine ? 2.0 : 1.6, style));
    g->setScatterStyle(QCPScatterStyle(shape, color, Qt::white, 6));
    return g;
}

}  // namespace

ScalingPlot::ScalingPlot(Document* doc, QWidget* parent) : QCustomPlot(parent), doc_(doc)
{
    setObjectName(QStringLiteral("ScalingPlot"));
    setMinimumHeight(270);
    setLogAxis(xAxis, LogTicker::Labels::Numbers, 4.0);
    setLogAxis(yAxis, LogTicker::Labels::Numbers);
    xAxis->setRange(0.8, 640.0);
    yAxis->setRange(0.3, 2000.0);
    yAxis2->setVisible(true);
    for (auto [axis, color] : {std::pair{yAxis, kVariance}, std::pair{yAxis2, kEntropy}}) {
        axis->setLabelColor(color);
        axis->setTickLabelColor(color);
    }
    // Headroom above log 8 keeps the entropy lines clear of the marker's label.
    yAxis2->setRange(0.0, std::log(static_cast<double>(kKeysPerRow)) * 1.5);
    graphs_[0] = series(this, yAxis, kVariance, Qt::SolidLine, QCPScatterStyle::ssDisc);
    graphs_[1] = series(this, yAxis, kVariance, Qt::DashLine, QCPScatterStyle::ssSquare);
    graphs_[2] = series(this, yAxis2, kEntropy, Qt::SolidLine, QCPScatterStyle::ssDisc);
    graphs_[3] = series(this, yAxis2, kEntropy, Qt::DashLine, QCPScatterStyle::ssSquare);
    graphs_[4] = series(this, yAxis, Qt::gray, Qt::DotLine, QCPScatterStyle::ssNone);
    graphs_[4]->setData({1.0, 512.0}, {1.0, 512.0}, true);  // y = d_k
    marker_ = new QCPItemStraightLine(this);
    marker_->setPen(QPen(QColor(200, 30, 30), 1.2, Qt::DashDotLine));
    markerLabel_ = new QCPItemText(this);
    markerLabel_->position->setType(QCPItemPosition::ptAxisRectRatio);
    markerLabel_->position->setCoords(0.02, 0.02);
    markerLabel_->setPositionAlignment(Qt::AlignLeft | Qt::AlignTop);
    markerLabel_->setTextAlignment(Qt::AlignLeft);
    markerLabel_->setColor(QColor(200, 30, 30));
    markerLabel_->setPadding(QMargins(4, 2, 4, 2));
    // The legend goes below the axes, in two columns, so that it hides no curve.
    plotLayout()->addElement(1, 0, legend);
    legend->setVisible(true);
    legend->setWrap(2);  // before the fill order, which rearranges the items
    legend->setFillOrder(QCPLegend::foColumnsFirst);
    legend->setBorderPen(Qt::NoPen);
    legend->setFont(QFont(font().family(), 8));
    plotLayout()->setRowStretchFactor(1, 0.001);
    connect(doc_, &Document::inputsChanged, this, [this] {
        if (isVisible()) refresh();
    });
    retitle();
}

ScalingPlot::~ScalingPlot() = default;  // the job, dropped first, holds no pointer to the plot

void ScalingPlot::retitle()
{
    xAxis->setLabel(tr("d_k (log scale)"));
    yAxis->setLabel(tr("Variance of q·k"));
    yAxis2->setLabel(tr("Row entropy (nats)"));
    graphs_[0]->setName(tr("variance, no scaling"));
    graphs_[1]->setName(tr("variance, ÷√d_k"));
    graphs_[2]->setName(tr("entropy, no scaling"));
    graphs_[3]->setName(tr("entropy, ÷√d_k"));
    graphs_[4]->setName(tr("y = d_k"));
    refresh();
}

const attn::ScalingStudyPoint* ScalingPlot::pointAt(long dK) const
{
    for (const attn::ScalingStudyPoint& p : points_)
        if (p.dK == dK) return &p;
    return nullptr;
}

void ScalingPlot::refresh()
{
    if (!isVisible() && points_.empty()) return;  // measured on first show
    markedDk_ = std::max<long>(doc_->session().input.keyDim(), 1);
    std::vector<long> missing;
    if (points_.empty()) missing = attn::powersOfTwoDk();
    if (!pointAt(markedDk_)) missing.push_back(markedDk_);
    if (!missing.empty() && job_.running()) {
        pending_ = true;
    } else if (!missing.empty()) {
        attn::ScalingStudySpec spec;
        spec.dKs = missing;
        spec.keys = kKeysPerRow;
        job_.start(
            [spec](JobControl&) { return attn::scalingStudy(spec); },
            [this](std::vector<attn::ScalingStudyPoint> measured) { merge(std::move(measured)); });
    }
    redraw();
}

void ScalingPlot::merge(std::vector<attn::ScalingStudyPoint> measured)
{
    for (const attn::ScalingStudyPoint& p : measured)
        if (!pointAt(p.dK)) points_.push_back(p);
    std::sort(points_.begin(), points_.end(),
              [](const auto& a, const auto& b) { return a.dK < b.dK; });
    if (std::exchange(pending_, false))
        refresh();
    else
        redraw();
}

void ScalingPlot::redraw()
{
    QVector<double> d, v[4];
    for (const attn::ScalingStudyPoint& p : points_) {
        d.push_back(static_cast<double>(p.dK));
        v[0].push_back(p.varianceUnscaled);
        v[1].push_back(p.varianceScaled);
        v[2].push_back(p.entropyUnscaled);
        v[3].push_back(p.entropyScaled);
    }
    for (int i = 0; i < 4; ++i) graphs_[i]->setData(d, v[i], true);
    const double dK = static_cast<double>(markedDk_);
    marker_->point1->setCoords(dK, 1.0);
    marker_->point2->setCoords(dK, 10.0);
    const QLocale locale;
    const attn::ScalingStudyPoint* here = pointAt(markedDk_);
    markerLabel_->setText(here ? tr("this session: d_k = %1\nvariance %2 → %3 scaled")
                                     .arg(markedDk_)
                                     .arg(locale.toString(here->varianceUnscaled, 'g', 3),
                                          locale.toString(here->varianceScaled, 'g', 3))
                               : tr("this session: d_k = %1\nmeasuring…").arg(markedDk_));
    replot(rpQueuedReplot);
}

void ScalingPlot::showEvent(QShowEvent* event)
{
    QCustomPlot::showEvent(event);
    refresh();
}

void ScalingPlot::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange) retitle();
    QCustomPlot::changeEvent(event);
}

}  // namespace attnlab
