// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/views/heatmap_view.h"

#include <gtest/gtest.h>

#include <QSignalSpy>
#include <QTest>

#include "ui/views/axis_label_cache.h"

namespace attnlab {
namespace {

// A rows x cols weight map whose cells all differ: (i * cols + j) / (rows * cols - 1).
HeatmapContent rampContent(int rows, int cols)
{
    HeatmapContent c;
    c.values.resize(rows, cols);
    for (int i = 0; i < rows; ++i)
        for (int j = 0; j < cols; ++j)
            c.values(i, j) = (i * cols + j) / std::max(1.0, rows * cols - 1.0);
    for (int i = 0; i < rows; ++i) c.rowLabels << QStringLiteral("q%1").arg(i);
    for (int j = 0; j < cols; ++j) c.columnLabels << QStringLiteral("k%1").arg(j);
    return c;
}

// The colour on screen at the centre of cell (row, column).
QRgb shownAt(HeatmapView& view, const QImage& shot, int row, int column)
{
    const int x = static_cast<int>(view.xAxis->coordToPixel(column));
    const int y = static_cast<int>(view.yAxis->coordToPixel(row));
    return shot.pixel(x, y);
}

QImage shoot(HeatmapView& view)
{
    view.replot();
    return view.grab().toImage().convertToFormat(QImage::Format_RGB32);
}

void showView(HeatmapView& view)
{
    view.setValueTextLimit(0);  // no numbers over the cell centres
    view.resize(520, 420);
    view.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&view));
}

TEST(HeatmapView, NonSquareMatrixIsDrawnWithEveryCellInItsPlace)
{
    HeatmapView view;
    showView(view);
    HeatmapContent c = rampContent(3, 5);
    c.mask = attn::BoolMatrix::Constant(3, 5, true);
    (*c.mask)(2, 1) = false;
    c.values(2, 1) = 0.0;
    view.setContent(c);
    const QImage shot = shoot(view);
    const ColorLut& lut = colorLutFor(ColorScale::Weights);
    for (int i = 0; i < 3; ++i) {
        for (int j = 0; j < 5; ++j) {
            const QRgb want = (i == 2 && j == 1) ? maskedCellColor().rgb()
                                                 : lut.color(c.values(i, j), ValueRange(0, 1));
            EXPECT_EQ(shownAt(view, shot, i, j), want) << i << "," << j;
            EXPECT_EQ(view.drawnImage().pixel(j, i), want) << i << "," << j;
        }
    }
    // Row 0 is at the top, column 0 at the left.
    EXPECT_LT(view.yAxis->coordToPixel(0), view.yAxis->coordToPixel(2));
    EXPECT_LT(view.xAxis->coordToPixel(0), view.xAxis->coordToPixel(4));
}

TEST(HeatmapView, ALongTitleWrapsBetweenItsPartsInsteadOfBeingCut)
{
    HeatmapView view;
    showView(view);
    HeatmapContent c = rampContent(12, 12);
    c.title = QStringLiteral(
        "Attention weights P — head 1, causal self-attention (12 × 12) · "
        "colours: each row divided by its largest weight");
    view.setContent(c);
    view.replot();
    const QStringList lines = view.shownTitle().split(QLatin1Char('\n'));
    ASSERT_GE(lines.size(), 2);
    EXPECT_EQ(lines.join(QLatin1Char(' ')), c.title);  // nothing lost
    QFont bold = view.font();
    bold.setPointSize(bold.pointSize() + 1);
    bold.setBold(true);
    const QFontMetrics fm(bold);
    for (const QString& line : lines)
        EXPECT_LE(fm.horizontalAdvance(line), view.axisRect()->outerRect().width())
            << line.toStdString();
    for (int i = 0; i + 1 < lines.size(); ++i)  // broken between its parts
        EXPECT_TRUE(lines[i].endsWith(QStringLiteral("—")) ||
                    lines[i].endsWith(QStringLiteral("·")))
            << lines[i].toStdString();
    EXPECT_TRUE(view.shownTitle().contains(QStringLiteral("(12 × 12)")));
    // Wide enough: one line again.
    view.resize(1800, 420);
    view.replot();
    EXPECT_EQ(view.shownTitle(), c.title);
}

TEST(HeatmapView, SingleRowHasAHeightOnScreen)
{
    HeatmapView view;
    showView(view);
    view.setContent(rampContent(1, 4));
    const QImage shot = shoot(view);
    const ColorLut& lut = colorLutFor(ColorScale::Weights);
    for (int j = 0; j < 4; ++j) {
        const double v = j / 3.0;
        EXPECT_EQ(shownAt(view, shot, 0, j), lut.color(v, ValueRange(0, 1))) << j;
        // Near the cell's top and bottom edges too.
        const int x = static_cast<int>(view.xAxis->coordToPixel(j));
        EXPECT_EQ(shot.pixel(x, static_cast<int>(view.yAxis->coordToPixel(-0.4))),
                  lut.color(v, ValueRange(0, 1)));
        EXPECT_EQ(shot.pixel(x, static_cast<int>(view.yAxis->coordToPixel(0.4))),
                  lut.color(v, ValueRange(0, 1)));
    }
}

TEST(HeatmapView, ZoomedInShowsTheRightCells)
{
    HeatmapView view;
    showView(view);
    const HeatmapContent c = rampContent(300, 200);
    view.setContent(c);
    view.xAxis->setRange(117.3, 123.9);
    view.yAxis->setRange(40.6, 47.2);
    const QImage shot = shoot(view);
    const ColorLut& lut = colorLutFor(ColorScale::Weights);
    for (int i = 41; i <= 47; ++i)
        for (int j = 118; j <= 123; ++j)
            EXPECT_EQ(shownAt(view, shot, i, j), lut.color(c.values(i, j), ValueRange(0, 1)))
                << i << "," << j;
}

TEST(HeatmapView, ZoomStaysWhileTheSameSequenceChangesAndResetsForANewShape)
{
    HeatmapView view;
    showView(view);
    HeatmapContent c = rampContent(50, 50);
    view.setContent(c);
    view.zoom(0.2);
    const QCPRange zoomed = view.xAxis->range();
    c.values *= 0.5;  // a slider moved: same tokens, new weights
    view.setContent(c);
    EXPECT_EQ(view.xAxis->range(), zoomed);
    view.setContent(rampContent(51, 50));
    EXPECT_EQ(view.xAxis->range(), QCPRange(-0.5, 49.5));
    EXPECT_EQ(view.yAxis->range(), QCPRange(-0.5, 50.5));
}

TEST(HeatmapView, HoverShowsTheCellAndRepaintsOnlyTheMarksLayer)
{
    HeatmapView view;
    showView(view);
    view.setContent(rampContent(64, 64));
    QCoreApplication::processEvents();  // the queued replot of the new content
    QSignalSpy replots(&view, &QCustomPlot::afterReplot);
    QSignalSpy hovered(&view, &HeatmapView::cellHovered);
    const QPointF at(view.xAxis->coordToPixel(10), view.yAxis->coordToPixel(20));
    QMouseEvent move(QEvent::MouseMove, at, view.mapToGlobal(at), Qt::NoButton, Qt::NoButton,
                     Qt::NoModifier);
    QCoreApplication::sendEvent(&view, &move);
    QCoreApplication::processEvents();
    ASSERT_EQ(hovered.count(), 1);
    EXPECT_EQ(hovered.at(0).at(0).toInt(), 20);
    EXPECT_EQ(hovered.at(0).at(1).toInt(), 10);
    EXPECT_EQ(replots.count(), 0) << "the cells and axes were drawn again for a hover";
    // The white hover frame is on screen around the cell.
    const QImage shot = view.grab().toImage();
    const int left = static_cast<int>(view.xAxis->coordToPixel(9.5));
    const int y = static_cast<int>(view.yAxis->coordToPixel(20));
    bool white = false;  // the 2-pixel frame edge, wherever it rounds to
    for (int x = left - 2; x <= left + 2; ++x)
        white = white || shot.pixel(x, y) == qRgb(255, 255, 255);
    EXPECT_TRUE(white);
    // Leaving the map hides it.
    QEvent leave(QEvent::Leave);
    QCoreApplication::sendEvent(&view, &leave);
    const QImage after = view.grab().toImage();
    for (int x = left - 2; x <= left + 2; ++x) EXPECT_NE(after.pixel(x, y), qRgb(255, 255, 255));
    EXPECT_EQ(replots.count(), 0);
}

TEST(HeatmapView, LongSequenceOnFewPixelsStillShowsEveryPeak)
{
    // 1500 x 1500 cells in a few hundred pixels: a one-hot row (each query on one key)
    // must stay visible everywhere, not only where a sampled cell happens to be the peak.
    HeatmapView view;
    showView(view);
    HeatmapContent c;
    const int n = 1500;
    c.values = attn::Matrix::Zero(n, n);
    for (int i = 0; i < n; ++i) c.values(i, (i * 7) % n) = 1.0;
    for (int i = 0; i < n; ++i) c.rowLabels << QString::number(i + 1);
    c.columnLabels = c.rowLabels;
    view.setContent(c);
    const QImage shot = shoot(view);
    const QRgb peak = colorLutFor(ColorScale::Weights).color(1.0, ValueRange(0, 1));
    // Every peak cell's pixel shows the peak colour.
    int missing = 0;
    for (int i = 0; i < n; i += 37) {
        if (shownAt(view, shot, i, (i * 7) % n) != peak) {
            ++missing;
            ADD_FAILURE() << "peak of row " << i << " at column " << (i * 7) % n << " not shown";
        }
    }
    EXPECT_EQ(missing, 0);
    // And the map is not all peak: cells far from any peak keep the colour of 0.
    const QRgb zero = colorLutFor(ColorScale::Weights).color(0.0, ValueRange(0, 1));
    for (int i = 0; i < n; i += 37)
        EXPECT_EQ(shownAt(view, shot, i, (i * 7 + n / 2) % n), zero) << i;
    ASSERT_GT(view.axisRect()->width(), 100);
    EXPECT_LT(view.axisRect()->width(), n / 3) << "the test needs several cells per pixel";
}

// The tick labels inside the axis's visible range.
int visibleLabels(const QCPAxis* axis)
{
    auto ticker = axis->ticker().dynamicCast<QCPAxisTickerText>();
    if (!ticker) return 0;
    int count = 0;
    for (auto it = ticker->ticks().cbegin(); it != ticker->ticks().cend(); ++it)
        if (axis->range().contains(it.key())) ++count;
    return count;
}

TEST(HeatmapView, ZoomingInLabelsMoreOfTheShownTokens)
{
    HeatmapView view;
    showView(view);
    view.setContent(rampContent(400, 400));
    view.replot();
    const int before = visibleLabels(view.yAxis);
    ASSERT_GT(before, 3);
    view.zoom(0.05);  // about 20 of 400 rows shown
    view.replot();
    const int after = visibleLabels(view.yAxis);
    // Labels thin out for what is shown, not for the whole sequence: zoomed in to 20 rows,
    // every one of them can be labelled.
    EXPECT_GE(after, 15) << "before zooming: " << before;
    EXPECT_GE(visibleLabels(view.xAxis), 5);
    view.resetView();
    view.replot();
    EXPECT_EQ(visibleLabels(view.yAxis), before);
}

TEST(HeatmapView, KeepsEveryShownTickLabelRendered)
{
    // QCustomPlot keeps 16 rendered labels per axis; with more shown, each replot would lay
    // them all out again. The view makes room for every label it shows.
    HeatmapView view;
    showView(view);
    view.setContent(rampContent(300, 300));
    view.replot();
    EXPECT_TRUE(view.plottingHints().testFlag(QCP::phCacheLabels));
    EXPECT_GT(visibleLabels(view.yAxis), 16);
    EXPECT_GE(labelCacheSize(view.yAxis), visibleLabels(view.yAxis));
    EXPECT_GE(labelCacheSize(view.xAxis), visibleLabels(view.xAxis));
}

}  // namespace
}  // namespace attnlab

namespace attnlab {
namespace {

// Up to 16 cells across, every token keeps its label (shrunk if need be); beyond, every k-th
// label is drawn and the axis title says so.
TEST(HeatmapLabels, UpToSixteenCellsEveryLabelIsKeptBeyondTheAxisSaysWhichAreLeftOut)
{
    QFont base;
    base.setPixelSize(24);
    QStringList sixteen;
    for (int i = 0; i < 16; ++i) sixteen << QStringLiteral("动物%1").arg(i);
    const AxisLabelFit rows = fitAxisLabels(sixteen, 16, 160.0, base, false);
    EXPECT_EQ(rows.step, 1);
    EXPECT_LT(fontPixels(rows.font), 24);
    EXPECT_GE(fontPixels(rows.font), kSmallestLabelPixels);
    const AxisLabelFit columns = fitAxisLabels(sixteen, 16, 200.0, base, true);
    EXPECT_EQ(columns.step, 1);
    EXPECT_TRUE(columns.rotated);
    QStringList forty = sixteen;
    for (int i = 16; i < 40; ++i) forty << QStringLiteral("t%1").arg(i);
    const AxisLabelFit thinned = fitAxisLabels(forty, 40, 200.0, base, false);
    EXPECT_GT(thinned.step, 1);
    EXPECT_FALSE(thinnedLabelsNote(thinned.step).isEmpty());
    EXPECT_TRUE(thinnedLabelsNote(1).isEmpty());
}

// A value shrinks before it disappears: a cell of 27 x 9.5 px still prints "-7.2" at the
// smallest legible size; one of 6 px does not.
TEST(HeatmapLabels, ValuesShrinkToTheSmallestLegibleSizeBeforeTheyDisappear)
{
    QFont base;
    base.setPixelSize(16);
    const ValueTextFit big = fitValueTexts(0.123, false, 80.0, 40.0, base);
    EXPECT_EQ(big.decimals, 3);
    EXPECT_EQ(fontPixels(big.font), 16);
    const ValueTextFit small = fitValueTexts(7.2, true, 27.0, 9.5, base);
    EXPECT_GE(small.decimals, 1);
    EXPECT_GE(fontPixels(small.font), kSmallestLabelPixels);
    EXPECT_EQ(fitValueTexts(7.2, true, 27.0, 6.0, base).decimals, 0);
    EXPECT_EQ(fitValueTexts(7.2, true, 12.0, 30.0, base).decimals, 0);
}

// A weight keeps two decimals at a smaller size rather than one at a larger (the presenter's
// enlarged walkthrough printed 0.029 as "0.0"); a value above one may still drop to one.
TEST(HeatmapLabels, AValueBelowOneKeepsTwoDecimalsAtASmallerSize)
{
    QFont base;
    base.setPixelSize(24);
    QFont two = base;
    two.setPixelSize(14);  // below three quarters of 24
    const double width = QFontMetricsF(two).horizontalAdvance(QStringLiteral("0.99")) + 5.0;
    const ValueTextFit weight = fitValueTexts(0.99, false, width, 40.0, base);
    EXPECT_EQ(weight.decimals, 2);
    EXPECT_GE(fontPixels(weight.font), kSmallestLabelPixels);
    EXPECT_LE(fontPixels(weight.font), 14);
    const double wide = QFontMetricsF(two).horizontalAdvance(QStringLiteral("9.99")) + 5.0;
    EXPECT_EQ(fitValueTexts(9.99, false, wide, 40.0, base).decimals, 1);
}

}  // namespace
}  // namespace attnlab
