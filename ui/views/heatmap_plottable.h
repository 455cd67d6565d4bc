#pragma once
// The cells of a heatmap: a picture with one pixel per cell (see heatmap_image.h),
// stretched without smoothing so that cell (i, j) covers x in [j - 0.5, j + 0.5] and
// y in [i - 0.5, i + 0.5]. Only the visible cells are drawn, so zooming into a long
// sequence costs no more than showing all of it. Not selectable: the view handles the
// mouse itself.

#include <QImage>
#include <qcustomplot.h>

#include "core/attention_input.h"
#include "ui/views/color_scales.h"

namespace attnlab {

class HeatmapPlottable : public QCPAbstractPlottable {
public:
    HeatmapPlottable(QCPAxis* keyAxis, QCPAxis* valueAxis);

    // Recolours the picture from the matrix (reusing its memory when the shape is unchanged).
    void setMatrix(const attn::Matrix& matrix, const attn::BoolMatrix* mask, const QCPRange& range,
                   const ColorLut& lut);
    // What is drawn: pixel (x = column, y = row).
    [[nodiscard]] const QImage& image() const { return image_; }

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
    QImage image_;
};

}  // namespace attnlab
