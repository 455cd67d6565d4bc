#include "ui/views/heatmap_image.h"

#include <cmath>

namespace attnlab {

void fillHeatmapImage(const attn::Matrix& m, const attn::BoolMatrix* mask, const QCPRange& range,
                      const ColorLut& lut, QImage& image)
{
    const int rows = static_cast<int>(m.rows());
    const int cols = static_cast<int>(m.cols());
    if (rows == 0 || cols == 0) {
        image = QImage();
        return;
    }
    if (image.width() != cols || image.height() != rows || image.format() != QImage::Format_RGB32)
        image = QImage(cols, rows, QImage::Format_RGB32);
    const bool useMask = mask != nullptr && mask->rows() == m.rows() && mask->cols() == m.cols();
    // One pass in storage order (both the matrix and the image are row-major); the index
    // rule is ColorLut::color's, inlined so that the loop makes no call per cell.
    const auto& table = lut.table();
    constexpr int top = ColorLut::kLevels - 1;
    const double size = range.upper - range.lower;
    const double lower = range.lower;
    const double factor = size > 0.0 && std::isfinite(size) ? top / size : 0.0;
    const QRgb maskedColor = lut.masked();
    uchar* bits = image.bits();  // detaches once, not per row
    const qsizetype stride = image.bytesPerLine();
    for (int i = 0; i < rows; ++i) {
        const double* src = m.data() + static_cast<qsizetype>(i) * cols;
        const bool* keep = useMask ? mask->data() + static_cast<qsizetype>(i) * cols : nullptr;
        auto* dst = reinterpret_cast<QRgb*>(bits + i * stride);
        for (int j = 0; j < cols; ++j) {
            const double v = src[j];
            const double t = (v - lower) * factor;
            const int index = t <= 0.0 ? 0 : t >= top ? top : static_cast<int>(t);
            dst[j] = std::isnan(v) || (keep != nullptr && !keep[j])
                         ? maskedColor
                         : table[static_cast<std::size_t>(index)];
        }
    }
}

bool cellAt(long rows, long cols, double x, double y, int& row, int& column)
{
    const long j = std::lround(x);
    const long i = std::lround(y);
    if (j < 0 || i < 0 || j >= cols || i >= rows || std::abs(x - static_cast<double>(j)) > 0.5 ||
        std::abs(y - static_cast<double>(i)) > 0.5)
        return false;
    row = static_cast<int>(i);
    column = static_cast<int>(j);
    return true;
}

}  // namespace attnlab
