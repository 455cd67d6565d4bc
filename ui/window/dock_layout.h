// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Which docks a view of the window shows, where, and at what size. Lessons declare one in
// resources/lessons/lessons.json; the first start uses defaultDockLayout(). Docks that are
// not named are hidden (View ▸ Panels brings any of them back).
//
// Each area lists groups from top to bottom (left, right) or from left to right (bottom); a
// group of several docks is one set of tabs, its first dock in front. Sizes follow what the
// panels ask for (their size hints), within a share of the window, so that nothing they show
// is cut off when the window is large enough.

#include <nlohmann/json_fwd.hpp>

#include <QList>
#include <QString>
#include <QStringList>

class QMainWindow;

namespace attnlab {

struct DockLayout {
    QList<QStringList> left, right, bottom;
    QString tab;  // "weights", "difference", "pipeline", "heads", "walkthrough"; empty: keep
    // The right area runs the window's full height (beside the bottom area, not above it).
    bool rightFullHeight = false;
};

// The layout of a window with no lesson open.
DockLayout defaultDockLayout();
// Reads {"tab": …, "left": [...], "right": [...], "bottom": [...]}; an entry is a dock name or
// a list of names (tabs); anything else is skipped.
DockLayout dockLayoutFrom(const nlohmann::json& o);
// Shows, places and sizes the window's docks (found by object name) as `layout` says.
void applyDockLayout(QMainWindow* window, const DockLayout& layout);

}  // namespace attnlab
