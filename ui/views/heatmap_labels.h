// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// How a heatmap's token labels and cell values fit the pixels they have. On a projector the
// words a lesson is about must all be there: up to kEveryLabelLimit cells on an axis, every
// label is drawn, rotated and then shrunk as needed, never skipped; beyond it labels are
// thinned to every k-th and the axis says so. Values in cells shrink before they disappear.

#include <QFont>
#include <QString>
#include <QStringList>

namespace attnlab {

// Up to this many cells across an axis, every one of them is labelled.
inline constexpr int kEveryLabelLimit = 16;
// Fonts are never shrunk below this pixel size (still legible on a projector at 1366 x 768).
inline constexpr int kSmallestLabelPixels = 8;

struct AxisLabelFit {
    QFont font;
    bool rotated = false;  // column labels turned by -60 degrees
    int step = 1;          // every step-th label is drawn
};

// Fits `labels` of which `shown` cells lie on `pixels`. `columns`: labels sit side by side
// (they may rotate); rows: stacked. `base` is the font asked for. A label may take at most
// `depth` pixels across the axis (turned column labels of long words would otherwise take
// the rows' room); 0 = no limit.
[[nodiscard]] AxisLabelFit fitAxisLabels(const QStringList& labels, int shown, double pixels,
                                         const QFont& base, bool columns, double depth = 0.0);

// "every 2nd label" and so on, for an axis title; empty when every label is drawn.
[[nodiscard]] QString thinnedLabelsNote(int step);

struct ValueTextFit {
    QFont font;
    int decimals = 0;  // 0: the values do not fit and are not printed
};

// The largest font (down to kSmallestLabelPixels) and the most decimals (3, 2 or 1) with which
// the widest value `sample` (e.g. "-0.500") fits a cell of `cellWidth` x `cellHeight`.
[[nodiscard]] ValueTextFit fitValueTexts(double widestMagnitude, bool anyNegative, double cellWidth,
                                         double cellHeight, const QFont& base);

// `font` at `factor` times its size, by points or pixels, whichever it was given in.
[[nodiscard]] QFont scaledFont(QFont font, double factor);
// The font's size in pixels on this screen.
[[nodiscard]] double fontPixels(const QFont& font);

}  // namespace attnlab
