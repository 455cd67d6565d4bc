#pragma once
// The one place where an Eigen matrix becomes QCustomPlot colour-map data.
// QCPColorMapData::setCell(key, value, z) stores at value * keySize + key, so the
// column j is the key (x) and the row i the value (y); the value axis is drawn
// reversed so that row 0 (the first query) is at the top.

#include <qcustomplot.h>

#include "core/attention_input.h"

namespace attnlab {

// Resizes `data` to cols x rows cells centred on integer coordinates and copies the
// matrix; cells where `mask` (if given) is false become NaN (drawn as masked).
// QCustomPlot draws a dimension of size 1 with zero width, so a single row or column
// is stored twice, with centres at -0.25 and +0.25 (together spanning -0.5 .. 0.5).
void fillColorMapData(const attn::Matrix& matrix, const attn::BoolMatrix* mask,
                      QCPColorMapData& data);

// The cell (row, column) of a rows x cols matrix under plot coordinates (x = key,
// y = value), or false when outside.
bool cellAt(long rows, long cols, double x, double y, int& row, int& column);

}  // namespace attnlab
