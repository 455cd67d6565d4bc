// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Colour maps for heatmaps. QCustomPlot 2.1 has no viridis, so the maps are defined
// by colour stops: viridis (perceptually uniform, colour-blind safe) for weights, and
// a diverging blue-white-orange map (PuOr-like, colour-blind safe) for signed matrices.

#include <array>

#include <qcustomplot.h>

#include "ui/views/color_scale.h"
#include "ui/views/value_range.h"

namespace attnlab {

QCPColorGradient viridisGradient();
QCPColorGradient divergingGradient();
QCPColorGradient gradientFor(ColorScale scale);
// Colour used for masked cells (drawn as NaN): distinct from every colour of both maps.
QColor maskedCellColor();

// A gradient sampled once into a table, so that a whole matrix becomes pixels without a
// call per cell. The index rule is QCPColorGradient's (truncate (v - lower) / size * 255),
// so cells and the colour bar show identical colours.
class ColorLut {
public:
    static constexpr int kLevels = 256;
    explicit ColorLut(QCPColorGradient gradient);  // by value: color() is not const
    // The colour of `value` on `range`; NaN (masked) gets maskedCellColor().
    [[nodiscard]] QRgb color(double value, const ValueRange& range) const;
    [[nodiscard]] QRgb masked() const { return masked_; }
    [[nodiscard]] const std::array<QRgb, kLevels>& table() const { return table_; }

private:
    std::array<QRgb, kLevels> table_{};
    QRgb masked_;
};

// The table of a scale's gradient, built on first use.
const ColorLut& colorLutFor(ColorScale scale);

}  // namespace attnlab
