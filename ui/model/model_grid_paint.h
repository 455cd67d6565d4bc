// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The model view's picture (bertviz's "model view"): a thumbnail of every head's attention,
// layer by layer (rows) and head by head (columns), followed by two labelled columns of
// aggregates: the mean of the layer's heads and the attention rollout through the layer.
// The same painting serves the window (thumbnails as images) and export (cells as rectangles
// in SVG and PDF while they are few enough to stay a reasonable file).

#include <vector>

#include <QImage>
#include <QRectF>

#include "core/model/forward.h"

class QPainter;

namespace attnlab {

struct ModelSnapshot;

// Column `heads` is the layer mean, `heads + 1` the rollout.
struct ModelGridCell {
    int layer = -1;
    int column = -1;
};

struct ModelGridGeometry {
    QRectF cells;  // the thumbnails' area, below and right of the headers
    double side = 0.0;
    double gap = 0.0;
    double aggregateGap = 0.0;  // extra space before the mean column
    double groupGap = 0.0;      // extra space between groups of heads sharing keys and values
    int layers = 0;
    int columns = 0;           // heads + 2
    int group = 1;             // query heads per key/value head
    double groupHeader = 0.0;  // height of the "KV 1" line above the head titles (0: none)
    [[nodiscard]] QRectF cellRect(int layer, int column) const;
    [[nodiscard]] ModelGridCell cellAt(const QPointF& point) const;
    // The selected thumbnail's frame: its pen's width, and the rectangle it covers, which
    // reaches that far outside the thumbnail.
    [[nodiscard]] double ringWidth() const;
    [[nodiscard]] QRectF ringRect(int layer, int column) const;
    // Where a column's title is drawn in `area` (the area the geometry was made for): above the
    // thumbnails and the selected one's frame, so that the frame never covers it.
    [[nodiscard]] QRectF columnTitleRect(int column, const QRectF& area) const;
};

// Square thumbnails as large as fit in `area` with headers of text size `basePx`. With `group`
// > 1 (grouped-query attention) every `group` consecutive heads stand together under a bracket
// naming the key/value head they share.
ModelGridGeometry modelGridGeometry(const QRectF& area, int layers, int heads, double basePx,
                                    int group = 1);

// The window's thumbnails: a longer text is pooled to this many pixels a side.
constexpr int kModelThumbnailPixels = 128;

// A weight matrix on [0, 1] as a picture, at most `maxPixels` on a side (a pixel of a longer
// matrix shows its strongest cell).
QImage weightsThumbnail(const attn::model::FloatMatrix& weights, int maxPixels);

// One picture per thumbnail, layer by layer (heads, mean, rollout), at most `maxPixels` on a
// side (long texts are pooled: a pixel shows its strongest cell).
std::vector<QImage> modelGridImages(const ModelSnapshot& snapshot, int maxPixels);

struct ModelGridStyle {
    double basePx = 12.0;
    ModelGridCell selected;    // framed; layer -1 for none
    bool vectorCells = false;  // cells as rectangles (export), else the images
    bool markSinks = true;     // a ring on heads that are attention sinks
};

// A head is marked as an attention sink from this share of its weight on the first token
// (LayerTrace::firstShare), as ModelDocument::kSinkShare finds them.
inline constexpr float kSinkMark = 0.5f;

void paintModelGrid(QPainter& painter, const QRectF& area, const ModelSnapshot& snapshot,
                    const std::vector<QImage>& images, const ModelGridStyle& style);

}  // namespace attnlab
