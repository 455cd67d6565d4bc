// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Numbers under a plot's horizontal axes that never run together: before each replot the axes'
// tickers are asked for as many ticks as the axis's width holds labels of the tick font, with a
// label's width of room between two. QCustomPlot's default asks for five whatever the font, and
// with the presenter's enlarged fonts "100 200 300" on a narrow plot ran into one another.

class QCustomPlot;

namespace attnlab {

// Idempotent: a plot that keeps its labels apart already is left as it is.
void keepTickLabelsApart(QCustomPlot* plot);

}  // namespace attnlab
