// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A heatmap's cells at the screen's resolution: a pyramid of pooled levels.
//
// Level 0 is the matrix itself, read in place through a CellSource (double or float: no copy).
// Level k >= 1 holds one colour rank per block of 2^k x 2^k cells (the last blocks of a row or
// column may be smaller), the block's largest rank (heatmap_image.h: for weights the highest
// level, for diverging maps the level furthest from the middle; "masked" only when every cell
// of the block is masked).
//
// A level is built only when a render needs it, from the nearest finer level already built
// (or from the matrix), so that a zoomed-out 4096 map never builds the finer levels. A change
// to some rows (markRowsChanged) marks only their blocks for rebuilding, in every level built.
//
// A render reads level k, the coarsest whose block (2^k cells) is no larger than the span of
// any pixel, and pools the blocks that hold each pixel's cells. So every cell reaches the
// pixel that covers it (a block straddling a pixel boundary shows in both pixels), and a pixel
// shows "masked" only when every cell of its blocks is masked. A replot costs about the
// screen's pixels, whatever the matrix's size.

#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <vector>

#include <QImage>
#include <qcustomplot.h>

#include "core/attention_input.h"
#include "ui/views/color_scales.h"
#include "ui/views/heatmap_image.h"

namespace attnlab {

// Where level 0 is read from: a row-major matrix of doubles or floats, and an optional mask
// of the same shape (false = masked). The memory stays its owner's.
struct CellSource {
    const double* doubles = nullptr;
    const float* floats = nullptr;
    const bool* mask = nullptr;
    int rows = 0;
    int cols = 0;
    ValueRange range{0.0, 1.0};
    CellPooling pooling = CellPooling::Highest;
    bool causal = false;  // cells past the diagonal (column > row) are masked, without a mask

    template <typename T>
    static CellSource of(const attn::MatrixT<T>& values, const attn::BoolMatrix* mask,
                         const ValueRange& range, CellPooling pooling);
    // No cells to read: no shape, or the memory was handed back (HeatmapPyramid::detach).
    [[nodiscard]] bool empty() const
    {
        return rows == 0 || cols == 0 || (doubles == nullptr && floats == nullptr);
    }
    // The ranks of cells [first, first + count) of `row`.
    void ranks(int row, int first, int count, std::uint16_t* out) const;
};

template <typename T>
CellSource CellSource::of(const attn::MatrixT<T>& values, const attn::BoolMatrix* mask,
                          const ValueRange& range, CellPooling pooling)
{
    CellSource s;
    if constexpr (std::is_same_v<T, float>)
        s.floats = values.data();
    else
        s.doubles = values.data();
    const bool useMask =
        mask != nullptr && mask->rows() == values.rows() && mask->cols() == values.cols();
    s.mask = useMask ? mask->data() : nullptr;
    s.rows = static_cast<int>(values.rows());
    s.cols = static_cast<int>(values.cols());
    s.range = range;
    s.pooling = pooling;
    return s;
}

// The cells that each of `pixels` pixels covers when `cells` cells fill them evenly: with more
// cells than pixels, the cells whose centres lie in the pixel (every cell in exactly one
// pixel); with fewer, the cell under the pixel's centre. For pictures drawn off screen
// (exports), as HeatmapPlottable does on screen.
std::vector<CellSpan> spansForPixels(int cells, int pixels);

class HeatmapPyramid {
public:
    // New cells (or a new range or pooling): every level is stale.
    void reset(const CellSource& source);
    // The same cells except rows [first, end) (same shape, range and pooling; `source` may
    // point at moved memory).
    void markRowsChanged(const CellSource& source, int first, int end);
    // The source's memory is going away: nothing is drawn until markRowsChanged or reset
    // gives it again, and the levels stay.
    void detach();
    [[nodiscard]] const CellSource& source() const { return source_; }

    // The level a render with these pixel spans (in cells) reads.
    [[nodiscard]] int levelFor(const std::vector<CellSpan>& rows,
                               const std::vector<CellSpan>& columns) const;
    // Level k >= 1, brought up to date.
    const CellRanks& level(int k);
    // True when level k >= 1 holds ranks (up to date or not): for tests.
    [[nodiscard]] bool built(int k) const;
    // Cells (level 0) or blocks (finer level) read by builds since reset(): for tests.
    [[nodiscard]] long long cellsRead() const { return cellsRead_; }

    // Pixel (x, y) shows the cells rows[y] x columns[x] (clamped to the matrix), pooled as
    // above. `out` becomes columns.size() x rows.size(), Format_RGB32, its memory reused.
    void render(const std::vector<CellSpan>& rows, const std::vector<CellSpan>& columns,
                const ColorLut& lut, QImage& out);

private:
    struct Level {
        CellRanks ranks;
        bool built = false;
        int dirtyFirst = 0;  // level-0 rows still to rebuild: [dirtyFirst, dirtyEnd)
        int dirtyEnd = 0;
    };
    void ensure(int k);
    void buildFromSource(int k, int first, int end);
    void buildFromLevel(int k, int j, int first, int end);

    CellSource source_;
    std::vector<Level> levels_;  // levels_[k - 1] is level k
    long long cellsRead_ = 0;
};

}  // namespace attnlab
