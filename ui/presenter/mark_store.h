// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What a teacher drew over a presented view while talking: pen and highlighter strokes and
// rings around cells, kept per page (a view, or a step of the walkthrough) so that they come
// back with the step they were drawn on, and survive closing the presenter view. Owned by the
// window whose views are presented; read again by exports.

#include <QColor>
#include <QHash>
#include <QList>
#include <QObject>
#include <QPointF>
#include <QString>

namespace attnlab {

enum class MarkTool { None, Pen, Highlighter, Ring, Pointer };

struct Mark {
    MarkTool tool = MarkTool::Pen;  // Pen, Highlighter or Ring
    QColor color;
    // Pen and highlighter: the stroke, as fractions (0..1) of the marked area's width and height.
    QList<QPointF> points;
    // Ring: the cell, in the page's n-th heatmap (in widget order).
    int map = -1;
    int row = -1;
    int column = -1;
};

class MarkStore : public QObject {
    Q_OBJECT
public:
    using QObject::QObject;

    [[nodiscard]] QList<Mark> marks(const QString& page) const { return marks_.value(page); }
    [[nodiscard]] bool isEmpty(const QString& page) const { return marks_.value(page).isEmpty(); }
    void add(const QString& page, const Mark& mark);
    // Extends the page's last stroke (a drag in progress).
    void extendLast(const QString& page, const QPointF& point);
    void clear(const QString& page);

Q_SIGNALS:
    void changed(const QString& page);

private:
    QHash<QString, QList<Mark>> marks_;
};

}  // namespace attnlab
