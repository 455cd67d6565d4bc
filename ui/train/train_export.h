// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What the Trainer dock exports: the loss curve as CSV (the format of `attnlab train --curve`)
// and as a figure (PNG/SVG/PDF, drawn by the loss plot itself as vectors), and the film strip
// of the map at chosen steps. Every file goes through writeFigure / writeFileAtomically.

#include <map>
#include <vector>

#include <QByteArray>
#include <QString>
#include <QStringList>

#include "core/attention_input.h"
#include "ui/export/figure.h"

class QCustomPlot;

namespace attnlab {

// "step,loss", then step k and the loss before step k, then the final loss (steps + 2 lines).
QByteArray lossCurveCsv(const std::vector<double>& losses, double final);

// The plot as a figure (title, the plot as drawn, a caption), for writeFigure.
Figure lossCurveFigure(QCustomPlot* plot, const QString& title, const QString& caption);

// The map at each kept step, side by side; `steps` picks which of `frames` (missing ones are
// left out).
Figure filmStripFigure(const std::map<int, attn::Matrix>& frames, const std::vector<int>& steps,
                       const QStringList& rowLabels, const QStringList& columnLabels,
                       const QString& title, const QString& caption);

// Parses "0, 10, 100, 1000" (commas or spaces); false when a part is not a whole number >= 0.
bool parseStepList(const QString& text, std::vector<int>& steps);

}  // namespace attnlab
