// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The cells of a heatmap, cell (i, j) covering x in [j - 0.5, j + 0.5] and y in
// [i - 0.5, i + 0.5]. The matrix is read in place, through a pyramid of pooled levels
// (heatmap_pyramid.h); each replot colours just the pixels of the plot, one picture as large
// as the plot, blitted without scaling. When there are more cells than pixels, a pixel shows
// the most salient of the cells it covers, so a long sequence's peaks are never skipped; when
// there are fewer, each pixel shows the cell under its centre. Not selectable: the view
// handles the mouse.

#include <QImage>
#include <qcustomplot.h>

#include "core/attention_input.h"
#include "ui/views/color_scales.h"
#include "ui/views/heatmap_pyramid.h"

namespace attnlab {

class HeatmapPlottable : public QCPAbstractPlottable {
public:
    HeatmapPlottable(QCPAxis* keyAxis, QCPAxis* valueAxis);

    // New cells, read in place from `source` until the next call (or dropSource).
    void setCells(const CellSource& source, ColorScale scale);
    // The same cells as before except rows [first, end): only their blocks are rebuilt.
    void updateRows(const CellSource& source, int first, int end);
    // The source's memory is about to be reused: nothing is drawn until the next cells.
    void dropSource();
    [[nodiscard]] int rows() const { return rows_; }
    [[nodiscard]] int cols() const { return cols_; }
    [[nodiscard]] HeatmapPyramid& pyramid() { return pyramid_; }
    // The cells as a picture with one pixel per cell, pixel (x = column, y = row).
    [[nodiscard]] QImage cellImage() const;

    double selectTest(const QPointF& pos, bool onlySelectable,
                      QVariant* details = nullptr) const override;
    QCPRange getKeyRange(bool& foundRange,
                         QCP::SignDomain inSignDomain = QCP::sdBoth) const override;
    QCPRange getValueRange(bool& foundRange, QCP::SignDomain inSignDomain = QCP::sdBoth,
                           const QCPRange& inKeyRange = QCPRange()) const override;

protected:
    void draw(QCPPainter* painter) override;
    void drawLegendIcon(QCPPainter* painter, const QRectF& rect) const override;

private:
    // What the last rendered picture shows: the same data, pixels and ranges draw it again.
    struct RenderKey {
        quint64 version = 0;
        QRect pixels;
        QCPRange xRange, yRange;
        bool operator==(const RenderKey& o) const
        {
            return version == o.version && pixels == o.pixels && xRange == o.xRange &&
                   yRange == o.yRange;
        }
    };

    HeatmapPyramid pyramid_;
    int rows_ = 0;
    int cols_ = 0;
    const ColorLut* lut_ = &colorLutFor(ColorScale::Weights);
    quint64 version_ = 0;
    RenderKey renderedKey_;
    QImage rendered_;
};

}  // namespace attnlab
