// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The one place where an Eigen matrix becomes the picture a heatmap draws. The matrix is
// first turned into colour ranks, one per cell (fillCellRanks); those become either a
// picture with one pixel per cell (ranksToImage: pixel (x = j, y = i) is cell (row i,
// column j)) or the pixels of the screen directly (renderCells). Rows run top to bottom
// (the first query at the top), columns left to right.

#include <array>
#include <cstdint>
#include <vector>

#include <QImage>
#include <qcustomplot.h>

#include "core/attention_input.h"
#include "ui/views/color_scales.h"

namespace attnlab {

// When a pixel covers several cells, it shows the one that stands out most: the highest
// level (weights: a sharp peak is never lost between pixels), or the level furthest from
// the middle (diverging maps: the largest change of either sign). A masked cell shows only
// when every covered cell is masked.
enum class CellPooling { Highest, FurthestFromMiddle };

// A matrix as the colour levels of its cells (the index rule is ColorLut::color's), each
// stored as its rank under the pooling rule: 0 is a masked or NaN cell, and a larger rank
// stands out more, so pooling cells is taking their largest rank.
struct CellRanks {
    static constexpr std::uint16_t kMasked = 0;
    CellPooling pooling = CellPooling::Highest;
    int rows = 0;
    int cols = 0;
    std::vector<std::uint16_t> ranks;  // row-major
    [[nodiscard]] std::uint16_t at(int row, int col) const
    {
        return ranks[static_cast<std::size_t>(row) * static_cast<std::size_t>(cols) +
                     static_cast<std::size_t>(col)];
    }
};

// The cells of the matrix on `range`. Cells where `mask` (if given and of the matrix's
// shape) is false, and NaN cells, are kMasked. Reuses the memory of `out`.
void fillCellRanks(const attn::Matrix& matrix, const attn::BoolMatrix* mask,
                   const ValueRange& range, CellPooling pooling, CellRanks& out);

// The ranks of `count` consecutive cells as fillCellRanks makes them (`keep`: false = masked,
// or null). For float results too, so that they are drawn without a double copy.
void rankCells(const double* values, const bool* keep, std::size_t count, const ValueRange& range,
               CellPooling pooling, std::uint16_t* out);
void rankCells(const float* values, const bool* keep, std::size_t count, const ValueRange& range,
               CellPooling pooling, std::uint16_t* out);

// The colour of each rank ("masked" and one per level).
constexpr std::size_t kRankCount = ColorLut::kLevels + 1;
std::array<QRgb, kRankCount> rankPalette(const ColorLut& lut, CellPooling pooling);

// One pixel per cell, Format_RGB32 (a null image for an empty matrix).
void ranksToImage(const CellRanks& cells, const ColorLut& lut, QImage& image);

// The cells that one pixel covers along one axis, first..last inclusive.
struct CellSpan {
    int first = 0;
    int last = 0;
};

// The spans with every cell index clamped to 0 .. count - 1 (first <= last kept).
std::vector<CellSpan> clampedSpans(const std::vector<CellSpan>& spans, int count);

// One line of ranks into pixels: pixel x shows the largest rank of line[columns[x]] (spans
// inside the line); `widest` is the most cells any span holds, minus one.
void paintRankRow(const std::uint16_t* line, const std::vector<CellSpan>& columns, int widest,
                  const std::array<QRgb, kRankCount>& palette, QRgb* dst);

// Draws the cells straight into screen pixels: pixel (x, y) shows the cells rows[y] x
// columns[x], pooled. `out` becomes columns.size() x rows.size(), Format_RGB32 (its memory
// reused).
void renderCells(const CellRanks& cells, const std::vector<CellSpan>& rows,
                 const std::vector<CellSpan>& columns, const ColorLut& lut, QImage& out);

// The cell (row, column) of a rows x cols matrix under plot coordinates (x = column,
// y = row), or false when outside.
bool cellAt(long rows, long cols, double x, double y, int& row, int& column);

}  // namespace attnlab
