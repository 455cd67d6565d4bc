// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/views/tick_spacing.h"

#include <algorithm>
#include <cmath>

#include <QFontMetricsF>
#include <qcustomplot.h>

namespace attnlab {

namespace {

constexpr char kKeepsApart[] = "attnlabTickLabelsApart";

// The widest label the axis may print: its range's ends, and a round number between them.
double widestLabel(const QCPAxis* axis)
{
    const QFontMetricsF metrics(axis->tickLabelFont());
    const QCPRange r = axis->range();
    double widest = 0.0;
    for (const double v : {r.lower, r.upper, r.center()})
        widest = std::max(widest, metrics.horizontalAdvance(QString::number(v, 'g', 4)));
    return std::max(widest, metrics.horizontalAdvance(QStringLiteral("0000")));
}

void fit(QCustomPlot* plot)
{
    for (QCPAxisRect* rect : plot->axisRects()) {
        for (QCPAxis* axis : rect->axes(QCPAxis::atBottom | QCPAxis::atTop)) {
            QSharedPointer<QCPAxisTicker> ticker = axis->ticker();
            // Text tickers place their own labels (a heatmap's tokens thin themselves).
            if (!ticker || ticker.dynamicCast<QCPAxisTickerText>()) continue;
            const double room = std::max(1, rect->width());
            // A label and the gap of one label: the ticker may round its step down by about
            // a third to reach a round number, so ask for a third fewer.
            const int count = static_cast<int>(room / (2.0 * widestLabel(axis)) / 1.35);
            ticker->setTickCount(std::clamp(count, 2, 8));
        }
    }
}

}  // namespace

void keepTickLabelsApart(QCustomPlot* plot)
{
    if (plot == nullptr || plot->property(kKeepsApart).toBool()) return;
    plot->setProperty(kKeepsApart, true);
    QObject::connect(plot, &QCustomPlot::beforeReplot, plot, [plot] { fit(plot); });
}

}  // namespace attnlab
