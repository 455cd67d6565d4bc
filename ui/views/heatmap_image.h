#pragma once
// The one place where an Eigen matrix becomes the picture a heatmap draws: one pixel per
// cell, pixel (x = j, y = i) is the matrix cell (row i, column j). Rows run top to bottom
// (the first query at the top), columns left to right; the view stretches the image over
// the cells centred on integer plot coordinates, without smoothing.

#include <QImage>
#include <qcustomplot.h>

#include "core/attention_input.h"
#include "ui/views/color_scales.h"

namespace attnlab {

// Makes `image` a cols x rows Format_RGB32 picture of the matrix coloured with `lut` on
// `range` (reusing its memory when the size is unchanged). Cells where `mask` (if given and
// of the matrix's shape) is false, and NaN cells, get the masked colour.
void fillHeatmapImage(const attn::Matrix& matrix, const attn::BoolMatrix* mask,
                      const QCPRange& range, const ColorLut& lut, QImage& image);

// The cell (row, column) of a rows x cols matrix under plot coordinates (x = column,
// y = row), or false when outside.
bool cellAt(long rows, long cols, double x, double y, int& row, int& column);

}  // namespace attnlab
