// SPDX-License-Identifier: GPL-3.0-or-later
#include "support/layout_check.h"

#include <QAbstractButton>
#include <QAbstractScrollArea>
#include <QComboBox>
#include <QDockWidget>
#include <QLabel>
#include <QScrollArea>
#include <QScrollBar>
#include <QTabBar>
#include <QTableWidget>
#include <QTreeWidget>
#include <QTreeWidgetItemIterator>

#include "qcustomplot.h"

namespace attnlab::testing {

namespace {

QString describe(const QWidget* w, const QString& text, const QString& problem)
{
    QString name = QString::fromLatin1(w->metaObject()->className());
    if (!w->objectName().isEmpty()) name += QLatin1Char('#') + w->objectName();
    for (const QWidget* p = w->parentWidget(); p; p = p->parentWidget()) {
        if (const auto* dock = qobject_cast<const QDockWidget*>(p)) {
            // The dock's size beside what its panel asks for: the usual cause.
            const auto* scroll = qobject_cast<const QScrollArea*>(dock->widget());
            const QWidget* panel = scroll ? scroll->widget() : dock->widget();
            name = QStringLiteral("%1 (%2×%3, panel wants %4×%5)/%6")
                       .arg(dock->objectName())
                       .arg(dock->width())
                       .arg(dock->height())
                       .arg(panel ? panel->minimumSizeHint().width() : 0)
                       .arg(panel ? panel->minimumSizeHint().height() : 0)
                       .arg(name);
            break;
        }
    }
    return QStringLiteral("%1 \"%2\": %3").arg(name, text.left(60), problem);
}

QString textOf(const QWidget* w)
{
    if (const auto* l = qobject_cast<const QLabel*>(w)) return l->text();
    if (const auto* b = qobject_cast<const QAbstractButton*>(w)) return b->text();
    if (const auto* c = qobject_cast<const QComboBox*>(w)) return c->currentText();
    return {};
}

// Widgets that live inside a scrolling view of their own (tables, lists, plots' axes) are
// the view's business: a table's cells may scroll.
bool insideItemView(const QWidget* w)
{
    for (const QWidget* p = w->parentWidget(); p; p = p->parentWidget()) {
        if (qobject_cast<const QAbstractScrollArea*>(p) && !qobject_cast<const QScrollArea*>(p))
            return true;
    }
    return false;
}

const QDockWidget* dockOf(const QWidget* w)
{
    for (const QWidget* p = w->parentWidget(); p; p = p->parentWidget())
        if (const auto* d = qobject_cast<const QDockWidget*>(p)) return d;
    return nullptr;
}

}  // namespace

bool fullyShown(const QWidget* w)
{
    return w->visibleRegion().boundingRect() == w->rect() && w->visibleRegion().rectCount() == 1;
}

namespace {

// An axis title longer than its axis is cut at both ends ("score (unscaled)" beside a short
// plot read "score (unscale").
void checkAxisTitles(QCustomPlot* plot, QStringList& defects)
{
    for (QCPAxisRect* rect : plot->axisRects()) {
        for (QCPAxis* axis : rect->axes()) {
            if (!axis->visible() || axis->label().isEmpty()) continue;
            const bool vertical = axis->orientation() == Qt::Vertical;
            const int room = vertical ? rect->height() : rect->width();
            const int need = QFontMetrics(axis->labelFont()).horizontalAdvance(axis->label());
            if (need > room + 1)
                defects << describe(plot, axis->label(),
                                    QStringLiteral("axis title needs %1 px along its axis, has %2")
                                        .arg(need)
                                        .arg(room));
        }
    }
}

// A plot lower (or narrower) than its layout's elements need squeezes them over each other:
// titles, captions and the legend are drawn cut (the row inspector in Chinese at 1366×768 cut
// its caption's second line and its legend, and left its weights' plot a few pixels high).
void checkPlotRoom(QCustomPlot* plot, QStringList& defects)
{
    const QSize need = plot->plotLayout()->minimumOuterSizeHint();
    if (need.height() <= plot->height() + 1 && need.width() <= plot->width() + 1) return;
    defects << describe(plot, QString(),
                        QStringLiteral("plot squeezed: its elements need %1×%2, it has %3×%4")
                            .arg(need.width())
                            .arg(need.height())
                            .arg(plot->width())
                            .arg(plot->height()));
}

// A panel whose dock is too small for it scrolls: what the lesson needs is then out of view.
void checkScrolling(QDockWidget* dock, QStringList& defects)
{
    const auto* scroll = qobject_cast<const QScrollArea*>(dock->widget());
    if (scroll == nullptr || scroll->widget() == nullptr) return;
    const bool across = scroll->horizontalScrollBar()->isVisible();
    const bool down = scroll->verticalScrollBar()->isVisible();
    if (!across && !down) return;
    defects << QStringLiteral("%1 (%2×%3) scrolls %4: its panel wants %5×%6")
                   .arg(dock->objectName())
                   .arg(dock->width())
                   .arg(dock->height())
                   .arg(across && down
                            ? QStringLiteral("both ways")
                            : (across ? QStringLiteral("sideways") : QStringLiteral("down")))
                   .arg(scroll->widget()->minimumSizeHint().width())
                   .arg(scroll->widget()->minimumSizeHint().height());
}

}  // namespace

QStringList clippedTexts(QWidget* root)
{
    QStringList defects;
    for (QDockWidget* dock : root->findChildren<QDockWidget*>())
        if (dock->isVisible() && !dock->visibleRegion().isEmpty()) checkScrolling(dock, defects);
    for (QCustomPlot* plot : root->findChildren<QCustomPlot*>()) {
        const QDockWidget* dock = dockOf(plot);
        if (plot->isVisible() && !plot->visibleRegion().isEmpty() &&
            (dock == nullptr || !dock->visibleRegion().isEmpty())) {
            checkAxisTitles(plot, defects);
            checkPlotRoom(plot, defects);
        }
    }
    for (QWidget* w : root->findChildren<QWidget*>()) {
        if (!w->isVisible() || insideItemView(w) || qobject_cast<QTabBar*>(w->parentWidget()))
            continue;
        // A dock behind another dock's tab is not on screen: nothing of it is shown, by choice.
        if (const QDockWidget* dock = dockOf(w); dock && dock->visibleRegion().isEmpty()) continue;
        const bool textWidget = qobject_cast<QLabel*>(w) || qobject_cast<QAbstractButton*>(w) ||
                                qobject_cast<QComboBox*>(w);
        if (!textWidget) continue;
        const QString text = textOf(w);
        if (text.trimmed().isEmpty()) continue;
        if (!fullyShown(w)) {
            defects << describe(w, text,
                                QStringLiteral("not fully on screen (scrolled or covered)"));
            continue;
        }
        if (const auto* l = qobject_cast<QLabel*>(w); l && l->wordWrap()) {
            const int need = l->heightForWidth(l->width());
            if (need > l->height() + 1)
                defects << describe(
                    w, text,
                    QStringLiteral("wrapped text needs %1 px, has %2").arg(need).arg(l->height()));
            continue;
        }
        QSize need = w->minimumSizeHint();
        // A combo box asks for its longest item; what must fit is the text it shows.
        if (const auto* combo = qobject_cast<const QComboBox*>(w))
            need.setWidth(combo->fontMetrics().horizontalAdvance(combo->currentText()) + 30);
        if (need.width() > w->width() + 1)
            defects << describe(
                w, text,
                QStringLiteral("needs %1 px wide, has %2").arg(need.width()).arg(w->width()));
    }
    return defects;
}

QStringList elidedCells(QWidget* root)
{
    QStringList defects;
    const auto check = [&](QWidget* view, const QString& text, const QFont& font, int room,
                           const QString& where) {
        if (text.isEmpty()) return;
        // The cell's own padding: a few pixels each side, as the styles draw it.
        if (QFontMetrics(font).horizontalAdvance(text) + 8 > room)
            defects << QStringLiteral("%1 %2 \"%3\": needs %4 px, column has %5")
                           .arg(QString::fromLatin1(view->metaObject()->className()), where, text)
                           .arg(QFontMetrics(font).horizontalAdvance(text) + 8)
                           .arg(room);
    };
    // A column that runs past the view's right edge is cut as surely as an elided cell (the
    // view scrolls sideways, or the column's end is simply not shown).
    const auto checkInView = [&](QAbstractItemView* view, int column, int x, int width) {
        if (x >= 0 && x + width <= view->viewport()->width() + 1) return;
        defects << QStringLiteral("%1 column %2: at %3 to %4, the view shows 0 to %5")
                       .arg(QString::fromLatin1(view->metaObject()->className()))
                       .arg(column + 1)
                       .arg(x)
                       .arg(x + width)
                       .arg(view->viewport()->width());
    };
    for (QTableWidget* t : root->findChildren<QTableWidget*>()) {
        if (!t->isVisible() || t->visibleRegion().isEmpty()) continue;
        for (int c = 0; c < t->columnCount(); ++c)
            if (!t->isColumnHidden(c) && t->rowCount() > 0)
                checkInView(t, c, t->columnViewportPosition(c), t->columnWidth(c));
        for (int r = 0; r < t->rowCount(); ++r)
            for (int c = 0; c < t->columnCount(); ++c)
                if (const QTableWidgetItem* item = t->item(r, c); item && !t->isColumnHidden(c))
                    check(t, item->text(), item->font(), t->columnWidth(c),
                          QStringLiteral("(%1, %2)").arg(r + 1).arg(c + 1));
    }
    for (QTreeWidget* t : root->findChildren<QTreeWidget*>()) {
        if (!t->isVisible() || t->visibleRegion().isEmpty()) continue;
        for (int c = 0; c < t->columnCount(); ++c)
            if (!t->isColumnHidden(c) && t->topLevelItemCount() > 0)
                checkInView(t, c, t->columnViewportPosition(c), t->columnWidth(c));
        int row = 0;
        for (QTreeWidgetItemIterator it(t); *it; ++it, ++row) {
            const QTreeWidgetItem* item = *it;
            if (item->isFirstColumnSpanned()) continue;
            // The first column carries the tree's indent: its room is not the column's.
            for (int c = 1; c < t->columnCount(); ++c)
                if (!t->isColumnHidden(c))
                    check(t, item->text(c), item->font(c), t->columnWidth(c),
                          QStringLiteral("(%1, %2)").arg(row + 1).arg(c + 1));
        }
    }
    return defects;
}

namespace {

// True when a curve of `graph`, as drawn (its points joined by straight segments, in pixels),
// has a point inside `box` or crosses one of its edges.
bool curveCrosses(const QCPGraph* graph, const QRectF& box)
{
    const QLineF edges[] = {{box.topLeft(), box.topRight()},
                            {box.topRight(), box.bottomRight()},
                            {box.bottomRight(), box.bottomLeft()},
                            {box.bottomLeft(), box.topLeft()}};
    QPointF previous;
    bool first = true;
    for (const QCPGraphData& d : *graph->data()) {
        const QPointF p(graph->keyAxis()->coordToPixel(d.key),
                        graph->valueAxis()->coordToPixel(d.value));
        if (box.contains(p)) return true;
        if (!first)
            for (const QLineF& e : edges)
                if (QLineF(previous, p).intersects(e, nullptr) == QLineF::BoundedIntersection)
                    return true;
        previous = p;
        first = false;
    }
    return false;
}

}  // namespace

QStringList hiddenPlotTexts(QWidget* root)
{
    QStringList defects;
    QList<QCustomPlot*> plots = root->findChildren<QCustomPlot*>();
    if (auto* self = qobject_cast<QCustomPlot*>(root)) plots << self;  // a plot on its own
    for (QCustomPlot* plot : plots) {
        if (!plot->isVisible() || plot->visibleRegion().isEmpty()) continue;
        if (const QDockWidget* dock = dockOf(plot); dock && dock->visibleRegion().isEmpty())
            continue;
        plot->replot();  // the items and the axes where they are drawn now
        for (int i = 0; i < plot->itemCount(); ++i) {
            const auto* text = qobject_cast<QCPItemText*>(plot->item(i));
            if (text == nullptr || !text->visible() || text->text().trimmed().isEmpty()) continue;
            const QRectF box(text->topLeft->pixelPosition(), text->bottomRight->pixelPosition());
            // Drawn clipped to its axis rect, or else to the plot.
            const QRectF area = text->clipToAxisRect() && text->clipAxisRect()
                                    ? QRectF(text->clipAxisRect()->rect())
                                    : QRectF(plot->rect());
            if (!area.adjusted(-1, -1, 1, 1).contains(box))
                defects << describe(plot, text->text(),
                                    QStringLiteral("cut by the plot's edge: %1,%2 %3×%4 in "
                                                   "%5,%6 %7×%8")
                                        .arg(box.x())
                                        .arg(box.y())
                                        .arg(box.width())
                                        .arg(box.height())
                                        .arg(area.x())
                                        .arg(area.y())
                                        .arg(area.width())
                                        .arg(area.height()));
            for (int g = 0; g < plot->graphCount(); ++g) {
                const QCPGraph* graph = plot->graph(g);
                if (!graph->visible() || !curveCrosses(graph, box)) continue;
                defects << describe(
                    plot, text->text(),
                    QStringLiteral("lies on curve %1 (%2)").arg(g + 1).arg(graph->name()));
                break;
            }
        }
    }
    return defects;
}

}  // namespace attnlab::testing
