// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Which docks a view of the window shows, where, and at what size: what a lesson declares in
// resources/lessons/lessons.json. Only the data and its reading live here (QtCore, no widgets),
// so that the lesson catalogue, its fuzz target and io_tests read layouts without the window;
// ui/window/dock_layout.h applies a layout to the docks. Docks that are not named are hidden
// (View ▸ Panels brings any of them back).
//
// Each area lists groups from top to bottom (left, right) or from left to right (bottom); a
// group of several docks is one set of tabs, its first dock in front.

#include <nlohmann/json_fwd.hpp>

#include <QList>
#include <QString>
#include <QStringList>

namespace attnlab {

struct DockLayout {
    QList<QStringList> left, right, bottom;
    QString tab;  // "weights", "difference", "pipeline", "heads", "walkthrough"; empty: keep
    // The right area runs the window's full height (beside the bottom area, not above it).
    bool rightFullHeight = false;
};

// Reads {"tab": …, "left": [...], "right": [...], "bottom": [...]}; an entry is a dock name or
// a list of names (tabs); anything else is skipped.
DockLayout dockLayoutFrom(const nlohmann::json& o);

}  // namespace attnlab
