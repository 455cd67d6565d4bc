#pragma once
// Painting one heatmap panel of a figure (figure_renderer.cpp assembles the figure).
// Internal to ui/export.

#include <QFont>
#include <QRectF>

#include "ui/views/heatmap_view.h"

class QPainter;

namespace attnlab::figure_detail {

// A font of the figure's family list at `px` logical pixels.
QFont makeFont(double px, bool bold = false);
// True when the panel has masked cells.
bool anyMasked(const HeatmapContent& c);
// A vertical colour bar (a stack of rectangles) in `bar` with tick labels to its right, and a
// grey "masked" swatch below when `maskedLegend`; returns the width used.
double paintColorBar(QPainter& p, const QRectF& bar, ColorScale scale, const QCPRange& range,
                     const QFont& font, bool maskedLegend);
// The width paintColorBar needs with `font`.
double barWidthFor(const QFont& font);
// One heatmap with its title, labels (thinned, rotated when crowded) and axis titles in `r`;
// `ownBar` draws its colour bar at its right.
void paintPanel(QPainter& p, const QRectF& r, const HeatmapContent& c, bool ownBar, double basePx);

}  // namespace attnlab::figure_detail
