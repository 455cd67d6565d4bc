// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/model/head_lines_paint.h"

#include <algorithm>

#include <QCoreApplication>
#include <QPainter>
#include <QPainterPath>

namespace attnlab {

namespace {
class HeadLinesTr {
    Q_DECLARE_TR_FUNCTIONS(attnlab::HeadLines)
};
}  // namespace

QString headLinesTooLong(long tokens)
{
    return HeadLinesTr::tr(
               "The head view draws a line for each pair of tokens that attend; "
               "%1 tokens are too many to follow. The model view and the enlarged "
               "map show every head.")
        .arg(tokens);
}

QColor headColor(int head)
{
    // Tableau 10 followed by six darker companions.
    static const QRgb palette[] = {0x4e79a7, 0xf28e2b, 0xe15759, 0x76b7b2, 0x59a14f, 0xedc948,
                                   0xb07aa1, 0xff9da7, 0x9c755f, 0xbab0ac, 0x1f4e79, 0xa3500b,
                                   0x8c1d18, 0x2f6f6a, 0x2c5d25, 0x6b4c8c};
    constexpr int count = static_cast<int>(sizeof(palette) / sizeof(palette[0]));
    return QColor(palette[((head % count) + count) % count]);
}

bool HeadLinesGeometry::tokenAt(const QPointF& point, int& side, int& index) const
{
    side = -1;
    index = -1;
    if (rows <= 0 || rowHeight <= 0) return false;
    const int i = static_cast<int>((point.y() - left.top()) / rowHeight);
    if (point.y() < left.top() || i < 0 || i >= rows) return false;
    if (left.contains(point))
        side = 0;
    else if (right.contains(point))
        side = 1;
    else
        return false;
    index = i;
    return true;
}

HeadLinesGeometry headLinesGeometry(const QRectF& area, int tokens, double basePx)
{
    HeadLinesGeometry g;
    g.rows = tokens;
    if (tokens <= 0) return g;
    const double labelWidth = std::min(area.width() * 0.3, basePx * 9.0);
    g.rowHeight = std::min(area.height() / tokens, basePx * 1.9);
    const double height = g.rowHeight * tokens;
    const double top = area.top() + (area.height() - height) / 2;
    const double span = std::min(area.width(), labelWidth * 2 + basePx * 24.0);
    const double x0 = area.left() + (area.width() - span) / 2;
    g.left = QRectF(x0, top, labelWidth, height);
    g.right = QRectF(x0 + span - labelWidth, top, labelWidth, height);
    return g;
}

void paintHeadLines(QPainter& p, const QRectF& area, const HeadLinesContent& c, double basePx)
{
    const int n = static_cast<int>(c.labels.size());
    const HeadLinesGeometry g = headLinesGeometry(area, n, basePx);
    if (n == 0) return;
    p.save();
    p.setRenderHint(QPainter::Antialiasing, true);
    QFont font = p.font();
    const double textPx = std::clamp(g.rowHeight * 0.72, 4.0, basePx);
    font.setPixelSize(std::max(4, static_cast<int>(textPx)));
    p.setFont(font);
    const bool isolating = c.hoverQuery >= 0 || c.hoverKey >= 0;
    const double maxWidth = std::clamp(g.rowHeight * 0.45, 0.6, basePx * 0.5);
    const double x0 = g.left.right() + basePx * 0.4;
    const double x1 = g.right.left() - basePx * 0.4;
    // At most kHeadLineBudget lines in all: a long text keeps each query's strongest keys.
    const std::size_t perRow = std::clamp<std::size_t>(
        kHeadLineBudget /
            (static_cast<std::size_t>(n) * std::max<std::size_t>(1, c.weights.size())),
        1, 12);
    for (std::size_t h = 0; h < c.weights.size(); ++h) {
        const attn::model::FloatMatrix& w = *c.weights[h];
        if (w.rows() != n || w.cols() != n) continue;
        QColor color = h < c.colors.size() ? c.colors[h] : headColor(static_cast<int>(h));
        for (int i = 0; i < n; ++i) {
            if (c.hoverQuery >= 0 && i != c.hoverQuery) continue;
            // The strongest keys of the row (all of them above the threshold for short texts).
            std::vector<int> keys;
            for (int j = 0; j < n; ++j)
                if (w(i, j) >= kHeadLineThreshold && (c.hoverKey < 0 || j == c.hoverKey))
                    keys.push_back(j);
            if (keys.size() > perRow) {
                std::partial_sort(keys.begin(), keys.begin() + static_cast<long>(perRow),
                                  keys.end(), [&](int a, int b) { return w(i, a) > w(i, b); });
                keys.resize(perRow);
            }
            const double y0 = g.left.top() + (i + 0.5) * g.rowHeight;
            for (int j : keys) {
                const double y1 = g.right.top() + (j + 0.5) * g.rowHeight;
                color.setAlphaF(std::clamp(0.15 + 0.85 * static_cast<double>(w(i, j)), 0.0, 1.0));
                QPen pen(color);
                pen.setWidthF(std::max(0.4, maxWidth * 2.0 * static_cast<double>(w(i, j))));
                pen.setCapStyle(Qt::FlatCap);
                p.setPen(pen);
                p.drawLine(QPointF(x0, y0), QPointF(x1, y1));
            }
        }
    }
    for (int i = 0; i < n; ++i) {
        const QRectF l(g.left.left(), g.left.top() + i * g.rowHeight, g.left.width(), g.rowHeight);
        const QRectF r(g.right.left(), g.right.top() + i * g.rowHeight, g.right.width(),
                       g.rowHeight);
        const bool hotLeft = i == c.hoverQuery;
        const bool hotRight = i == c.hoverKey;
        p.setPen(Qt::NoPen);
        if (hotLeft) p.fillRect(l, QColor(0xff, 0xe8, 0xa0));
        if (hotRight) p.fillRect(r, QColor(0xff, 0xe8, 0xa0));
        p.setPen(isolating && !hotLeft && !hotRight ? QColor(0x70, 0x70, 0x70)
                                                    : QColor(0x20, 0x20, 0x20));
        p.drawText(l.adjusted(0, 0, -basePx * 0.2, 0), Qt::AlignRight | Qt::AlignVCenter,
                   c.labels[i]);
        p.drawText(r.adjusted(basePx * 0.2, 0, 0, 0), Qt::AlignLeft | Qt::AlignVCenter,
                   c.labels[i]);
    }
    p.restore();
}

}  // namespace attnlab
