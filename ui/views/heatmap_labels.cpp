// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/views/heatmap_labels.h"

#include <algorithm>
#include <cmath>

#include <QCoreApplication>
#include <QFontInfo>
#include <QFontMetricsF>

namespace attnlab {

QFont scaledFont(QFont font, double factor)
{
    if (font.pointSizeF() > 0)
        font.setPointSizeF(font.pointSizeF() * factor);
    else if (font.pixelSize() > 0)
        font.setPixelSize(std::max(1, static_cast<int>(std::lround(font.pixelSize() * factor))));
    return font;
}

double fontPixels(const QFont& font)
{
    return QFontInfo(font).pixelSize();
}

namespace {

// Fonts tried from `base` down to the smallest legible size, about 8 % smaller each.
template <typename Fits>
QFont largestFitting(const QFont& base, Fits fits, bool& found,
                     double floorPixels = kSmallestLabelPixels)
{
    floorPixels = std::max<double>(floorPixels, kSmallestLabelPixels);
    QFont font = base;
    for (int i = 0; i < 24; ++i) {
        if (fits(font)) {
            found = true;
            return font;
        }
        const double pixels = fontPixels(font);
        if (pixels <= floorPixels) break;
        QFont smaller = scaledFont(font, 0.92);
        if (fontPixels(smaller) >= pixels) smaller.setPixelSize(static_cast<int>(pixels) - 1);
        if (fontPixels(smaller) < floorPixels)
            smaller.setPixelSize(static_cast<int>(std::ceil(floorPixels)));
        font = smaller;
    }
    found = false;
    return font;
}

double widest(const QStringList& labels, const QFontMetricsF& fm)
{
    double w = 0.0;
    for (const QString& l : labels) w = std::max(w, fm.horizontalAdvance(l));
    return w;
}

}  // namespace

AxisLabelFit fitAxisLabels(const QStringList& labels, int shown, double pixels, const QFont& base,
                           bool columns, double depth)
{
    AxisLabelFit fit{base, false, 1};
    shown = std::max(1, shown);
    const double cell = std::max(pixels, 1.0) / shown;
    const auto sideBySide = [&](const QFont& f) {
        return widest(labels, QFontMetricsF(f)) + 4.0 <= cell;
    };
    const auto stacked = [&](const QFont& f) {
        const QFontMetricsF fm(f);
        // Turned by 60 degrees, a label reaches sin 60 of its width (and half its height)
        // across the axis; stacked row labels reach their width.
        const double reach =
            columns ? 0.87 * widest(labels, fm) + 0.5 * fm.height() : widest(labels, fm);
        return fm.height() + 1.0 <= cell && (depth <= 0.0 || reach <= depth);
    };
    if (columns && sideBySide(base)) return fit;
    if (!columns && stacked(base)) return fit;
    // Columns turn before they shrink: a turned label needs only its height across.
    fit.rotated = columns;
    if (shown <= kEveryLabelLimit) {
        bool found = false;
        fit.font = largestFitting(base, stacked, found);
        return fit;  // the smallest font when nothing fits: still every label
    }
    const double per = QFontMetricsF(base).height() + 2.0;
    fit.step = std::max(1, static_cast<int>(std::ceil(shown * per / std::max(pixels, 1.0))));
    return fit;
}

QString thinnedLabelsNote(int step)
{
    if (step <= 1) return QString();
    if (step == 2) return QCoreApplication::translate("attnlab::HeatmapView", "every 2nd label");
    if (step == 3) return QCoreApplication::translate("attnlab::HeatmapView", "every 3rd label");
    return QCoreApplication::translate("attnlab::HeatmapView", "every %1th label").arg(step);
}

ValueTextFit fitValueTexts(double widestMagnitude, bool anyNegative, double cellWidth,
                           double cellHeight, const QFont& base)
{
    ValueTextFit out{base, 0};
    const double magnitude = std::isfinite(widestMagnitude) ? std::abs(widestMagnitude) : 0.0;
    const auto sample = [&](int decimals) {
        QString s = QString::number(magnitude, 'f', decimals);
        if (anyNegative) s.prepend(QLatin1Char('-'));
        return s;
    };
    for (int decimals = 3; decimals >= 1; --decimals) {
        const QString text = sample(decimals);
        // Digits and a point: their ink, not the font's line height (with room for accents
        // and descenders that digits do not have), must fit the cell's height.
        const auto fits = [&](const QFont& f) {
            const QFontMetricsF fm(f);
            return fm.horizontalAdvance(text) + 4.0 <= cellWidth &&
                   fm.tightBoundingRect(text).height() + 2.0 <= cellHeight;
        };
        // Three decimals only at the asked size, two down to three quarters of it, one down
        // to the smallest legible size. Below one, two decimals go down to the smallest size
        // too: one decimal prints a weight of 0.029 as "0.0", and a row of P no longer
        // visibly sums to 1.
        const double twoFloor = magnitude < 1.0 ? 0.0 : 0.75 * fontPixels(base);
        const double floor = decimals == 3 ? fontPixels(base) : decimals == 2 ? twoFloor : 0.0;
        bool found = false;
        const QFont f = largestFitting(base, fits, found, floor);
        if (found) return ValueTextFit{f, decimals};
    }
    return out;
}

}  // namespace attnlab
