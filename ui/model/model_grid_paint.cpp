// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/model/model_grid_paint.h"

#include <QCoreApplication>
#include <QFontMetricsF>
#include <QPainter>

#include "ui/modelrun/model_snapshot.h"
#include "ui/views/heatmap_image.h"

namespace attnlab {

namespace {

class ModelGridPaintTr {
    Q_DECLARE_TR_FUNCTIONS(attnlab::ModelGrid)
};

const attn::model::FloatMatrix& matrixAt(const ModelSnapshot& s, int layer, int column)
{
    const auto l = static_cast<std::size_t>(layer);
    const int heads = s.heads();
    static const attn::model::FloatMatrix none;
    if (column < heads) {
        const attn::model::LayerTrace& t = s.result.layers[l];
        const auto h = static_cast<std::size_t>(column);
        return t.isPooled() ? t.pooled[h].cells : t.attention[h];
    }
    if (column == heads) return s.averages[l];
    return l < s.rollout.size() ? s.rollout[l] : none;  // a pooled run has no rollout
}

QString columnTitle(int column, int heads)
{
    if (column < heads) return ModelGridPaintTr::tr("H%1").arg(column + 1);
    return column == heads ? ModelGridPaintTr::tr("mean") : ModelGridPaintTr::tr("rollout");
}

}  // namespace

QImage weightsThumbnail(const attn::model::FloatMatrix& w, int maxPixels)
{
    if (w.size() == 0) return {};
    const attn::Matrix values = w.cast<double>();
    CellRanks ranks;
    fillCellRanks(values, nullptr, ValueRange(0.0, 1.0), CellPooling::Highest, ranks);
    const ColorLut& lut = colorLutFor(ColorScale::Weights);
    QImage image;
    if (ranks.rows <= maxPixels && ranks.cols <= maxPixels) {
        ranksToImage(ranks, lut, image);
        return image;
    }
    const auto spans = [](int cells, int pixels) {
        std::vector<CellSpan> out(static_cast<std::size_t>(pixels));
        for (int p = 0; p < pixels; ++p) {
            const int first = static_cast<int>(static_cast<long>(p) * cells / pixels);
            const int last = static_cast<int>(static_cast<long>(p + 1) * cells / pixels) - 1;
            out[static_cast<std::size_t>(p)] = {first, std::max(first, last)};
        }
        return out;
    };
    renderCells(ranks, spans(ranks.rows, std::min(ranks.rows, maxPixels)),
                spans(ranks.cols, std::min(ranks.cols, maxPixels)), lut, image);
    return image;
}

QRectF ModelGridGeometry::cellRect(int layer, int column) const
{
    const int heads = columns - 2;
    const int groupsBefore = group > 1 ? std::min(column, heads - 1) / group : 0;
    const double x = cells.left() + column * (side + gap) + groupsBefore * groupGap +
                     (column >= columns - 2 ? aggregateGap : 0);
    const double y = cells.top() + layer * (side + gap);
    return {x, y, side, side};
}

double ModelGridGeometry::ringWidth() const
{
    return std::max(2.0, gap * 0.8);
}

QRectF ModelGridGeometry::ringRect(int layer, int column) const
{
    const double w = ringWidth();
    return cellRect(layer, column).adjusted(-w, -w, w, w);
}

QRectF ModelGridGeometry::columnTitleRect(int column, const QRectF& area) const
{
    const QRectF r = cellRect(0, column);
    const double room = r.width() + gap;
    const double top = area.top() + groupHeader;
    return {r.center().x() - room / 2, top, room, std::max(0.0, cells.top() - ringWidth() - top)};
}

ModelGridCell ModelGridGeometry::cellAt(const QPointF& point) const
{
    for (int l = 0; l < layers; ++l)
        for (int c = 0; c < columns; ++c)
            if (cellRect(l, c).contains(point)) return {l, c};
    return {};
}

ModelGridGeometry modelGridGeometry(const QRectF& area, int layers, int heads, double basePx,
                                    int group)
{
    ModelGridGeometry g;
    g.layers = layers;
    g.columns = heads + 2;
    g.group = group > 1 && heads % group == 0 ? group : 1;
    const int extraGroups = g.group > 1 ? heads / g.group - 1 : 0;
    const double rowHeader = basePx * 3.2;  // "L12"
    g.groupHeader = g.group > 1 ? basePx * 1.6 : 0.0;
    const double columnHeader = basePx * 1.8 + g.groupHeader;
    if (layers <= 0 || heads <= 0) return g;
    // side * columns + gaps + aggregateGap = width; side * layers + gaps = height.
    const double gapShare = 0.08;
    const double groupShare = 0.35;
    const auto sideIn = [&](const QRectF& room) {
        const double byWidth =
            room.width() / (g.columns * (1 + gapShare) + 0.6 + extraGroups * groupShare);
        const double byHeight = room.height() / (layers * (1 + gapShare));
        return std::max(2.0, std::min(byWidth, byHeight));
    };
    // Below the titles, room for the selected thumbnail's frame (ringWidth), reckoned for the
    // thumbnails as large as they would be without it: they only shrink, and the frame with them.
    QRectF room = area.adjusted(rowHeader, columnHeader, 0, 0);
    if (room.width() <= 0 || room.height() <= 0) return g;
    g.gap = sideIn(room) * gapShare;
    room.setTop(room.top() + g.ringWidth());
    if (room.height() <= 0) return g;
    g.side = sideIn(room);
    g.gap = g.side * gapShare;
    g.aggregateGap = g.side * 0.6;
    g.groupGap = g.side * groupShare;
    g.cells = QRectF(room.topLeft(), QSizeF(g.columns * (g.side + g.gap) + g.aggregateGap +
                                                extraGroups * g.groupGap,
                                            layers * (g.side + g.gap)));
    return g;
}

std::vector<QImage> modelGridImages(const ModelSnapshot& snapshot, int maxPixels)
{
    std::vector<QImage> images;
    const int columns = snapshot.heads() + 2;
    images.reserve(static_cast<std::size_t>(snapshot.layers() * columns));
    for (int l = 0; l < snapshot.layers(); ++l)
        for (int c = 0; c < columns; ++c)
            images.push_back(weightsThumbnail(matrixAt(snapshot, l, c), maxPixels));
    return images;
}

namespace {

// `text` in `box` at the font's size, or smaller where it is wider than the box: a header never
// runs into its neighbour's.
void drawFitted(QPainter& p, const QRectF& box, const QString& text)
{
    const QFont font = p.font();
    const double wide = QFontMetricsF(font, p.device()).horizontalAdvance(text);
    QFont fitted = font;
    if (wide > box.width())
        fitted.setPixelSize(std::max(5, static_cast<int>(font.pixelSize() * box.width() / wide)));
    p.setFont(fitted);
    p.drawText(box, Qt::AlignHCenter | Qt::AlignBottom, text);
    p.setFont(font);
}

// The column titles, the brackets over heads that share a key/value head, the layer names.
void paintGridHeaders(QPainter& p, const QRectF& area, const ModelGridGeometry& g, int heads)
{
    for (int c = 0; c < g.columns; ++c)
        drawFitted(p, g.columnTitleRect(c, area), columnTitle(c, heads));
    for (int k = 0; g.group > 1 && k < heads / g.group; ++k) {
        const QRectF first = g.cellRect(0, k * g.group);
        const QRectF last = g.cellRect(0, (k + 1) * g.group - 1);
        const double y = area.top() + g.groupHeader * 0.8;
        p.drawLine(QPointF(first.left(), y + g.groupHeader * 0.15), QPointF(first.left(), y));
        p.drawLine(QPointF(first.left(), y), QPointF(last.right(), y));
        p.drawLine(QPointF(last.right(), y), QPointF(last.right(), y + g.groupHeader * 0.15));
        const QRectF box(first.left(), area.top(), last.right() - first.left(), y - area.top());
        drawFitted(p, box, ModelGridPaintTr::tr("KV %1").arg(k + 1));
    }
    for (int l = 0; l < g.layers; ++l) {
        const QRectF r = g.cellRect(l, 0);
        p.drawText(QRectF(area.left(), r.top(), g.cells.left() - area.left() - g.gap, r.height()),
                   Qt::AlignRight | Qt::AlignVCenter, ModelGridPaintTr::tr("L%1").arg(l + 1));
    }
}

// Every map: its thumbnail, its cells as rectangles (vector export), or a dash where it was not
// computed (a pooled run's rollout).
void paintGridCells(QPainter& p, const ModelGridGeometry& g, const ModelSnapshot& snapshot,
                    const std::vector<QImage>& images, bool vectorCells)
{
    const ColorLut& lut = colorLutFor(ColorScale::Weights);
    p.setRenderHint(QPainter::SmoothPixmapTransform, false);
    for (int l = 0; l < g.layers; ++l) {
        for (int c = 0; c < g.columns; ++c) {
            const QRectF r = g.cellRect(l, c);
            const attn::model::FloatMatrix& w = matrixAt(snapshot, l, c);
            if (w.size() == 0) {
                p.fillRect(r, QColor(0xee, 0xee, 0xee));
                p.drawText(r, Qt::AlignCenter, QStringLiteral("–"));
            } else if (vectorCells) {
                const double ch = r.height() / static_cast<double>(w.rows());
                const double cw = r.width() / static_cast<double>(w.cols());
                for (long i = 0; i < w.rows(); ++i)
                    for (long j = 0; j < w.cols(); ++j)
                        p.fillRect(
                            QRectF(r.left() + j * cw, r.top() + i * ch, cw + 0.02, ch + 0.02),
                            QColor(lut.color(w(i, j), ValueRange(0.0, 1.0))));
            } else {
                const std::size_t k = static_cast<std::size_t>(l * g.columns + c);
                if (k < images.size()) p.drawImage(r, images[k]);
            }
        }
    }
}

// Attention sinks: a head whose queries put most of their weight on the first token gets a ring
// at its top right corner (ModelDocument::selectNextSink finds them in turn).
void paintSinkRings(QPainter& p, const ModelGridGeometry& g, const ModelSnapshot& snapshot,
                    int heads)
{
    p.setBrush(Qt::NoBrush);
    for (int l = 0; l < g.layers; ++l) {
        const std::vector<float>& first =
            snapshot.result.layers[static_cast<std::size_t>(l)].firstShare;
        for (int c = 0; c < std::min(heads, static_cast<int>(first.size())); ++c) {
            if (first[static_cast<std::size_t>(c)] < kSinkMark) continue;
            const QRectF r = g.cellRect(l, c);
            const double d = std::max(4.0, r.width() * 0.22);
            const QRectF ring(r.right() - d * 1.15, r.top() + d * 0.15, d, d);
            p.setPen(QPen(QColor(0xff, 0xff, 0xff), std::max(1.5, d * 0.3)));
            p.drawEllipse(ring);
            p.setPen(QPen(QColor(0x20, 0x20, 0x20), std::max(0.8, d * 0.12)));
            p.drawEllipse(ring);
        }
    }
}

}  // namespace

void paintModelGrid(QPainter& p, const QRectF& area, const ModelSnapshot& snapshot,
                    const std::vector<QImage>& images, const ModelGridStyle& style)
{
    const int heads = snapshot.heads();
    const ModelGridGeometry g =
        modelGridGeometry(area, snapshot.layers(), heads, style.basePx, snapshot.groupSize);
    if (g.side <= 0) return;
    p.save();
    QFont font = p.font();
    font.setPixelSize(std::max(6, static_cast<int>(style.basePx)));
    p.setFont(font);
    p.setPen(QColor(0x30, 0x30, 0x30));
    paintGridHeaders(p, area, g, heads);
    paintGridCells(p, g, snapshot, images, style.vectorCells);
    if (style.markSinks) paintSinkRings(p, g, snapshot, heads);
    if (style.selected.layer >= 0 && style.selected.layer < g.layers &&
        style.selected.column >= 0 && style.selected.column < g.columns) {
        QPen pen(QColor(0xd6, 0x27, 0x28));
        pen.setWidthF(g.ringWidth());
        p.setPen(pen);
        p.setBrush(Qt::NoBrush);
        const double m = pen.widthF() / 2;
        p.drawRect(g.ringRect(style.selected.layer, style.selected.column).adjusted(m, m, -m, -m));
    }
    p.restore();
}

}  // namespace attnlab
