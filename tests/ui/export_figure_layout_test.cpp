// SPDX-License-Identifier: GPL-3.0-or-later
// How figures are laid out and printed: text grows with the figure, cells stay square,
// numbers keep two significant digits and never read "-0.000".
#include <gtest/gtest.h>

#include <QBuffer>
#include <QImage>
#include <QRegularExpression>
#include <QXmlStreamReader>

#include "support/export_test_support.h"
#include "ui/export/figure.h"
#include "ui/export/figure_renderer.h"
#include "ui/views/color_scales.h"

namespace attnlab {
namespace {

// Rows [top, bottom] of the lowest band of dark pixels (text) in the image.
struct Band {
    int top = -1;
    int bottom = -1;
    [[nodiscard]] int height() const { return bottom < 0 ? 0 : bottom - top + 1; }
};

bool rowHasInk(const QImage& image, int y)
{
    for (int x = 0; x < image.width(); ++x)
        if (qGray(image.pixel(x, y)) < 160) return true;
    return false;
}

Band lowestTextBand(const QImage& image)
{
    Band b;
    for (int y = image.height() - 1; y >= 0; --y) {
        const bool ink = rowHasInk(image, y);
        if (ink && b.bottom < 0) b.bottom = y;
        if (ink) b.top = y;
        if (!ink && b.bottom >= 0) break;
    }
    return b;
}

Band highestTextBand(const QImage& image)
{
    Band b;
    for (int y = 0; y < image.height(); ++y) {
        const bool ink = rowHasInk(image, y);
        if (ink && b.top < 0) b.top = y;
        if (ink) b.bottom = y;
        if (!ink && b.top >= 0) break;
    }
    return b;
}

Figure weightsFigure(const Session& session, const attn::AttentionResult& result)
{
    FigureSource src;
    src.session = &session;
    src.result = &result;
    Figure f;
    QString error;
    EXPECT_TRUE(buildFigure(src, FigureRequest{}, f, error)) << error.toStdString();
    return f;
}

// One panel of `values` on the weights scale, labelled t1, t2, ...
Figure handMadeFigure(const attn::Matrix& values, ColorScale scale = ColorScale::Weights)
{
    HeatmapContent c;
    c.values = values;
    c.scale = scale;
    for (long i = 0; i < values.rows(); ++i) c.rowLabels << QStringLiteral("q%1").arg(i + 1);
    for (long j = 0; j < values.cols(); ++j) c.columnLabels << QStringLiteral("k%1").arg(j + 1);
    Figure f;
    f.title = QStringLiteral("A figure");
    f.caption = QStringLiteral("a caption");
    f.panels.push_back(c);
    return f;
}

QStringList svgTexts(const Figure& f, QSize size)
{
    const QByteArray svg = encodeFigure(f, FigureFormat::Svg, size, 1.0);
    QXmlStreamReader xml(svg);
    QStringList texts;
    while (!xml.atEnd()) {
        if (xml.readNext() != QXmlStreamReader::StartElement) continue;
        if (xml.name() == QLatin1String("text"))
            texts << xml.readElementText(QXmlStreamReader::IncludeChildElements).trimmed();
    }
    EXPECT_FALSE(xml.hasError());
    return texts;
}

// The bounding box of the pixels of exactly `colour`.
QRect boxOfColour(const QImage& image, QRgb colour)
{
    QRect box;
    for (int y = 0; y < image.height(); ++y)
        for (int x = 0; x < image.width(); ++x)
            if ((image.pixel(x, y) & 0xffffff) == (colour & 0xffffff))
                box = box.united(QRect(x, y, 1, 1));
    return box;
}

TEST(FigureLayout, TextGrowsWithTheFigure)
{
    const Session session = testing::exportSession();
    attn::AttentionResult result;
    ASSERT_TRUE(attn::computeAttention<double>(session.input, result).ok());
    const Figure f = weightsFigure(session, result);
    const QImage small = renderFigureImage(f, QSize(800, 760), 1.0);
    const QImage large = renderFigureImage(f, QSize(2400, 2280), 1.0);
    // The caption's line at the bottom and the title's at the top: three times the figure,
    // (about) three times the text; at least more than twice.
    const Band smallCaption = lowestTextBand(small);
    const Band largeCaption = lowestTextBand(large);
    ASSERT_GT(smallCaption.height(), 4);
    EXPECT_GE(largeCaption.height(), 2 * smallCaption.height() + 1)
        << smallCaption.height() << " px at 800 wide, " << largeCaption.height() << " at 2400";
    const Band smallTitle = highestTextBand(small);
    const Band largeTitle = highestTextBand(large);
    ASSERT_GT(smallTitle.height(), 4);
    EXPECT_GE(largeTitle.height(), 2 * smallTitle.height() + 1)
        << smallTitle.height() << " px at 800 wide, " << largeTitle.height() << " at 2400";
}

TEST(FigureLayout, CellsOfANonSquareMapAreSquareByDefault)
{
    // 3 x 7 in a wide, low figure: one cell (row 2, column 2) at weight 1, all others 0.
    attn::Matrix m = attn::Matrix::Zero(3, 7);
    m(1, 1) = 1.0;
    const Figure f = handMadeFigure(m);
    for (const QSize size : {QSize(1200, 500), QSize(500, 1200)}) {
        const QImage image = renderFigureImage(f, size, 1.0);
        const QRgb one = gradientFor(ColorScale::Weights).color(1.0, QCPRange(0.0, 1.0));
        const QRect cell = boxOfColour(image, one);
        ASSERT_FALSE(cell.isEmpty());
        EXPECT_LE(std::abs(cell.width() - cell.height()), 1)
            << size.width() << "x" << size.height() << ": cell " << cell.width() << "x"
            << cell.height();
        EXPECT_GT(cell.width(), 20);
    }
}

TEST(FigureLayout, ASquareMapShorterThanTheRoomIsCentredInIt)
{
    // A wide map in a tall figure: its square cells leave room above and below. Top-aligned,
    // all of it gathered between the map and the caption.
    const Figure f = handMadeFigure(attn::Matrix::Zero(3, 7));
    const QImage image = renderFigureImage(f, QSize(500, 1200), 1.0);
    const QRect map =
        boxOfColour(image, gradientFor(ColorScale::Weights).color(0.0, QCPRange(0.0, 1.0)));
    ASSERT_FALSE(map.isEmpty());
    const int above = map.top() - highestTextBand(image).bottom;
    const int below = lowestTextBand(image).top - map.bottom();
    // Below holds the column labels and the axis title too, so not equal; but not all the room.
    EXPECT_GT(above, 200) << above << " px above the map, " << below << " below";
    EXPECT_LT(below, 2 * above) << above << " px above the map, " << below << " below";
}

TEST(FigureLayout, FreeAspectLetsTheCellsFillTheRoom)
{
    attn::Matrix m = attn::Matrix::Zero(3, 7);
    m(1, 1) = 1.0;
    Figure f = handMadeFigure(m);
    f.squareCells = false;
    const QImage image = renderFigureImage(f, QSize(1200, 500), 1.0);
    const QRect cell =
        boxOfColour(image, gradientFor(ColorScale::Weights).color(1.0, QCPRange(0.0, 1.0)));
    ASSERT_FALSE(cell.isEmpty());
    EXPECT_GT(cell.width(), cell.height() + 10) << cell.width() << "x" << cell.height();
}

TEST(FigureLayout, SmallValuesKeepTwoSignificantDigitsAndNoNegativeZero)
{
    attn::Matrix m(2, 2);
    m << 0.0042, -0.0, -0.0000003, 0.5;
    const Figure f = handMadeFigure(m, ColorScale::Sequential);
    const QStringList texts = svgTexts(f, QSize(800, 700));
    EXPECT_TRUE(texts.contains(QStringLiteral("0.0042"))) << texts.join(u'|').toStdString();
    EXPECT_TRUE(texts.contains(QStringLiteral("0.500"))) << texts.join(u'|').toStdString();
    static const QRegularExpression negativeZero(QStringLiteral("^-0(\\.0*)?$"));
    for (const QString& t : texts)
        EXPECT_FALSE(negativeZero.match(t).hasMatch()) << t.toStdString();
}

TEST(FigureLayout, SmallCellsOfAStripStillShowTwoSignificantDigits)
{
    // Nine panels as in the pipeline strip, cells too narrow for three decimals of 0.5.
    attn::Matrix m = attn::Matrix::Constant(6, 6, 0.25);
    m(0, 0) = 0.0042;
    Figure f = handMadeFigure(m);
    for (int k = 0; k < 8; ++k) f.panels.push_back(f.panels.front());
    f.columns = 3;
    const QStringList texts = svgTexts(f, QSize(1000, 900));
    EXPECT_EQ(texts.count(QStringLiteral("0.0042")), 9) << texts.join(u'|').toStdString();
    EXPECT_FALSE(texts.contains(QStringLiteral("0.00")));
    EXPECT_FALSE(texts.contains(QStringLiteral("0.0")));
}

}  // namespace
}  // namespace attnlab
