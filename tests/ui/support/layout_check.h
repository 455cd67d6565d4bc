// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Finds text a person could not read: labels, buttons, check boxes and combo boxes whose text
// is cut off (narrower than their text, or a wrapped label shorter than its lines) or that sit
// partly outside what their scroll area shows; plots' axis titles longer than their axis;
// docks whose panel does not fit, so that it scrolls; table and tree cells cut by their column
// or the view's edge; and a plot's labels with a curve drawn through them or cut by its edge.

#include <QStringList>

class QWidget;

namespace attnlab::testing {

// One line per defect, naming the widget, its text and what is wrong; empty when all fits.
// Only visible widgets are checked (a dock behind another's tab is not on screen).
QStringList clippedTexts(QWidget* root);

// Cells of visible tables and trees whose text is wider than their column (Qt elides it:
// "+0.001 个百…"), and columns that run past the view's right edge, one line each.
QStringList elidedCells(QWidget* root);

// Texts drawn in visible plots (QCPItemText: a mark's label) whose box a curve runs through,
// in the pixels the plot draws now (the loss curve dropped through "phase change"), or that
// the edge of their plot cuts ("phase chang" beside a line near the right edge).
QStringList hiddenPlotTexts(QWidget* root);

// True when every pixel of `w` is on screen: not scrolled away or covered by its parents.
bool fullyShown(const QWidget* w);

}  // namespace attnlab::testing
