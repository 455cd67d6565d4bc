// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/views/heatmap_plottable.h"

#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

namespace attnlab {

namespace {

int toPixel(double v)
{
    return static_cast<int>(std::clamp(v, -1.0e7, 1.0e7));
}

// The pixels [first, last) along an axis whose centres lie on the `count` cells, within
// the pixels [lo, hi) of the axis rect.
std::pair<int, int> pixelExtent(const QCPAxis* axis, int count, int lo, int hi)
{
    const double a = axis->coordToPixel(-0.5);
    const double b = axis->coordToPixel(count - 0.5);
    // Pixel p is on the cells when its centre p + 0.5 lies in [min, max).
    const int first = toPixel(std::ceil(std::min(a, b) - 0.5));
    const int last = toPixel(std::ceil(std::max(a, b) - 0.5));
    return {std::max(first, lo), std::min(last, hi)};
}

// The cells each pixel [first, last) covers along an axis (the render clamps them to the
// matrix).
std::vector<CellSpan> spansOf(const QCPAxis* axis, int first, int last)
{
    std::vector<CellSpan> spans(static_cast<std::size_t>(std::max(last - first, 0)));
    for (int p = first; p < last; ++p) {
        const double a = axis->pixelToCoord(p);
        const double b = axis->pixelToCoord(p + 1);
        const double lo = std::min(a, b);
        const double hi = std::max(a, b);
        CellSpan s;
        if (hi - lo > 1.0 + 1e-9) {
            // More than one cell per pixel: the cells whose centres lie in the pixel, so
            // that every cell belongs to exactly one pixel.
            s.first = static_cast<int>(std::ceil(lo));
            s.last = static_cast<int>(std::ceil(hi)) - 1;
        } else {
            // Cells at least a pixel wide: the cell under the pixel's centre.
            s.first = static_cast<int>(std::floor(axis->pixelToCoord(p + 0.5) + 0.5));
            s.last = s.first;
        }
        spans[static_cast<std::size_t>(p - first)] = s;
    }
    return spans;
}

QCPRange cellSpan(int count, bool& found)
{
    found = count > 0;
    return QCPRange(-0.5, count - 0.5);
}

}  // namespace

HeatmapPlottable::HeatmapPlottable(QCPAxis* keyAxis, QCPAxis* valueAxis)
    : QCPAbstractPlottable(keyAxis, valueAxis)
{
    setSelectable(QCP::stNone);
    setAntialiased(false);
}

void HeatmapPlottable::setCells(const CellSource& source, ColorScale scale)
{
    pyramid_.reset(source);
    rows_ = source.rows;
    cols_ = source.cols;
    lut_ = &colorLutFor(scale);
    ++version_;
}

void HeatmapPlottable::updateRows(const CellSource& source, int first, int end)
{
    pyramid_.markRowsChanged(source, first, end);
    if (end > first) ++version_;
}

void HeatmapPlottable::dropSource()
{
    pyramid_.detach();
    ++version_;
}

QImage HeatmapPlottable::cellImage() const
{
    const CellSource& s = pyramid_.source();
    if (s.empty()) return QImage();
    QImage image(s.cols, s.rows, QImage::Format_RGB32);
    const auto palette = rankPalette(*lut_, s.pooling);
    std::vector<std::uint16_t> line(static_cast<std::size_t>(s.cols));
    uchar* bits = image.bits();
    for (int i = 0; i < s.rows; ++i) {
        s.ranks(i, 0, s.cols, line.data());
        auto* dst = reinterpret_cast<QRgb*>(bits + i * image.bytesPerLine());
        for (int j = 0; j < s.cols; ++j) dst[j] = palette[line[static_cast<std::size_t>(j)]];
    }
    return image;
}

double HeatmapPlottable::selectTest(const QPointF&, bool, QVariant*) const
{
    return -1.0;
}

QCPRange HeatmapPlottable::getKeyRange(bool& foundRange, QCP::SignDomain) const
{
    return cellSpan(cols_, foundRange);
}

QCPRange HeatmapPlottable::getValueRange(bool& foundRange, QCP::SignDomain, const QCPRange&) const
{
    return cellSpan(rows_, foundRange);
}

void HeatmapPlottable::draw(QCPPainter* painter)
{
    QCPAxis* x = mKeyAxis.data();
    QCPAxis* y = mValueAxis.data();
    const CellSource& source = pyramid_.source();
    if (source.empty() || x == nullptr || y == nullptr) return;
    // QCustomPlot maps a vertical range onto [bottom() - height, bottom()], one pixel above
    // the axis rect, and clips its layerables the same way (QCPLayer::draw).
    const QRect clip = clipRect().translated(0, -1);
    const auto [x0, x1] = pixelExtent(x, source.cols, clip.left(), clip.left() + clip.width());
    const auto [y0, y1] = pixelExtent(y, source.rows, clip.top(), clip.top() + clip.height());
    if (x1 <= x0 || y1 <= y0) return;
    const RenderKey key{version_, QRect(QPoint(x0, y0), QSize(x1 - x0, y1 - y0)), x->range(),
                        y->range()};
    if (!(key == renderedKey_) || rendered_.isNull()) {
        pyramid_.render(spansOf(y, y0, y1), spansOf(x, x0, x1), *lut_, rendered_);
        renderedKey_ = key;
    }
    painter->drawImage(QPoint(x0, y0), rendered_);
}

void HeatmapPlottable::drawLegendIcon(QCPPainter* painter, const QRectF& rect) const
{
    if (!pyramid_.source().empty()) painter->drawImage(rect, cellImage());
}

}  // namespace attnlab
