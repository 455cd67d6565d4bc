// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What a heatmap shows: the cells (or a shared float matrix read in place), the mask, the labels
// and titles, the colour scale and range. Built by the documents' content builders and the
// figure builder, drawn by HeatmapView (heatmap_view.h) and the figure renderer; plain data
// with no plotting widget behind it, so that the command line can build figures too.

#include <memory>
#include <optional>
#include <vector>

#include <QString>
#include <QStringList>

#include "core/attention_input.h"
#include "ui/views/color_scale.h"
#include "ui/views/value_range.h"

namespace attnlab {

struct CellSource;

// Rows [first, end) of a map.
struct RowRange {
    int first = 0;
    int end = 0;
};

struct HeatmapContent {
    attn::Matrix values;
    // Float cells read in place instead of `values` (a long session's weights, shared with the
    // document that computed them: no double copy of 4 GiB).
    std::shared_ptr<const attn::MatrixT<float>> floats;
    std::optional<attn::BoolMatrix> mask;  // false cells drawn as masked
    bool causal = false;                   // cells past the diagonal drawn as masked, no mask
    std::vector<bool> fullyMaskedRows;
    QStringList rowLabels;
    QStringList columnLabels;
    QString title;
    QString rowAxisTitle;
    QString columnAxisTitle;
    ColorScale scale = ColorScale::Weights;
    std::optional<ValueRange> range;  // fixed colour range; default per scale
    // Set by a builder that knows: this content equals the one the view shows except in these
    // rows (values only; same mask, shape, scale and range), so only their blocks are redrawn.
    std::optional<RowRange> changedRows;

    [[nodiscard]] long rows() const { return floats ? floats->rows() : values.rows(); }
    [[nodiscard]] long cols() const { return floats ? floats->cols() : values.cols(); }
    [[nodiscard]] double at(long i, long j) const
    {
        return floats ? static_cast<double>((*floats)(i, j)) : values(i, j);
    }
    [[nodiscard]] bool isMasked(long i, long j) const
    {
        return (causal && j > i) || (mask && !(*mask)(i, j));
    }
    // Where the pyramid reads the cells, on `range` (pooled by the scale's rule).
    [[nodiscard]] CellSource cellSource(const ValueRange& drawn) const;
};

// The colour range a content is drawn on: its fixed range, [0, 1] for weights, symmetric
// around 0 for diverging maps, else the data's own range.
ValueRange colorRangeFor(const HeatmapContent& content);

}  // namespace attnlab
