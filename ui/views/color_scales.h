#pragma once
// Colour maps for heatmaps. QCustomPlot 2.1 has no viridis, so the maps are defined
// by colour stops: viridis (perceptually uniform, colour-blind safe) for weights, and
// a diverging blue-white-orange map (PuOr-like, colour-blind safe) for signed matrices.

#include <qcustomplot.h>

namespace attnlab {

enum class ColorScale {
    Weights,     // viridis on a fixed [0, 1] range
    Sequential,  // viridis on the data's own range
    Diverging,   // blue-white-orange, symmetric around 0
};

QCPColorGradient viridisGradient();
QCPColorGradient divergingGradient();
QCPColorGradient gradientFor(ColorScale scale);
// Colour used for masked cells (drawn as NaN): distinct from every colour of both maps.
QColor maskedCellColor();

}  // namespace attnlab
