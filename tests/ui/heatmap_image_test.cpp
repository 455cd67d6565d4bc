// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/views/heatmap_image.h"

#include <cmath>
#include <gtest/gtest.h>
#include <limits>
#include <vector>

#include <QSet>

namespace attnlab {
namespace {

const ValueRange kUnit(0.0, 1.0);

// One pixel per cell, as HeatmapPlottable::cellImage() makes it.
void fillHeatmapImage(const attn::Matrix& m, const attn::BoolMatrix* mask, const ValueRange& range,
                      const ColorLut& lut, QImage& image)
{
    CellRanks cells;
    fillCellRanks(m, mask, range, CellPooling::Highest, cells);
    ranksToImage(cells, lut, image);
}

TEST(HeatmapImage, NonSquareMatrixPutsColumnsOnXAndRowsOnY)
{
    // 2 x 3: rows are queries, columns are keys; six distinct weights, six distinct colours.
    const attn::Matrix m{{0.0, 0.2, 0.4}, {0.6, 0.8, 1.0}};
    const ColorLut& lut = colorLutFor(ColorScale::Weights);
    QImage image;
    fillHeatmapImage(m, nullptr, kUnit, lut, image);
    ASSERT_EQ(image.width(), 3);
    ASSERT_EQ(image.height(), 2);
    QSet<QRgb> seen;
    for (int i = 0; i < 2; ++i) {
        for (int j = 0; j < 3; ++j) {
            EXPECT_EQ(image.pixel(j, i), lut.color(m(i, j), kUnit)) << i << "," << j;
            seen.insert(image.pixel(j, i));
        }
    }
    EXPECT_EQ(seen.size(), 6);
    int row = -1, col = -1;
    ASSERT_TRUE(cellAt(2, 3, 2.2, 0.9, row, col));
    EXPECT_EQ(row, 1);
    EXPECT_EQ(col, 2);
    EXPECT_FALSE(cellAt(2, 3, 3.6, 0.0, row, col));
    EXPECT_FALSE(cellAt(2, 3, 2.0, 1.7, row, col));
}

TEST(HeatmapImage, MaskedCellIsGreyAndDiffersFromAZeroWeightCell)
{
    attn::Matrix m = attn::Matrix::Constant(2, 3, 0.5);
    m(0, 1) = 0.0;  // a real weight of 0
    attn::BoolMatrix mask = attn::BoolMatrix::Constant(2, 3, true);
    mask(1, 0) = false;
    m(1, 0) = 0.0;  // what core writes for a masked weight
    QImage image;
    fillHeatmapImage(m, &mask, kUnit, colorLutFor(ColorScale::Weights), image);
    EXPECT_EQ(image.pixel(0, 1), maskedCellColor().rgb());
    EXPECT_NE(image.pixel(0, 1), image.pixel(1, 0)) << "masked must not look like weight 0";
    EXPECT_EQ(image.pixel(1, 0), colorLutFor(ColorScale::Weights).color(0.0, kUnit));
    EXPECT_EQ(image.pixel(1, 1), colorLutFor(ColorScale::Weights).color(0.5, kUnit));
}

TEST(HeatmapImage, NaNCellsAndAMaskOfAnotherShape)
{
    attn::Matrix m = attn::Matrix::Constant(2, 2, 0.25);
    m(1, 1) = std::numeric_limits<double>::quiet_NaN();
    const attn::BoolMatrix wrongShape = attn::BoolMatrix::Constant(3, 3, false);
    QImage image;
    fillHeatmapImage(m, &wrongShape, kUnit, colorLutFor(ColorScale::Weights), image);
    EXPECT_EQ(image.pixel(1, 1), maskedCellColor().rgb());
    EXPECT_NE(image.pixel(0, 0), maskedCellColor().rgb()) << "a mismatched mask is ignored";
}

TEST(HeatmapImage, TableGivesTheColoursOfTheColourBarsGradient)
{
    // The colour bar draws QCustomPlot's gradient; the cells use the table: they must agree.
    for (ColorScale s : {ColorScale::Weights, ColorScale::Diverging}) {
        QCPColorGradient g = gradientFor(s);
        const ColorLut& lut = colorLutFor(s);
        const ValueRange range(-2.0, 3.0);
        for (int k = -10; k <= 1010; ++k) {
            const double v = range.lower + range.size() * k / 1000.0;
            EXPECT_EQ(lut.color(v, range), g.color(v, QCPRange(range.lower, range.upper))) << v;
        }
        EXPECT_EQ(lut.color(std::numeric_limits<double>::quiet_NaN(), range),
                  maskedCellColor().rgb());
    }
}

TEST(HeatmapImage, DivergingMapIsWhiteAtZeroAndSymmetricInLightness)
{
    const ColorLut& lut = colorLutFor(ColorScale::Diverging);
    const ValueRange range(-1.0, 1.0);
    const QColor mid(lut.color(0.0, range));
    EXPECT_GT(mid.lightness(), 230);
    EXPECT_NE(lut.color(-0.8, range), lut.color(0.8, range));
    EXPECT_NE(maskedCellColor().rgb(), mid.rgb());
}

TEST(HeatmapImage, SameShapeReusesTheImageAndAnEmptyMatrixClearsIt)
{
    QImage image;
    const attn::Matrix a = attn::Matrix::Constant(4, 5, 0.1);
    fillHeatmapImage(a, nullptr, kUnit, colorLutFor(ColorScale::Weights), image);
    const uchar* before = image.constBits();
    fillHeatmapImage(attn::Matrix::Constant(4, 5, 0.9), nullptr, kUnit,
                     colorLutFor(ColorScale::Weights), image);
    EXPECT_EQ(image.constBits(), before);
    EXPECT_EQ(image.pixel(4, 3), colorLutFor(ColorScale::Weights).color(0.9, kUnit));
    fillHeatmapImage(attn::Matrix(), nullptr, kUnit, colorLutFor(ColorScale::Weights), image);
    EXPECT_TRUE(image.isNull());
}

// Pixel spans along one axis: pixel p covers cells [p * k, p * k + k - 1].
std::vector<CellSpan> blocks(int pixels, int k)
{
    std::vector<CellSpan> spans;
    for (int p = 0; p < pixels; ++p) spans.push_back({p * k, p * k + k - 1});
    return spans;
}

TEST(HeatmapImage, MoreCellsThanPixelsKeepsASinglePeak)
{
    // 12 x 12 cells on 4 x 4 pixels: each pixel covers 3 x 3 cells. One cell holds all the
    // weight; picking one cell per pixel would lose it, pooling shows it in its pixel.
    attn::Matrix m = attn::Matrix::Zero(12, 12);
    m(7, 4) = 1.0;
    CellRanks cells;
    fillCellRanks(m, nullptr, kUnit, CellPooling::Highest, cells);
    const ColorLut& lut = colorLutFor(ColorScale::Weights);
    QImage out;
    renderCells(cells, blocks(4, 3), blocks(4, 3), lut, out);
    ASSERT_EQ(out.size(), QSize(4, 4));
    for (int y = 0; y < 4; ++y)
        for (int x = 0; x < 4; ++x)
            EXPECT_EQ(out.pixel(x, y), lut.color((y == 2 && x == 1) ? 1.0 : 0.0, kUnit))
                << x << "," << y;
}

TEST(HeatmapImage, PoolingPrefersAnyKeptCellToMaskedOnes)
{
    // A causal-like corner: a pixel over masked and kept cells shows the kept weight; a
    // pixel over masked cells only shows the masked colour.
    attn::Matrix m = attn::Matrix::Constant(4, 4, 0.3);
    attn::BoolMatrix mask = attn::BoolMatrix::Constant(4, 4, true);
    for (int i = 0; i < 4; ++i)
        for (int j = i + 1; j < 4; ++j) mask(i, j) = false;
    CellRanks cells;
    fillCellRanks(m, &mask, kUnit, CellPooling::Highest, cells);
    const ColorLut& lut = colorLutFor(ColorScale::Weights);
    QImage out;
    renderCells(cells, blocks(2, 2), blocks(2, 2), lut, out);
    EXPECT_EQ(out.pixel(0, 0), lut.color(0.3, kUnit));    // the diagonal block
    EXPECT_EQ(out.pixel(1, 0), maskedCellColor().rgb());  // cells (0..1, 2..3): all masked
    EXPECT_EQ(out.pixel(0, 1), lut.color(0.3, kUnit));
}

TEST(HeatmapImage, DivergingPoolingShowsTheLargestChangeOfEitherSign)
{
    // A difference map: small positive changes and one large negative one in a block.
    const ValueRange range(-1.0, 1.0);
    attn::Matrix m = attn::Matrix::Constant(2, 2, 0.1);
    m(1, 0) = -0.8;
    CellRanks cells;
    fillCellRanks(m, nullptr, range, CellPooling::FurthestFromMiddle, cells);
    const ColorLut& lut = colorLutFor(ColorScale::Diverging);
    QImage out;
    renderCells(cells, blocks(1, 2), blocks(1, 2), lut, out);
    EXPECT_EQ(out.pixel(0, 0), lut.color(-0.8, range));
    fillCellRanks(m, nullptr, range, CellPooling::Highest, cells);
    renderCells(cells, blocks(1, 2), blocks(1, 2), lut, out);
    EXPECT_EQ(out.pixel(0, 0), lut.color(0.1, range)) << "the other rule, to show they differ";
}

TEST(HeatmapImage, FewerCellsThanPixelsRepeatsEachCell)
{
    // 2 x 3 cells on 4 x 9 pixels: every pixel shows the one cell under it.
    const attn::Matrix m{{0.0, 0.2, 0.4}, {0.6, 0.8, 1.0}};
    CellRanks cells;
    fillCellRanks(m, nullptr, kUnit, CellPooling::Highest, cells);
    std::vector<CellSpan> rows, cols;
    for (int y = 0; y < 4; ++y) rows.push_back({y / 2, y / 2});
    for (int x = 0; x < 9; ++x) cols.push_back({x / 3, x / 3});
    const ColorLut& lut = colorLutFor(ColorScale::Weights);
    QImage out;
    renderCells(cells, rows, cols, lut, out);
    ASSERT_EQ(out.size(), QSize(9, 4));
    for (int y = 0; y < 4; ++y)
        for (int x = 0; x < 9; ++x)
            EXPECT_EQ(out.pixel(x, y), lut.color(m(y / 2, x / 3), kUnit)) << x << "," << y;
}

}  // namespace
}  // namespace attnlab
