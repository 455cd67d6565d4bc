// SPDX-License-Identifier: GPL-3.0-or-later
// Exports of long maps: the cells as one pooled picture, the axes and labels as vectors.
#include <gtest/gtest.h>

#include <QBuffer>
#include <QImage>

#include "support/export_test_support.h"
#include "ui/export/figure.h"
#include "ui/export/figure_renderer.h"
#include "ui/views/heatmap_pyramid.h"

namespace attnlab {
namespace {

constexpr int kLong = 4096;
constexpr int kOneHotRow = 1234;
constexpr int kOneHotColumn = 777;

// A causal 4096 map: each row spreads its weight over its prefix, except one one-hot row.
Figure longCausalFigure()
{
    HeatmapContent c;
    c.values = attn::Matrix::Zero(kLong, kLong);
    c.mask = attn::BoolMatrix::Constant(kLong, kLong, false);
    for (int i = 0; i < kLong; ++i) {
        c.values.row(i).head(i + 1).setConstant(1.0 / (i + 1));
        c.mask->row(i).head(i + 1).setConstant(true);
        c.rowLabels << QStringLiteral("q%1").arg(i);
        c.columnLabels << QStringLiteral("k%1").arg(i);
    }
    c.values.row(kOneHotRow).setZero();
    c.values(kOneHotRow, kOneHotColumn) = 1.0;
    c.fullyMaskedRows.assign(kLong, false);
    c.title = QStringLiteral("Attention weights P (4096 × 4096)");
    c.rowAxisTitle = QStringLiteral("query");
    c.columnAxisTitle = QStringLiteral("key");
    Figure f;
    f.title = QStringLiteral("A long causal map");
    f.caption = QStringLiteral("caption");
    f.panels.push_back(std::move(c));
    return f;
}

TEST(LongMapExport, SvgOf4096MapIsSmallEmbedsOneImageAndKeepsLabelsAsText)
{
    const Figure f = longCausalFigure();
    const QByteArray svg = encodeFigure(f, FigureFormat::Svg, QSize(900, 900), 1);
    // The cells alone as rectangles would be millions of elements (tens of megabytes).
    EXPECT_LT(svg.size(), 1024 * 1024) << svg.size() << " bytes";
    const testing::SvgSummary s = testing::readSvg(svg);
    ASSERT_TRUE(s.wellFormed);
    EXPECT_EQ(s.images, 1);
    EXPECT_LT(s.rects + s.paths, 500) << "no rectangle per cell";
    EXPECT_TRUE(s.texts.contains(QStringLiteral("q0")));
    EXPECT_TRUE(s.texts.contains(QStringLiteral("k0")));
    EXPECT_TRUE(s.texts.contains(QStringLiteral("query")));
    EXPECT_TRUE(s.texts.contains(QStringLiteral("key")));
}

TEST(LongMapExport, PngOf4096MapShowsTheOneHotRowAndTheMaskedTriangle)
{
    const Figure f = longCausalFigure();
    const QImage image = renderFigureImage(f, QSize(900, 900), 1);
    const QRgb peak = colorLutFor(ColorScale::Weights).color(1.0, ValueRange(0.0, 1.0));
    const QRgb masked = maskedCellColor().rgb();
    int peaks = 0, greys = 0;
    for (int y = 0; y < image.height(); ++y) {
        for (int x = 0; x < image.width(); ++x) {
            const QRgb px = image.pixel(x, y) | 0xff000000u;
            peaks += px == peak;
            greys += px == masked;
        }
    }
    EXPECT_GE(peaks, 1) << "the one-hot cell was lost";
    EXPECT_GT(greys, 100000) << "the masked upper triangle";
    QByteArray png = encodeFigure(f, FigureFormat::Png, QSize(900, 900), 1);
    EXPECT_LT(png.size(), 1024 * 1024);
}

TEST(LongMapExport, PdfOf4096MapIsSmall)
{
    const QByteArray pdf = encodeFigure(longCausalFigure(), FigureFormat::Pdf, QSize(900, 900), 1);
    EXPECT_TRUE(pdf.startsWith("%PDF"));
    EXPECT_LT(pdf.size(), 2 * 1024 * 1024) << pdf.size() << " bytes";
}

TEST(LongMapExport, MapOf256By256CellsKeepsVectorCells)
{
    Figure f;
    HeatmapContent c;
    c.values = attn::Matrix::Constant(256, 256, 0.25);
    for (int j = 0; j < 256; ++j) c.values(j, j) = 0.9;
    for (int i = 0; i < 256; ++i) c.rowLabels << QStringLiteral("t%1").arg(i);
    c.columnLabels = c.rowLabels;
    f.panels.push_back(std::move(c));
    const testing::SvgSummary s =
        testing::readSvg(encodeFigure(f, FigureFormat::Svg, QSize(900, 900), 1));
    ASSERT_TRUE(s.wellFormed);
    EXPECT_EQ(s.images, 0);
    EXPECT_GE(s.rects + s.paths, 256) << "a rectangle per run of equal cells";
}

}  // namespace
}  // namespace attnlab
