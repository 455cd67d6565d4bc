// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Shows, places and sizes the window's docks as a DockLayout (ui/readers/dock_layout.h) says:
// a lesson's, or on the first start defaultDockLayout(). Sizes follow what the panels ask for
// (their size hints), within a share of the window, so that nothing they show is cut off when
// the window is large enough.

#include "ui/readers/dock_layout.h"

class QMainWindow;

namespace attnlab {

// The layout of a window with no lesson open.
DockLayout defaultDockLayout();
// Shows, places and sizes the window's docks (found by object name) as `layout` says.
void applyDockLayout(QMainWindow* window, const DockLayout& layout);

}  // namespace attnlab
