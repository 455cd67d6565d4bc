#include "ui/views/colormap_data.h"

#include <cmath>
#include <gtest/gtest.h>

namespace attnlab {
namespace {

TEST(ColorMapData, NonSquareMatrixPutsColumnsOnKeysAndRowsOnValues)
{
    // 2 x 3: rows are queries, columns are keys.
    const attn::Matrix m{{1.0, 2.0, 3.0}, {4.0, 5.0, 6.0}};
    QCPColorMapData data(1, 1, QCPRange(0, 1), QCPRange(0, 1));
    fillColorMapData(m, nullptr, data);
    EXPECT_EQ(data.keySize(), 3);
    EXPECT_EQ(data.valueSize(), 2);
    for (int i = 0; i < 2; ++i)
        for (int j = 0; j < 3; ++j) EXPECT_EQ(data.cell(j, i), m(i, j)) << i << "," << j;
    int row = -1, col = -1;
    ASSERT_TRUE(cellAt(2, 3, 2.2, 0.9, row, col));
    EXPECT_EQ(row, 1);
    EXPECT_EQ(col, 2);
    EXPECT_FALSE(cellAt(2, 3, 3.6, 0.0, row, col));
    EXPECT_FALSE(cellAt(2, 3, 2.0, 1.7, row, col));
}

TEST(ColorMapData, MaskedCellsBecomeNaN)
{
    const attn::Matrix m = attn::Matrix::Constant(2, 3, 0.5);
    attn::BoolMatrix mask = attn::BoolMatrix::Constant(2, 3, true);
    mask(1, 0) = false;
    QCPColorMapData data(1, 1, QCPRange(0, 1), QCPRange(0, 1));
    fillColorMapData(m, &mask, data);
    EXPECT_TRUE(std::isnan(data.cell(0, 1)));
    EXPECT_EQ(data.cell(1, 1), 0.5);
}

TEST(ColorMapData, SingleRowIsStoredTwiceSoItHasAWidth)
{
    const attn::Matrix m{{0.25, 0.75}};
    QCPColorMapData data(1, 1, QCPRange(0, 1), QCPRange(0, 1));
    fillColorMapData(m, nullptr, data);
    EXPECT_EQ(data.valueSize(), 2);
    EXPECT_EQ(data.valueRange().lower, -0.25);
    EXPECT_EQ(data.valueRange().upper, 0.25);
    EXPECT_EQ(data.cell(1, 0), 0.75);
    EXPECT_EQ(data.cell(1, 1), 0.75);
    int row = -1, col = -1;
    EXPECT_TRUE(cellAt(1, 2, 1.0, 0.3, row, col));
    EXPECT_EQ(row, 0);
    EXPECT_FALSE(cellAt(1, 2, 1.0, 0.7, row, col));
}

}  // namespace
}  // namespace attnlab
