#include "ui/views/color_scales.h"

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

}  // namespace attnlab
