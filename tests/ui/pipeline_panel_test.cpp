// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/panels/pipeline_panel.h"

#include <gtest/gtest.h>

#include <QRegularExpression>
#include <QTest>

#include "ui/document/document.h"
#include "ui/views/heatmap_view.h"

namespace attnlab {
namespace {

QString shape(const attn::Matrix& m)
{
    return QStringLiteral("(%1 × %2)").arg(m.rows()).arg(m.cols());
}

void expectStagesMatch(const PipelinePanel& panel, const Document& doc)
{
    const attn::HeadResult& hr = *doc.currentHead();
    const attn::Matrix mask = hr.mask.cast<double>();
    const attn::Matrix* expected[] = {&doc.session().input.X,
                                      &hr.Q,
                                      &hr.K,
                                      &hr.V,
                                      &hr.scores,
                                      &hr.scaled,
                                      &mask,
                                      &hr.weights,
                                      &hr.output};
    ASSERT_EQ(panel.stageCount(), 9);
    for (int s = 0; s < 9; ++s) {
        const HeatmapContent& c = panel.stageView(s)->content();
        EXPECT_TRUE(panel.stageTitle(s).contains(shape(*expected[s])))
            << s << ": " << panel.stageTitle(s).toStdString();
        ASSERT_EQ(c.values.rows(), expected[s]->rows()) << s;
        ASSERT_EQ(c.values.cols(), expected[s]->cols()) << s;
        EXPECT_TRUE(c.values.isApprox(*expected[s])) << s;
        EXPECT_EQ(c.rowLabels.size(), c.values.rows()) << s;
        EXPECT_EQ(c.columnLabels.size(), c.values.cols()) << s;
    }
}

TEST(PipelinePanel, ShowsNineStagesWithTheirShapes)
{
    Document doc;
    PipelinePanel panel(&doc);
    expectStagesMatch(panel, doc);
    EXPECT_TRUE(panel.stageTitle(static_cast<int>(Stage::Scaled)).contains(QStringLiteral("√d_k")));

    const QStringList tokens = {QStringLiteral("a"), QStringLiteral("b"), QStringLiteral("c"),
                                QStringLiteral("d"), QStringLiteral("e")};
    ASSERT_TRUE(doc.changeSession(QStringLiteral("tokens"), [&](Session& s) {
        s.input.X = embeddingsFor(tokens, s.targetTokens, s.input.X, s.dModel, s.seed);
        s.targetTokens = tokens;
        s.input.scaling = attn::Scaling::None;
    }));
    doc.flush();
    EXPECT_TRUE(panel.stageTitle(static_cast<int>(Stage::X)).contains(QStringLiteral("(5 × 3)")));
    EXPECT_TRUE(
        panel.stageTitle(static_cast<int>(Stage::Weights)).contains(QStringLiteral("(5 × 5)")));
    EXPECT_TRUE(
        panel.stageTitle(static_cast<int>(Stage::Scaled)).contains(QStringLiteral("unscaled")));
    EXPECT_EQ(panel.stageView(Stage::Q)->content().rowLabels, tokens);
    expectStagesMatch(panel, doc);
}

TEST(PipelinePanel, CrossModeTakesKeysFromTheSource)
{
    Document doc;
    PipelinePanel panel(&doc);
    ASSERT_TRUE(doc.changeSession(QStringLiteral("cross"),
                                  [](Session& s) { s.input.mode = attn::Mode::Cross; }));
    doc.flush();
    const Session& s = doc.session();
    EXPECT_EQ(panel.stageView(Stage::K)->content().rowLabels, s.sourceTokens);
    EXPECT_EQ(panel.stageView(Stage::Weights)->content().columnLabels, s.sourceTokens);
    EXPECT_EQ(panel.stageView(Stage::Weights)->content().rowLabels, s.targetTokens);
    expectStagesMatch(panel, doc);
}

TEST(PipelinePanel, ScoreBreakdownTermsSumToTheScore)
{
    Document doc;
    PipelinePanel panel(&doc);
    const attn::HeadResult& hr = *doc.currentHead();
    const QRegularExpression termLine(
        QStringLiteral("^\\s*c = (\\d+):\\s+(\\S+) × (\\S+) = (\\S+)$"));
    for (int i = 0; i < 4; ++i) {
        for (int j = 0; j < 4; ++j) {
            const QString text = panel.scoreBreakdown(i, j);
            double sum = 0.0;
            int terms = 0;
            for (const QString& line : text.split(QLatin1Char('\n'))) {
                const QRegularExpressionMatch m = termLine.match(line);
                if (!m.hasMatch()) continue;
                const int c = m.captured(1).toInt() - 1;
                EXPECT_NEAR(m.captured(2).toDouble(), hr.Q(i, c), 1e-5);
                EXPECT_NEAR(m.captured(3).toDouble(), hr.K(j, c), 1e-5);
                EXPECT_NEAR(m.captured(4).toDouble(), hr.Q(i, c) * hr.K(j, c), 1e-5);
                sum += m.captured(4).toDouble();
                ++terms;
            }
            EXPECT_EQ(terms, 3) << text.toStdString();
            EXPECT_NEAR(sum, hr.scores(i, j), 1e-4) << text.toStdString();
            EXPECT_TRUE(text.contains(QStringLiteral("Sum: %1").arg(hr.scores(i, j), 0, 'g', 6)));
        }
    }
    EXPECT_TRUE(panel.scoreBreakdown(4, 0).isEmpty());
}

TEST(PipelinePanel, AdditiveScoreIsExplainedNotSplit)
{
    Document doc;
    PipelinePanel panel(&doc);
    ASSERT_TRUE(doc.changeSession(QStringLiteral("additive"), [](Session& s) {
        s.input.score = attn::ScoreFunction::Additive;
    }));
    doc.flush();
    const QString text = panel.scoreBreakdown(0, 1);
    EXPECT_TRUE(text.contains(QStringLiteral("tanh"))) << text.toStdString();
    EXPECT_FALSE(text.contains(QStringLiteral("c = 1:")));
    if (qEnvironmentVariableIsSet("ATTNLAB_RENDER_DIR")) {
        ASSERT_TRUE(doc.changeSession(QStringLiteral("dot"), [](Session& s) {
            s.input.score = attn::ScoreFunction::Dot;
            s.input.mode = attn::Mode::Causal;
        }));
        doc.flush();
        doc.select(2, 1);
        panel.resize(1000, 900);
        panel.show();
        ASSERT_TRUE(QTest::qWaitForWindowExposed(&panel));
        QCoreApplication::processEvents();  // the queued replots
        panel.grab().save(qEnvironmentVariable("ATTNLAB_RENDER_DIR") +
                          QStringLiteral("/pipeline.png"));
    }
}

}  // namespace
}  // namespace attnlab
