#include "ui/views/heatmap_plottable.h"

#include <algorithm>
#include <cmath>

#include "ui/views/heatmap_image.h"

namespace attnlab {

namespace {

// The cells [first, last) of `count` that overlap the visible coordinate range.
void visibleCells(const QCPRange& range, int count, int& first, int& last)
{
    const double lo = std::clamp(std::floor(range.lower + 0.5), 0.0, static_cast<double>(count));
    const double hi = std::clamp(std::ceil(range.upper + 0.5), 0.0, static_cast<double>(count));
    first = static_cast<int>(lo);
    last = static_cast<int>(hi);
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

void HeatmapPlottable::setMatrix(const attn::Matrix& matrix, const attn::BoolMatrix* mask,
                                 const QCPRange& range, const ColorLut& lut)
{
    fillHeatmapImage(matrix, mask, range, lut, image_);
}

double HeatmapPlottable::selectTest(const QPointF&, bool, QVariant*) const
{
    return -1.0;
}

QCPRange HeatmapPlottable::getKeyRange(bool& foundRange, QCP::SignDomain) const
{
    return cellSpan(image_.width(), foundRange);
}

QCPRange HeatmapPlottable::getValueRange(bool& foundRange, QCP::SignDomain, const QCPRange&) const
{
    return cellSpan(image_.height(), foundRange);
}

void HeatmapPlottable::draw(QCPPainter* painter)
{
    QCPAxis* x = mKeyAxis.data();
    QCPAxis* y = mValueAxis.data();
    if (image_.isNull() || x == nullptr || y == nullptr) return;
    int c0 = 0, c1 = 0, r0 = 0, r1 = 0;
    visibleCells(x->range(), image_.width(), c0, c1);
    visibleCells(y->range(), image_.height(), r0, r1);
    if (c1 <= c0 || r1 <= r0) return;
    // Cell edges in pixels; either axis may be reversed (rows run downwards).
    const QPointF a(x->coordToPixel(c0 - 0.5), y->coordToPixel(r0 - 0.5));
    const QPointF b(x->coordToPixel(c1 - 0.5), y->coordToPixel(r1 - 0.5));
    const QRect source(c0, r0, c1 - c0, r1 - r0);
    const bool mirrorX = b.x() < a.x();
    const bool mirrorY = b.y() < a.y();
    const QRectF target = QRectF(a, b).normalized();
    applyDefaultAntialiasingHint(painter);
    const bool smooth = painter->renderHints().testFlag(QPainter::SmoothPixmapTransform);
    painter->setRenderHint(QPainter::SmoothPixmapTransform, false);
    if (mirrorX || mirrorY)
        painter->drawImage(target, image_.copy(source).mirrored(mirrorX, mirrorY));
    else
        painter->drawImage(target, image_, QRectF(source));
    painter->setRenderHint(QPainter::SmoothPixmapTransform, smooth);
}

void HeatmapPlottable::drawLegendIcon(QCPPainter* painter, const QRectF& rect) const
{
    if (!image_.isNull()) painter->drawImage(rect, image_);
}

}  // namespace attnlab
