// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// One map of a real model as an export figure: a head's, a layer mean or a rollout, with the
// tokens on both axes. The model window's enlarged map and `attnlab model -o OUT.png` both
// draw it.

#include <QSize>
#include <QString>
#include <QStringList>

#include "core/model/forward.h"
#include "ui/export/figure.h"

namespace attnlab {

// One matrix with the tokens on both axes (rows: queries, columns: keys).
Figure modelMapFigure(const QStringList& labels, const attn::model::FloatMatrix& weights,
                      const QString& title);
// The same with other tokens on each axis: a cross-attention map of an encoder-decoder, the
// target's tokens as the rows (queries) and the source's as the columns (keys).
Figure modelMapFigure(const QStringList& rowLabels, const QStringList& columnLabels,
                      const attn::model::FloatMatrix& weights, const QString& title);

// The figure's size for a map of rows x columns cells: defaultFigureSize(), shorter when the map
// is wider than tall.
QSize modelMapFigureSize(const Figure& figure, long rows, long columns);

}  // namespace attnlab
