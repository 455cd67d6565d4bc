// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/views/heatmap_pyramid.h"

#include <algorithm>
#include <gtest/gtest.h>
#include <random>
#include <vector>

namespace attnlab {
namespace {

const ValueRange kUnitRange(0.0, 1.0);

// The naive reference: every cell's rank on its own (fillCellRanks), then for each pixel the
// largest rank over the cells of the level-k blocks that hold its cells, k being the largest
// with 2^k no wider than any pixel's span.
QImage bruteForce(const attn::Matrix& m, const attn::BoolMatrix* mask, const ValueRange& range,
                  CellPooling pooling, const ColorLut& lut, const std::vector<CellSpan>& rows,
                  const std::vector<CellSpan>& cols)
{
    CellRanks cells;
    fillCellRanks(m, mask, range, pooling, cells);
    int narrowest = 1 << 30;
    for (const auto* spans : {&rows, &cols})
        for (const CellSpan& s : *spans) narrowest = std::min(narrowest, s.last - s.first + 1);
    int k = 0;
    while ((2 << k) <= narrowest) ++k;
    const auto palette = rankPalette(lut, pooling);
    QImage out(static_cast<int>(cols.size()), static_cast<int>(rows.size()), QImage::Format_RGB32);
    for (int y = 0; y < out.height(); ++y) {
        const int i0 = (rows[y].first >> k) << k;
        const int i1 = std::min(cells.rows - 1, (((rows[y].last >> k) + 1) << k) - 1);
        for (int x = 0; x < out.width(); ++x) {
            const int j0 = (cols[x].first >> k) << k;
            const int j1 = std::min(cells.cols - 1, (((cols[x].last >> k) + 1) << k) - 1);
            std::uint16_t best = 0;
            for (int i = i0; i <= i1; ++i)
                for (int j = j0; j <= j1; ++j) best = std::max(best, cells.at(i, j));
            out.setPixel(x, y, palette[best]);
        }
    }
    return out;
}

attn::Matrix randomMatrix(int rows, int cols, double lo, double hi, unsigned seed)
{
    std::mt19937 gen(seed);
    std::uniform_real_distribution<double> u(lo, hi);
    attn::Matrix m(rows, cols);
    for (int i = 0; i < rows; ++i)
        for (int j = 0; j < cols; ++j) m(i, j) = u(gen);
    return m;
}

// Spans of a zoomed view: `pixels` pixels over cells [first, first + shown).
std::vector<CellSpan> window(int first, int shown, int pixels)
{
    std::vector<CellSpan> spans = spansForPixels(shown, pixels);
    for (CellSpan& s : spans) s.first += first, s.last += first;
    return spans;
}

bool sameImage(const QImage& a, const QImage& b)
{
    if (a.size() != b.size()) return false;
    for (int y = 0; y < a.height(); ++y)
        for (int x = 0; x < a.width(); ++x)
            if (a.pixel(x, y) != b.pixel(x, y)) return false;
    return true;
}

TEST(HeatmapPyramid, RenderAtEveryZoomEqualsTheBruteForceMaxOverEachPixelsBlocks)
{
    // Not square, not a power of two, a random mask: partial blocks at both ends.
    const attn::Matrix m = randomMatrix(93, 141, 0.0, 1.0, 3);
    attn::BoolMatrix mask(93, 141);
    std::mt19937 gen(5);
    for (int i = 0; i < 93; ++i)
        for (int j = 0; j < 141; ++j) mask(i, j) = gen() % 3 != 0;
    const ColorLut& lut = colorLutFor(ColorScale::Weights);
    HeatmapPyramid pyramid;
    pyramid.reset(CellSource::of(m, &mask, kUnitRange, CellPooling::Highest));
    QImage image;
    for (int px : {3, 7, 11, 20, 31, 46, 70, 93, 141, 300}) {
        const auto rows = spansForPixels(93, std::max(2, px * 93 / 141));
        const auto cols = spansForPixels(141, px);
        pyramid.render(rows, cols, lut, image);
        const QImage want = bruteForce(m, &mask, kUnitRange, CellPooling::Highest, lut, rows, cols);
        EXPECT_TRUE(sameImage(image, want)) << px << " pixels wide";
    }
    // Panned and zoomed windows, some pixels covering 2 or 3 cells.
    for (const auto& [first, shown, px] :
         std::vector<std::array<int, 3>>{{10, 60, 25}, {40, 101, 33}, {0, 50, 50}, {77, 16, 64}}) {
        const auto rows = window(std::min(first, 60), std::min(shown, 93 - 60), px / 2 + 1);
        const auto cols = window(first, std::min(shown, 141 - first), px);
        pyramid.render(rows, cols, lut, image);
        EXPECT_TRUE(sameImage(
            image, bruteForce(m, &mask, kUnitRange, CellPooling::Highest, lut, rows, cols)))
            << first << "+" << shown;
    }
}

TEST(HeatmapPyramid, OneHotRowStaysVisibleAtEveryZoomAndPan)
{
    const int n = 1000;
    attn::Matrix m = attn::Matrix::Zero(n, n);
    m(377, 601) = 1.0;  // a one-hot row among all-zero rows
    const ColorLut& lut = colorLutFor(ColorScale::Weights);
    const QRgb peak = lut.color(1.0, kUnitRange);
    HeatmapPyramid pyramid;
    pyramid.reset(CellSource::of(m, nullptr, kUnitRange, CellPooling::Highest));
    QImage image;
    for (int px : {1, 2, 3, 10, 64, 100, 333, 511, 512, 999, 1000, 2000}) {
        const auto spans = spansForPixels(n, px);
        pyramid.render(spans, spans, lut, image);
        int seen = 0;
        for (int y = 0; y < image.height(); ++y)
            for (int x = 0; x < image.width(); ++x) seen += image.pixel(x, y) == peak;
        EXPECT_GE(seen, 1) << px << " pixels: the peak was lost";
        // The pixel that covers the cell shows it.
        int py = -1, pxl = -1;
        for (int p = 0; p < px; ++p) {
            if (spans[p].first <= 377 && 377 <= spans[p].last && py < 0) py = p;
            if (spans[p].first <= 601 && 601 <= spans[p].last && pxl < 0) pxl = p;
        }
        ASSERT_GE(py, 0);
        EXPECT_EQ(image.pixel(pxl, py), peak) << px << " pixels";
    }
    // A zoomed window whose first pixel starts mid-block.
    const auto rows = window(301, 333, 100);
    const auto cols = window(555, 333, 100);
    pyramid.render(rows, cols, lut, image);
    int seen = 0;
    for (int y = 0; y < image.height(); ++y)
        for (int x = 0; x < image.width(); ++x) seen += image.pixel(x, y) == peak;
    EXPECT_GE(seen, 1);
}

TEST(HeatmapPyramid, PixelShowsMaskedOnlyWhenEveryCellOfItsBlocksIsMasked)
{
    // Causal 64 x 64 drawn on 8 x 8 pixels (blocks of 8), plus one allowed cell above the
    // diagonal.
    const int n = 64;
    attn::Matrix m = attn::Matrix::Constant(n, n, 0.25);
    attn::BoolMatrix mask(n, n);
    for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j) mask(i, j) = j <= i;
    mask(3, 45) = true;
    const ColorLut& lut = colorLutFor(ColorScale::Weights);
    HeatmapPyramid pyramid;
    pyramid.reset(CellSource::of(m, &mask, kUnitRange, CellPooling::Highest));
    QImage image;
    const auto spans = spansForPixels(n, 8);
    pyramid.render(spans, spans, lut, image);
    for (int y = 0; y < 8; ++y) {
        for (int x = 0; x < 8; ++x) {
            const bool allMasked = x > y && !(y == 0 && x == 5);
            EXPECT_EQ(image.pixel(x, y) == lut.masked(), allMasked) << x << "," << y;
        }
    }
}

TEST(HeatmapPyramid, DivergingMapShowsTheLargestChangeOfEitherSign)
{
    const ValueRange range(-1.0, 1.0);
    attn::Matrix m = attn::Matrix::Zero(4, 4);
    m(0, 0) = 0.3, m(1, 1) = -0.9;  // block (0, 0): the negative change is larger
    m(0, 2) = -0.2, m(1, 3) = 0.8;  // block (0, 1): the positive one
    m(2, 0) = 0.05;                 // block (1, 0): small against zeros
    const ColorLut& lut = colorLutFor(ColorScale::Diverging);
    HeatmapPyramid pyramid;
    pyramid.reset(CellSource::of(m, nullptr, range, CellPooling::FurthestFromMiddle));
    QImage image;
    const auto spans = spansForPixels(4, 2);
    pyramid.render(spans, spans, lut, image);
    EXPECT_EQ(image.pixel(0, 0), lut.color(-0.9, range));
    EXPECT_EQ(image.pixel(1, 0), lut.color(0.8, range));
    EXPECT_EQ(image.pixel(0, 1), lut.color(0.05, range));
    EXPECT_EQ(image.pixel(1, 1), lut.color(0.0, range));
    EXPECT_TRUE(sameImage(
        image, bruteForce(m, nullptr, range, CellPooling::FurthestFromMiddle, lut, spans, spans)));
    // Random changes of both signs under a random mask, at several zooms.
    const attn::Matrix d = randomMatrix(77, 120, -1.0, 1.0, 21);
    attn::BoolMatrix mask(77, 120);
    std::mt19937 gen(8);
    for (int i = 0; i < 77; ++i)
        for (int j = 0; j < 120; ++j) mask(i, j) = gen() % 4 != 0;
    mask.block(0, 0, 16, 16).setConstant(false);
    pyramid.reset(CellSource::of(d, &mask, range, CellPooling::FurthestFromMiddle));
    for (int px : {5, 13, 30, 60, 120}) {
        const auto rows = spansForPixels(77, std::max(2, px * 77 / 120));
        const auto cols = spansForPixels(120, px);
        pyramid.render(rows, cols, lut, image);
        EXPECT_TRUE(sameImage(
            image, bruteForce(d, &mask, range, CellPooling::FurthestFromMiddle, lut, rows, cols)))
            << px;
    }
}

TEST(HeatmapPyramid, RowUpdateEqualsAFullRebuildBitForBitAndReadsOnlyItsBlockRows)
{
    attn::Matrix m = randomMatrix(300, 260, 0.0, 1.0, 11);
    attn::BoolMatrix mask = attn::BoolMatrix::Constant(300, 260, true);
    mask.block(100, 0, 40, 130).setConstant(false);
    const ColorLut& lut = colorLutFor(ColorScale::Weights);
    HeatmapPyramid kept;
    kept.reset(CellSource::of(m, &mask, kUnitRange, CellPooling::Highest));
    QImage image;
    const std::vector<int> zooms{260, 130, 65, 32, 16, 8, 4, 2, 1};
    for (int px : zooms) kept.render(spansForPixels(300, px), spansForPixels(260, px), lut, image);
    for (int k = 1; k <= 8; ++k) EXPECT_TRUE(kept.built(k)) << k;
    // A query edit (one row), then a key edit under a causal-like range of rows.
    const std::vector<std::pair<int, int>> edits{{77, 78}, {150, 300}, {0, 1}, {299, 300}};
    for (const auto& [first, end] : edits) {
        m.middleRows(first, end - first) = randomMatrix(end - first, 260, 0.0, 1.0, first + 1);
        const long long before = kept.cellsRead();
        kept.markRowsChanged(CellSource::of(m, &mask, kUnitRange, CellPooling::Highest), first,
                             end);
        HeatmapPyramid fresh;
        fresh.reset(CellSource::of(m, &mask, kUnitRange, CellPooling::Highest));
        for (int px : zooms) {
            const auto rows = spansForPixels(300, px);
            const auto cols = spansForPixels(260, px);
            QImage a, b;
            kept.render(rows, cols, lut, a);
            fresh.render(rows, cols, lut, b);
            EXPECT_TRUE(sameImage(a, b)) << first << "-" << end << " at " << px;
        }
        for (int k = 1; k <= 8; ++k)
            EXPECT_EQ(kept.level(k).ranks, fresh.level(k).ranks) << "level " << k;
        if (end - first == 1) {
            // One row: the finest level built reads at most its two-row block row of the
            // matrix, the coarser ones only their own block rows of the level below.
            EXPECT_LE(kept.cellsRead() - before, 2 * 260 + 8 * 130);
        }
    }
}

TEST(HeatmapPyramid, ZoomedOutRenderBuildsNoFinerLevel)
{
    const attn::Matrix m = randomMatrix(1024, 1024, 0.0, 1.0, 2);
    HeatmapPyramid pyramid;
    pyramid.reset(CellSource::of(m, nullptr, kUnitRange, CellPooling::Highest));
    QImage image;
    const auto spans = spansForPixels(1024, 200);  // 5 or 6 cells per pixel: level 2
    pyramid.render(spans, spans, colorLutFor(ColorScale::Weights), image);
    EXPECT_EQ(pyramid.levelFor(spans, spans), 2);
    EXPECT_FALSE(pyramid.built(1));
    EXPECT_TRUE(pyramid.built(2));
    EXPECT_FALSE(pyramid.built(3));
    EXPECT_EQ(pyramid.cellsRead(), 1024LL * 1024LL) << "one pass over the matrix";
    // Zooming out further builds the coarser level from level 2, not from the matrix.
    const auto coarse = spansForPixels(1024, 60);
    pyramid.render(coarse, coarse, colorLutFor(ColorScale::Weights), image);
    EXPECT_TRUE(pyramid.built(4));
    EXPECT_EQ(pyramid.cellsRead(), 1024LL * 1024LL + 256LL * 256LL);
}

TEST(HeatmapPyramid, FloatMatrixDrawsLikeTheSameValuesInDouble)
{
    const attn::Matrix m = randomMatrix(50, 70, 0.0, 1.0, 9);
    const attn::MatrixT<float> f = m.cast<float>();
    const attn::Matrix back = f.cast<double>();
    const ColorLut& lut = colorLutFor(ColorScale::Weights);
    HeatmapPyramid a, b;
    a.reset(CellSource::of(f, nullptr, kUnitRange, CellPooling::Highest));
    b.reset(CellSource::of(back, nullptr, kUnitRange, CellPooling::Highest));
    for (int px : {7, 25, 70, 140}) {
        QImage ia, ib;
        a.render(spansForPixels(50, px), spansForPixels(70, px), lut, ia);
        b.render(spansForPixels(50, px), spansForPixels(70, px), lut, ib);
        EXPECT_TRUE(sameImage(ia, ib)) << px;
    }
}

TEST(HeatmapPyramid, ACausalSourceDrawsLikeTheSameCellsWithACausalMaskAtEveryZoom)
{
    // The Long map's causal map has no mask matrix: the source says "causal" instead. The
    // values past the diagonal are not zero here, so that reading them would show.
    const int n = 90;
    const attn::MatrixT<float> f = randomMatrix(n, n, 0.0, 1.0, 4).cast<float>();
    const attn::Matrix m = f.cast<double>();
    attn::BoolMatrix mask(n, n);
    for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j) mask(i, j) = j <= i;
    const ColorLut& lut = colorLutFor(ColorScale::Weights);
    HeatmapPyramid causal, masked;
    CellSource src = CellSource::of(f, nullptr, kUnitRange, CellPooling::Highest);
    src.causal = true;
    causal.reset(src);
    masked.reset(CellSource::of(m, &mask, kUnitRange, CellPooling::Highest));
    for (int px : {3, 11, 45, 90, 180}) {
        QImage a, b;
        causal.render(spansForPixels(n, px), spansForPixels(n, px), lut, a);
        masked.render(spansForPixels(n, px), spansForPixels(n, px), lut, b);
        EXPECT_TRUE(sameImage(a, b)) << px << " pixels";
        EXPECT_EQ(a.pixel(px - 1, 0), lut.masked()) << px << " pixels";
    }
}

TEST(HeatmapPyramid, SpansForPixelsPutEveryCellInExactlyOnePixel)
{
    for (const auto& [cells, pixels] :
         std::vector<std::pair<int, int>>{{4096, 700}, {1000, 999}, {7, 3}, {100, 100}}) {
        const auto spans = spansForPixels(cells, pixels);
        ASSERT_EQ(static_cast<int>(spans.size()), pixels);
        EXPECT_EQ(spans.front().first, 0);
        EXPECT_EQ(spans.back().last, cells - 1);
        for (int p = 1; p < pixels; ++p)
            EXPECT_EQ(spans[p].first, spans[p - 1].last + 1) << cells << "/" << pixels;
    }
    const auto magnified = spansForPixels(3, 9);  // three pixels per cell
    for (int p = 0; p < 9; ++p) EXPECT_EQ(magnified[p].first, p / 3);
}

}  // namespace
}  // namespace attnlab
