// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/window/dock_layout.h"

#include <algorithm>

#include <QDockWidget>
#include <QMainWindow>
#include <QScrollArea>
#include <QScrollBar>
#include <QStatusBar>
#include <QTabWidget>

namespace attnlab {

namespace {

// What a dock's panel asks for (`least`: at the least), with the dock's title bar and its
// scroll area's frame.
QSize askedSize(const QDockWidget* dock, bool least)
{
    const QWidget* panel = dock->widget();
    QSize extra(8, 28);
    if (const auto* scroll = qobject_cast<const QScrollArea*>(panel); scroll && scroll->widget()) {
        panel = scroll->widget();
        extra += QSize(scroll->verticalScrollBar()->sizeHint().width() + 4, 4);
    }
    if (!panel) return extra;
    const QSize hint =
        least ? panel->minimumSizeHint() : panel->sizeHint().expandedTo(panel->minimumSizeHint());
    return hint + extra;
}

// The largest extent over a group's docks (tabs share one place).
int groupExtent(const QList<QDockWidget*>& group, Qt::Orientation orientation, bool least = false)
{
    int extent = 0;
    for (const QDockWidget* d : group) {
        const QSize s = askedSize(d, least);
        extent = std::max(extent, orientation == Qt::Horizontal ? s.width() : s.height());
    }
    return extent + (group.size() > 1 ? 28 : 0);  // the tab bar
}

// One area of the layout: its groups of docks (tabbed together) and how they follow each other.
struct DockAreaPlan {
    const QList<QStringList>* groups;
    Qt::DockWidgetArea area;
    Qt::Orientation stacking;
};

void selectLayoutTab(QMainWindow* window, const QString& tab)
{
    static const char* const kTabs[] = {"weights", "difference", "pipeline", "heads",
                                        "walkthrough"};
    if (auto* tabs = qobject_cast<QTabWidget*>(window->centralWidget())) {
        for (int i = 0; i < static_cast<int>(std::size(kTabs)) && i < tabs->count(); ++i)
            if (tab == QLatin1String(kTabs[i])) tabs->setCurrentIndex(i);
    }
}

// Docks that the layout does not name are closed.
void hideUnplacedDocks(QMainWindow* window, const QList<DockAreaPlan>& areas)
{
    QList<QDockWidget*> placed;
    for (const auto& a : areas) {
        for (const QStringList& names : *a.groups) {
            for (const QString& name : names) {
                if (auto* d = window->findChild<QDockWidget*>(name)) placed << d;
            }
        }
    }
    for (QDockWidget* d : window->findChildren<QDockWidget*>()) {
        if (!placed.contains(d)) d->hide();
    }
}

// Puts an area's groups in place: each group's first dock split from the previous group's, the
// others tabbed onto it. Returns the groups that have a dock in this window.
QList<QList<QDockWidget*>> placeDockGroups(QMainWindow* window, const DockAreaPlan& a)
{
    QList<QList<QDockWidget*>> groups;
    for (const QStringList& names : *a.groups) {
        QList<QDockWidget*> group;
        for (const QString& name : names) {
            if (auto* d = window->findChild<QDockWidget*>(name)) group << d;
        }
        if (group.isEmpty()) continue;
        QDockWidget* first = group.front();
        if (groups.isEmpty())
            window->addDockWidget(a.area, first);
        else
            window->splitDockWidget(groups.back().front(), first, a.stacking);
        first->setFloating(false);
        first->show();
        for (QDockWidget* other : group.mid(1)) {
            window->tabifyDockWidget(first, other);
            other->show();
        }
        first->raise();
        groups << group;
    }
    return groups;
}

void sizeDockArea(QMainWindow* window, const QList<QList<QDockWidget*>>& groups,
                  Qt::Orientation stacking, const QSize& room)
{
    // Across the area (its width, or the bottom's height): what the widest group asks for,
    // within 40% of the window (45% of its height). Along it: each group's own request.
    const Qt::Orientation across = stacking == Qt::Vertical ? Qt::Horizontal : Qt::Vertical;
    const int limit =
        static_cast<int>(across == Qt::Horizontal ? 0.4 * room.width() : 0.45 * room.height());
    int extent = 0;
    for (const auto& g : groups) extent = std::max(extent, groupExtent(g, across));
    // Along the area every group gets at least what it must have; the room left over goes
    // to the groups in proportion to what more they would like.
    QList<QDockWidget*> firsts;
    QList<int> least, more;
    for (const auto& g : groups) {
        firsts << g.front();
        least << groupExtent(g, stacking, true);
        more << std::max(0, groupExtent(g, stacking) - least.back());
    }
    // The docks' room: the window less its menu, tool and status bars.
    int top = window->centralWidget() ? window->centralWidget()->y() : 0;
    if (window->statusBar()) top += window->statusBar()->height();
    const int total = stacking == Qt::Horizontal ? room.width() : room.height() - top;
    int spare = total;
    for (int l : least) spare -= l;
    int wanted = 0;
    for (int m : more) wanted += m;
    QList<int> along;
    for (int i = 0; i < least.size(); ++i)
        along << least[i] + (wanted > 0 && spare > 0 ? spare * more[i] / wanted : 0);
    window->resizeDocks(firsts, QList<int>(firsts.size(), std::min(extent, limit)), across);
    if (firsts.size() > 1) window->resizeDocks(firsts, along, stacking);
}

}  // namespace

DockLayout defaultDockLayout()
{
    DockLayout l;
    l.left = {{QStringLiteral("ControlsDock"), QStringLiteral("SequencesDock"),
               QStringLiteral("MatricesDock")}};
    l.right = {{QStringLiteral("RowInspectorDock")}};
    // The vectors' sliders need the width of every component: under the map, not beside it.
    l.bottom = {
        {QStringLiteral("KeysDock"), QStringLiteral("QueriesDock"), QStringLiteral("ValuesDock")}};
    l.tab = QStringLiteral("weights");
    return l;
}

void applyDockLayout(QMainWindow* window, const DockLayout& layout)
{
    selectLayoutTab(window, layout.tab);
    const QList<DockAreaPlan> areas = {{&layout.left, Qt::LeftDockWidgetArea, Qt::Vertical},
                                       {&layout.right, Qt::RightDockWidgetArea, Qt::Vertical},
                                       {&layout.bottom, Qt::BottomDockWidgetArea, Qt::Horizontal}};
    window->setCorner(Qt::BottomRightCorner,
                      layout.rightFullHeight ? Qt::RightDockWidgetArea : Qt::BottomDockWidgetArea);
    hideUnplacedDocks(window, areas);
    const QSize room = window->size();
    for (const auto& a : areas) {
        const QList<QList<QDockWidget*>> groups = placeDockGroups(window, a);
        if (!groups.isEmpty()) sizeDockArea(window, groups, a.stacking, room);
    }
}

}  // namespace attnlab
