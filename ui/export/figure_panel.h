// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Painting one heatmap panel of a figure (figure_renderer.cpp assembles the figure).
// Internal to ui/export.

#include <QFont>
#include <QRectF>

#include "ui/views/heatmap_view.h"

class QPainter;

namespace attnlab::figure_detail {

// Labels are kReferencePx on panels of a screen's size, and every length of a figure
// (margins, colour-bar width, gaps, strokes) is given at that size.
constexpr double kReferencePx = 14.0;
constexpr double kReferenceBarWidth = 14.0;

// The label size in logical pixels for a panel whose shorter side is `side`: 1/30 of it
// between 8 and 14 px (small panels of a grid), and 1/54 of it beyond 756 px, so that text
// grows in proportion with large figures (a 2400-px figure has three times the text of an
// 800-px one) instead of staying at a screen's 14 px.
double figureTextPx(double side);

// How one panel is painted.
struct PanelOptions {
    bool ownBar = true;            // its own colour bar at its right
    double basePx = kReferencePx;  // label size (figureTextPx)
    bool squareCells = true;       // cells as wide as high
};

// Where paintPanel puts the cells: the map's rectangle and one cell's size.
struct PanelGeometry {
    QRectF map;
    double cellWidth = 0.0;
    double cellHeight = 0.0;
    bool rotatedColumnLabels = false;
};

// A font of the figure's family list at `px` logical pixels.
QFont makeFont(double px, bool bold = false);
// True when the panel has masked cells.
bool anyMasked(const HeatmapContent& c);
// A vertical colour bar (a stack of rectangles) in `bar` with tick labels to its right, and a
// grey "masked" swatch below when `maskedLegend`; returns the width used.
double paintColorBar(QPainter& p, const QRectF& bar, ColorScale scale, const ValueRange& range,
                     const QFont& font, bool maskedLegend);
// The width paintColorBar needs with `font`.
double barWidthFor(const QFont& font);
// One heatmap with its title, labels (thinned, rotated when crowded) and axis titles in `r`;
// returns where the cells went.
PanelGeometry paintPanel(QPainter& p, const QRectF& r, const HeatmapContent& c,
                         const PanelOptions& options);

}  // namespace attnlab::figure_detail
