// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A transparent sheet over a presented view on which the teacher marks while talking: a pen
// and a highlighter drawn by dragging, a ring around the cell clicked in any heatmap, and a
// pointer (a large red dot in place of the cursor). With no tool the sheet lets every mouse
// event through to the view below. The marks live in a MarkStore under the current page.

#include <QColor>
#include <QPointer>
#include <QWidget>

#include "ui/presenter/mark_store.h"

namespace attnlab {

class HeatmapView;

class MarkLayer : public QWidget {
    Q_OBJECT
public:
    // `marked`: the widget whose heatmaps can be ringed (the layer lies over it).
    MarkLayer(MarkStore* store, QWidget* marked, QWidget* parent);

    void setPage(const QString& page);
    [[nodiscard]] QString page() const { return page_; }
    void setTool(MarkTool tool);
    [[nodiscard]] MarkTool tool() const { return tool_; }
    void setColor(const QColor& color) { color_ = color; }
    [[nodiscard]] QColor color() const { return color_; }
    [[nodiscard]] MarkStore* store() const { return store_; }
    // The page's marks drawn with `painter`, whose origin is this layer's top left corner.
    void paintMarks(QPainter& painter) const;
    // The heatmaps of the marked widget, in the order rings refer to them.
    [[nodiscard]] QList<HeatmapView*> maps() const;
    // Where a ring around cell (row, column) of map `map` is drawn (the cell's own rectangle,
    // its stroke inside it), in this layer's pixels; empty when that map is not shown.
    [[nodiscard]] QRectF ringRect(int map, int row, int column) const;

protected:
    void paintEvent(QPaintEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void leaveEvent(QEvent* event) override;

private:
    [[nodiscard]] QPointF fraction(const QPointF& pixel) const;
    void ring(const QPoint& at);

    MarkStore* store_;
    QPointer<QWidget> marked_;
    QString page_;
    MarkTool tool_ = MarkTool::None;
    QColor color_{0xd6, 0x27, 0x28};
    QPointF pointer_{-1, -1};  // the pointer's dot, in pixels; negative when not shown
};

}  // namespace attnlab
