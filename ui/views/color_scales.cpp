// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/views/color_scales.h"

#include <cmath>

namespace attnlab {

namespace {

// A gradient through evenly spaced colour stops; NaN cells (masked) get their own colour.
template <std::size_t N>
QCPColorGradient gradientFromStops(const QRgb (&stops)[N])
{
    QCPColorGradient g;
    g.clearColorStops();
    for (std::size_t i = 0; i < N; ++i)
        g.setColorStopAt(static_cast<double>(i) / static_cast<double>(N - 1), QColor(stops[i]));
    g.setColorInterpolation(QCPColorGradient::ciRGB);
    g.setLevelCount(256);
    g.setNanHandling(QCPColorGradient::nhNanColor);
    g.setNanColor(maskedCellColor());
    return g;
}

}  // namespace

QCPColorGradient viridisGradient()
{
    // Viridis sampled at nine points (matplotlib's _viridis_data).
    static const QRgb stops[] = {0x440154, 0x472d7b, 0x3b528b, 0x2c728e, 0x21918c,
                                 0x28ae80, 0x5ec962, 0xaadc32, 0xfde725};
    return gradientFromStops(stops);
}

QCPColorGradient divergingGradient()
{
    // PuOr-like: purple-blue for negative, white at 0, orange for positive.
    static const QRgb stops[] = {0x2d004b, 0x542788, 0x8073ac, 0xb2abd2, 0xf7f7f7,
                                 0xfdb863, 0xe08214, 0xb35806, 0x7f3b08};
    return gradientFromStops(stops);
}

QCPColorGradient gradientFor(ColorScale scale)
{
    return scale == ColorScale::Diverging ? divergingGradient() : viridisGradient();
}

QColor maskedCellColor()
{
    return QColor(0xd0, 0xd0, 0xd0);
}

ColorLut::ColorLut(QCPColorGradient gradient) : masked_(maskedCellColor().rgb())
{
    // Sample each level at its centre so that the gradient's own truncation picks level i.
    for (int i = 0; i < kLevels; ++i)
        table_[static_cast<std::size_t>(i)] =
            gradient.color((i + 0.5) / (kLevels - 1), QCPRange(0.0, 1.0)) | 0xff000000u;
}

QRgb ColorLut::color(double value, const ValueRange& range) const
{
    if (std::isnan(value)) return masked_;
    const double size = range.upper - range.lower;
    const double t =
        size > 0.0 && std::isfinite(size) ? (value - range.lower) * ((kLevels - 1) / size) : 0.0;
    const int index = t <= 0.0 ? 0 : t >= kLevels - 1 ? kLevels - 1 : static_cast<int>(t);
    return table_[static_cast<std::size_t>(index)];
}

const ColorLut& colorLutFor(ColorScale scale)
{
    static const ColorLut viridis(viridisGradient());
    static const ColorLut diverging(divergingGradient());
    return scale == ColorScale::Diverging ? diverging : viridis;
}

}  // namespace attnlab
