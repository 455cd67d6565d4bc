#include "ui/views/colormap_data.h"

#include <cmath>
#include <limits>

namespace attnlab {

void fillColorMapData(const attn::Matrix& m, const attn::BoolMatrix* mask, QCPColorMapData& data)
{
    const int rows = static_cast<int>(m.rows());
    const int cols = static_cast<int>(m.cols());
    const int keys = cols == 1 ? 2 : cols;
    const int values = rows == 1 ? 2 : rows;
    data.setSize(keys, values);
    data.setRange(cols == 1 ? QCPRange(-0.25, 0.25) : QCPRange(0, std::max(cols - 1, 0)),
                  rows == 1 ? QCPRange(-0.25, 0.25) : QCPRange(0, std::max(rows - 1, 0)));
    const bool useMask = mask != nullptr && mask->rows() == m.rows() && mask->cols() == m.cols();
    const double nan = std::numeric_limits<double>::quiet_NaN();
    for (int vi = 0; vi < values; ++vi) {
        const int i = std::min(vi, rows - 1);
        for (int kj = 0; kj < keys; ++kj) {
            const int j = std::min(kj, cols - 1);
            const bool masked = useMask && !(*mask)(i, j);
            data.setCell(kj, vi, masked ? nan : m(i, j));
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
