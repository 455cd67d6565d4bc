// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/presenter/mark_layer.h"

#include <algorithm>

#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>

#include "ui/views/heatmap_view.h"

namespace attnlab {

MarkLayer::MarkLayer(MarkStore* store, QWidget* marked, QWidget* parent)
    : QWidget(parent), store_(store), marked_(marked)
{
    setObjectName(QStringLiteral("markLayer"));
    setAttribute(Qt::WA_NoSystemBackground);
    setAttribute(Qt::WA_TranslucentBackground);
    setMouseTracking(true);
    setTool(MarkTool::None);
    connect(store_, &MarkStore::changed, this, [this](const QString& page) {
        if (page == page_) update();
    });
}

void MarkLayer::setPage(const QString& page)
{
    if (page == page_) return;
    page_ = page;
    update();
}

void MarkLayer::setTool(MarkTool tool)
{
    tool_ = tool;
    // Without a tool the view below gets every click, hover and wheel.
    setAttribute(Qt::WA_TransparentForMouseEvents, tool == MarkTool::None);
    setCursor(tool == MarkTool::Pointer ? Qt::BlankCursor
              : tool == MarkTool::None  ? Qt::ArrowCursor
                                        : Qt::CrossCursor);
    if (tool != MarkTool::Pointer) pointer_ = QPointF(-1, -1);
    update();
}

QList<HeatmapView*> MarkLayer::maps() const
{
    return marked_ ? marked_->findChildren<HeatmapView*>() : QList<HeatmapView*>();
}

QRectF MarkLayer::ringRect(int map, int row, int column) const
{
    const QList<HeatmapView*> views = maps();
    if (map < 0 || map >= views.size()) return {};
    HeatmapView* v = views[map];
    if (!v->isVisible() || row >= v->content().rows() || column >= v->content().cols()) return {};
    const QPointF a(v->xAxis->coordToPixel(column - 0.5), v->yAxis->coordToPixel(row - 0.5));
    const QPointF b(v->xAxis->coordToPixel(column + 0.5), v->yAxis->coordToPixel(row + 0.5));
    const QRectF cell = QRectF(a, b).normalized();
    // Through the common top-level window: the layer and the map are not parent and child.
    const QPoint origin = mapFrom(window(), v->mapTo(window(), QPoint(0, 0)));
    // Inside its cell: a ring grown past the cell covered its neighbours and, on the top row,
    // the map's title. The ellipse through the cell's edges still clears the value printed
    // at its centre.
    return cell.translated(origin);
}

void MarkLayer::paintMarks(QPainter& painter) const
{
    painter.save();
    painter.setRenderHint(QPainter::Antialiasing);
    const double w = std::max(1, width());
    const double h = std::max(1, height());
    const double unit = std::max(2.0, std::min(w, h) / 220.0);
    for (const Mark& m : store_->marks(page_)) {
        if (m.tool == MarkTool::Ring) {
            const QRectF r = ringRect(m.map, m.row, m.column);
            if (r.isEmpty()) continue;
            const double pen = std::min(1.5 * unit, 0.15 * std::min(r.width(), r.height()));
            painter.setPen(QPen(m.color, pen));
            painter.setBrush(Qt::NoBrush);
            painter.drawEllipse(r.adjusted(pen / 2, pen / 2, -pen / 2, -pen / 2));
            continue;
        }
        if (m.points.isEmpty()) continue;
        QPainterPath path(QPointF(m.points.first().x() * w, m.points.first().y() * h));
        for (const QPointF& p : m.points) path.lineTo(p.x() * w, p.y() * h);
        QColor c = m.color;
        double width = 1.5 * unit;
        if (m.tool == MarkTool::Highlighter) {
            c.setAlpha(90);
            width = 9.0 * unit;
        }
        painter.setPen(QPen(c, width, Qt::SolidLine, Qt::RoundCap, Qt::RoundJoin));
        painter.setBrush(Qt::NoBrush);
        painter.drawPath(path);
    }
    if (tool_ == MarkTool::Pointer && pointer_.x() >= 0) {
        const double r = 3.0 * unit;
        painter.setPen(Qt::NoPen);
        painter.setBrush(QColor(255, 0, 0, 70));
        painter.drawEllipse(pointer_, 2.2 * r, 2.2 * r);
        painter.setBrush(QColor(230, 0, 0));
        painter.drawEllipse(pointer_, r, r);
    }
    painter.restore();
}

void MarkLayer::paintEvent(QPaintEvent*)
{
    QPainter painter(this);
    paintMarks(painter);
}

QPointF MarkLayer::fraction(const QPointF& pixel) const
{
    return {pixel.x() / std::max(1, width()), pixel.y() / std::max(1, height())};
}

void MarkLayer::ring(const QPoint& at)
{
    const QList<HeatmapView*> views = maps();
    for (int i = 0; i < views.size(); ++i) {
        HeatmapView* v = views[i];
        if (!v->isVisible()) continue;
        const QPoint local = v->mapFrom(window(), mapTo(window(), at));
        int row = -1, column = -1;
        if (!v->rect().contains(local) || !v->cellAtPosition(local, row, column)) continue;
        Mark m;
        m.tool = MarkTool::Ring;
        m.color = color_;
        m.map = i;
        m.row = row;
        m.column = column;
        store_->add(page_, m);
        return;
    }
}

void MarkLayer::mousePressEvent(QMouseEvent* event)
{
    if (event->button() != Qt::LeftButton) return;
    const QPointF at = event->position();
    switch (tool_) {
    case MarkTool::Pen:
    case MarkTool::Highlighter: {
        Mark m;
        m.tool = tool_;
        m.color = color_;
        m.points = {fraction(at), fraction(at + QPointF(0.5, 0.5))};  // a click leaves a dot
        store_->add(page_, m);
        break;
    }
    case MarkTool::Ring: ring(at.toPoint()); break;
    case MarkTool::Pointer:
    case MarkTool::None: break;
    }
    event->accept();
}

void MarkLayer::mouseMoveEvent(QMouseEvent* event)
{
    if (tool_ == MarkTool::Pointer) {
        pointer_ = event->position();
        update();
        return;
    }
    if ((event->buttons() & Qt::LeftButton) &&
        (tool_ == MarkTool::Pen || tool_ == MarkTool::Highlighter))
        store_->extendLast(page_, fraction(event->position()));
}

void MarkLayer::leaveEvent(QEvent* event)
{
    QWidget::leaveEvent(event);
    pointer_ = QPointF(-1, -1);
    update();
}

}  // namespace attnlab
