// SPDX-License-Identifier: GPL-3.0-or-later
// The figure renderer and the numbers export, on sessions built in code.
#include <bit>
#include <cstdint>
#include <gtest/gtest.h>

#include <QBuffer>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include "support/export_test_support.h"
#include "ui/export/figure.h"
#include "ui/export/figure_renderer.h"
#include "ui/export/numbers_export.h"

namespace attnlab {
namespace {

struct Computed {
    Session session = testing::exportSession();
    attn::AttentionResult result;
    Computed() { EXPECT_TRUE(attn::computeAttention<double>(session.input, result).ok()); }
    FigureSource source() const
    {
        FigureSource s;
        s.session = &session;
        s.result = &result;
        return s;
    }
};

Figure figureOf(const Computed& c, FigureStage stage, bool allHeads = false)
{
    FigureRequest r;
    r.stage = stage;
    r.allHeads = allHeads;
    Figure f;
    QString error;
    EXPECT_TRUE(buildFigure(c.source(), r, f, error)) << error.toStdString();
    return f;
}

TEST(FigureStages, EveryKeyParsesBackToItsStage)
{
    for (const QString& key : stageKeys()) {
        FigureStage s;
        ASSERT_TRUE(parseStage(key, s)) << key.toStdString();
        EXPECT_EQ(stageKey(s), key);
    }
    FigureStage s;
    EXPECT_FALSE(parseStage(QStringLiteral("softmax"), s));
}

TEST(FigureBuild, WeightsFigureHasTitleCaptionAndTokenLabels)
{
    const Computed c;
    const Figure f = figureOf(c, FigureStage::Weights);
    ASSERT_EQ(f.panels.size(), 1u);
    EXPECT_TRUE(f.title.contains(QStringLiteral("head 1")));
    EXPECT_TRUE(f.caption.contains(QStringLiteral("head 1 of 2")));
    EXPECT_TRUE(f.caption.contains(QStringLiteral("causal")));
    EXPECT_TRUE(f.caption.contains(QStringLiteral("[0, 1]")));
    EXPECT_EQ(f.panels[0].rowLabels, c.session.targetTokens);
    ASSERT_TRUE(f.panels[0].mask.has_value());
}

TEST(FigureBuild, PipelineHasNineStagesAndAllHeadsOnePanelPerHead)
{
    const Computed c;
    EXPECT_EQ(figureOf(c, FigureStage::Pipeline).panels.size(), 9u);
    EXPECT_EQ(figureOf(c, FigureStage::Weights, true).panels.size(), 2u);
    EXPECT_EQ(figureOf(c, FigureStage::Pipeline, true).panels.size(), 18u);
}

TEST(FigureBuild, DifferenceNeedsABaselineAndShowsAfterMinusBefore)
{
    const Computed c;
    FigureRequest r;
    r.stage = FigureStage::Difference;
    Figure f;
    QString error;
    EXPECT_FALSE(buildFigure(c.source(), r, f, error));
    EXPECT_FALSE(error.isEmpty());
    FigureSource src = c.source();
    attn::Matrix before = c.result.heads[0].weights;
    before(4, 1) -= 0.25;
    src.before = {before, attn::Matrix()};
    ASSERT_TRUE(buildFigure(src, r, f, error)) << error.toStdString();
    EXPECT_DOUBLE_EQ(f.panels[0].values(4, 1), 0.25);
    EXPECT_EQ(f.panels[0].scale, ColorScale::Diverging);
    r.head = 1;  // nothing pinned for head 2
    EXPECT_FALSE(buildFigure(src, r, f, error));
}

TEST(FigureBuild, FixedRangeAppliesToEveryPanelButTheMask)
{
    const Computed c;
    FigureRequest r;
    r.stage = FigureStage::Pipeline;
    r.fixedRange = ValueRange(-2.0, 2.0);
    Figure f;
    QString error;
    ASSERT_TRUE(buildFigure(c.source(), r, f, error));
    for (const HeatmapContent& p : f.panels) {
        ASSERT_TRUE(p.range.has_value());
        if (p.title.startsWith(QStringLiteral("Mask")))
            EXPECT_EQ(p.range->upper, 1.0);
        else
            EXPECT_EQ(p.range->upper, 2.0) << p.title.toStdString();
    }
}

TEST(FigureRender, PngHasTheRequestedPixelSizeTimesScale)
{
    const Computed c;
    const Figure f = figureOf(c, FigureStage::Weights);
    for (double scale : {1.0, 2.0, 3.0}) {
        const QByteArray png = encodeFigure(f, FigureFormat::Png, QSize(400, 300), scale);
        QImage image;
        ASSERT_TRUE(image.loadFromData(png, "PNG"));
        EXPECT_EQ(image.width(), 400 * scale);
        EXPECT_EQ(image.height(), 300 * scale);
    }
}

TEST(FigureRender, PngIsNotBlank)
{
    const Computed c;
    const QImage image = renderFigureImage(figureOf(c, FigureStage::Weights), QSize(500, 400), 1);
    int nonWhite = 0;
    for (int y = 0; y < image.height(); y += 4)
        for (int x = 0; x < image.width(); x += 4) nonWhite += image.pixel(x, y) != 0xffffffffu;
    EXPECT_GT(nonWhite, 1000);
}

TEST(FigureRender, SvgIsVectorsWithTokenLabelsAsTextAndCjkFonts)
{
    const Computed c;
    const QByteArray svg =
        encodeFigure(figureOf(c, FigureStage::Weights), FigureFormat::Svg, QSize(700, 600), 1);
    const testing::SvgSummary s = testing::readSvg(svg);
    ASSERT_TRUE(s.wellFormed);
    EXPECT_EQ(s.images, 0);
    for (const QString& token : c.session.targetTokens)
        EXPECT_TRUE(s.texts.contains(token)) << token.toStdString();
    // 6 x 6 cells (with gaps, one rectangle each) plus the colour bar.
    EXPECT_GE(s.rects + s.paths, 36 + 90);
    ASSERT_FALSE(s.fontFamilies.isEmpty());
    for (const QString& family : s.fontFamilies)
        EXPECT_TRUE(family.contains(QStringLiteral("Noto Sans CJK SC"))) << family.toStdString();
    // Masked (future) cells are grey, as in the app.
    EXPECT_TRUE(s.fills.contains(maskedCellColor().name()));
}

TEST(FigureRender, SvgOfEveryStageParses)
{
    const Computed c;
    for (FigureStage stage : {FigureStage::Pipeline, FigureStage::Combined, FigureStage::Mask}) {
        const testing::SvgSummary s = testing::readSvg(
            encodeFigure(figureOf(c, stage), FigureFormat::Svg, QSize(900, 800), 1));
        EXPECT_TRUE(s.wellFormed);
        EXPECT_EQ(s.images, 0);
    }
}

TEST(FigureRender, PdfStartsWithPdfMagic)
{
    const Computed c;
    const QByteArray pdf =
        encodeFigure(figureOf(c, FigureStage::Pipeline), FigureFormat::Pdf, QSize(900, 700), 1);
    EXPECT_TRUE(pdf.startsWith("%PDF"));
}

TEST(NumbersExport, JsonReadsBackBitIdenticalToTheCore)
{
    const Computed c;
    QJsonParseError err;
    const QJsonDocument doc = QJsonDocument::fromJson(resultToJson(c.session, c.result), &err);
    ASSERT_EQ(err.error, QJsonParseError::NoError) << err.errorString().toStdString();
    const QJsonArray heads = doc.object().value(QStringLiteral("heads")).toArray();
    ASSERT_EQ(heads.size(), 2);
    QString why;
    for (int h = 0; h < 2; ++h) {
        const attn::HeadResult& hr = c.result.heads[static_cast<std::size_t>(h)];
        const QJsonObject o = heads[h].toObject();
        const std::pair<const char*, const attn::Matrix*> stages[] = {
            {"Q", &hr.Q},           {"K", &hr.K},           {"V", &hr.V},
            {"scores", &hr.scores}, {"scaled", &hr.scaled}, {"weights", &hr.weights},
            {"output", &hr.output}};
        for (const auto& [key, m] : stages)
            EXPECT_TRUE(testing::equalsJsonRows(o.value(QLatin1String(key)), *m, why))
                << key << ": " << why.toStdString();
        const QJsonArray mask = o.value(QStringLiteral("mask")).toArray();
        ASSERT_EQ(mask.size(), hr.weights.rows());
        EXPECT_TRUE(mask[0].toArray()[0].isBool());
        EXPECT_FALSE(mask[0].toArray()[1].toBool());  // causal: row 1 cannot see key 2
    }
    EXPECT_TRUE(
        testing::equalsJsonRows(doc.object().value(QStringLiteral("output")), c.result.output, why))
        << why.toStdString();
    const QJsonArray diag = doc.object().value(QStringLiteral("diagnostics")).toArray();
    ASSERT_EQ(diag.size(), 2);
    EXPECT_EQ(diag[0].toObject().value(QStringLiteral("entropy")).toArray().size(), 6);
    // The argmax counts columns from 1, as the CSV and every message do.
    const QJsonArray argmax = diag[1].toObject().value(QStringLiteral("argmax")).toArray();
    const Eigen::VectorXi& core = c.result.heads[1].diagnostics.argmax;
    ASSERT_EQ(argmax.size(), core.size());
    for (long i = 0; i < core.size(); ++i) EXPECT_EQ(argmax[i].toInt(), core(i) + 1) << i;
}

TEST(NumbersExport, ExactNumberRoundTrips)
{
    // Negative zero keeps its sign in the text (QJsonDocument itself reads it as 0).
    EXPECT_EQ(exactNumber(-0.0), QByteArray("-0.0"));
    for (double v : {0.1, 1.0 / 3.0, -2.5e-300, 6.02214076e23, 5e-324, 12345678901234567.0}) {
        const QByteArray t = exactNumber(v);
        const double back = QJsonDocument::fromJson("[" + t + "]").array()[0].toDouble();
        EXPECT_EQ(std::bit_cast<std::uint64_t>(back), std::bit_cast<std::uint64_t>(v))
            << t.constData();
    }
}

TEST(NumbersExport, LongCsvHasOneLinePerCell)
{
    const Computed c;
    const QList<QByteArray> lines = resultToLongCsv(c.session, c.result).trimmed().split('\n');
    EXPECT_EQ(lines[0], QByteArray("head,stage,row,col,row_token,col_token,value"));
    // Per head: Q, K, V, output 6x3 each, scores, scaled, mask, weights 6x6, 5 diagnostics x 6.
    const int perHead = 4 * 18 + 4 * 36 + 5 * 6;
    const int tail = 6 * 6 + 6 * 3;  // concat (6 x 6) and output (6 x 3)
    EXPECT_EQ(lines.size(), 1 + 2 * perHead + tail);
    EXPECT_TRUE(lines[1].startsWith("1,Q,1,1,那只,1,"));
}

TEST(NumbersExport, CsvFilesHaveATokenHeaderRow)
{
    const Computed c;
    const auto files = resultToCsvFiles(c.session, c.result);
    bool found = false;
    for (const auto& [name, bytes] : files) {
        if (name != QLatin1String("head1.weights.csv")) continue;
        found = true;
        const QList<QByteArray> lines = bytes.trimmed().split('\n');
        EXPECT_EQ(lines.size(), 7);
        EXPECT_TRUE(lines[0].endsWith(",那只,动物,没过街,因为,它,累了"));
        EXPECT_TRUE(lines[5].startsWith("它,"));
    }
    EXPECT_TRUE(found);
}

}  // namespace
}  // namespace attnlab
