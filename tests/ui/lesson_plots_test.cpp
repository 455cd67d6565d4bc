// SPDX-License-Identifier: GPL-3.0-or-later
// The plots of lessons 3 and 8: the variance of q·k against d_k with the session's d_k
// marked, and the cost panel that measures the core's time and memory against n.
#include <gtest/gtest.h>

#include <QDockWidget>
#include <QLocale>
#include <QSettings>
#include <QTest>
#include <QThreadPool>

#include "core/attention.h"
#include "core/random_init.h"
#include "support/session_test_support.h"
#include "ui/document/document.h"
#include "ui/lessons/cost_study.h"
#include "ui/panels/cost_panel.h"
#include "ui/panels/cost_plot.h"
#include "ui/panels/lesson_panel.h"
#include "ui/panels/scaling_plot.h"
#include "ui/readers/lesson_catalog.h"
#include "ui/window/lesson_actions.h"
#include "ui/window/main_window.h"

namespace attnlab {
namespace {

using testing::lessonSession;

std::vector<double> keysOf(const QCPGraph* g)
{
    std::vector<double> v;
    for (auto it = g->data()->constBegin(); it != g->data()->constEnd(); ++it) v.push_back(it->key);
    return v;
}

std::vector<double> valuesOf(const QCPGraph* g)
{
    std::vector<double> v;
    for (auto it = g->data()->constBegin(); it != g->data()->constEnd(); ++it)
        v.push_back(it->value);
    return v;
}

bool measureAndWait(CostPanel& panel)
{
    if (!panel.measure()) return false;
    return QTest::qWaitFor([&panel] { return !panel.running(); }, 120000);
}

TEST(ScalingPlot, ShowsVarianceAgainstDkAndMarksTheSessionsDk)
{
    Document doc;
    ASSERT_TRUE(doc.replaceSession(lessonSession("scaling"), QStringLiteral("lesson")));
    doc.flush();
    ScalingPlot plot(&doc);
    EXPECT_TRUE(plot.points().empty());  // measured when first shown
    plot.show();
    ASSERT_TRUE(QTest::qWaitFor([&plot] { return !plot.measuring(); }, 60000));
    ASSERT_EQ(plot.points().size(), 10u);  // d_k = 1, 2, ..., 512; the lesson's 16 among them
    EXPECT_EQ(plot.markedDk(), 16);
    EXPECT_EQ(plot.varianceUnscaledGraph()->dataCount(), 10);
    const attn::ScalingStudyPoint& top = plot.points().back();
    EXPECT_EQ(top.dK, 512);
    EXPECT_NEAR(top.varianceUnscaled / 512.0, 1.0, 0.15);
    EXPECT_NEAR(top.varianceScaled, 1.0, 0.15);
    EXPECT_LT(top.entropyUnscaled, 0.25 * top.entropyScaled);

    Session wider = doc.session();
    randomiseProjections(wider, 1, 24, 24, wider.seed);
    ASSERT_TRUE(doc.replaceSession(wider, QStringLiteral("d_k")));
    doc.flush();
    EXPECT_EQ(plot.markedDk(), 24);
    // Still measuring after the worker returned, until its points are merged.
    ASSERT_TRUE(QThreadPool::globalInstance()->waitForDone(60000));
    EXPECT_TRUE(plot.measuring());
    ASSERT_TRUE(QTest::qWaitFor([&plot] { return !plot.measuring(); }, 60000));
    EXPECT_EQ(plot.points().size(), 11u);
    EXPECT_EQ(plot.points()[5].dK, 24);
}

TEST(CostPanel, MeasuringUpToFiveHundredTwelveFillsThePlotWithExactWeightMemory)
{
    Document doc;
    ASSERT_TRUE(doc.replaceSession(lessonSession("cost"), QStringLiteral("lesson")));
    doc.flush();
    CostPanel panel(&doc);
    panel.setMaxN(512);
    ASSERT_TRUE(measureAndWait(panel));
    ASSERT_EQ(panel.points().size(), 3u);  // 128, 256, 512
    EXPECT_EQ(panel.plot()->timeGraph()->dataCount(), 3);
    EXPECT_EQ(panel.plot()->weightsGraph()->dataCount(), 3);
    const long h = static_cast<long>(doc.session().input.heads.size());
    long n = 128;
    for (const CostPoint& p : panel.points()) {
        EXPECT_EQ(p.n, n);
        EXPECT_EQ(p.weightBytes, static_cast<std::size_t>(n * n * 8 * h));
        EXPECT_GT(p.estimatedBytes, p.weightBytes);
        EXPECT_GT(p.seconds, 0.0);
        n *= 2;
    }
    const QCPGraph* memory = panel.plot()->weightsGraph();
    EXPECT_NEAR(logLogSlope(keysOf(memory), valuesOf(memory)), 2.0, 1e-12);
    const QCPGraph* square = panel.plot()->squareGraph();
    EXPECT_NEAR(logLogSlope(keysOf(square), valuesOf(square)), 2.0, 1e-12);
    EXPECT_TRUE(panel.message().contains(QLocale().toString(512)));
    EXPECT_EQ(panel.measurementsStarted(), 1);
}

TEST(CostPanel, HeadsMultiplyTheWeightMemory)
{
    Document doc;
    ASSERT_TRUE(doc.replaceSession(lessonSession("heads"), QStringLiteral("lesson")));
    doc.flush();
    ASSERT_EQ(doc.session().input.heads.size(), 3u);
    CostPanel panel(&doc);
    panel.setMaxN(200);
    ASSERT_TRUE(measureAndWait(panel));
    ASSERT_EQ(panel.points().size(), 2u);  // 128, then 200 itself
    EXPECT_EQ(panel.points()[1].n, 200);
    EXPECT_EQ(panel.points()[1].weightBytes, std::size_t{200 * 200 * 8 * 3});
}

TEST(CostPanel, SizeBeyondTheBudgetIsRefusedWithTheLimitAndNothingRuns)
{
    Document doc;
    ASSERT_TRUE(doc.replaceSession(lessonSession("cost"), QStringLiteral("lesson")));
    doc.flush();
    CostPanel panel(&doc);
    panel.setMaxN(100000);
    EXPECT_FALSE(panel.measure());
    EXPECT_FALSE(panel.running());
    EXPECT_EQ(panel.measurementsStarted(), 0);
    EXPECT_TRUE(panel.points().empty());
    EXPECT_EQ(panel.plot()->timeGraph()->dataCount(), 0);
    const QLocale locale;
    const CostShape shape = costShapeOf(doc.session().input, doc.session().seed);
    const long full = largestFittingN(shape, panel.limits());
    EXPECT_LE(costEstimateBytes(full, shape), panel.limits().maxBytes);
    EXPECT_GT(costEstimateBytes(full + 1, shape), panel.limits().maxBytes);
    EXPECT_GT(full, 10000);  // tens of thousands where memory allows
    // Keeping only the weights in float reaches past 32,768 within the 6 GiB.
    const long largest = largestMeasurableN(shape, panel.limits());
    EXPECT_GE(largest, 32768);
    EXPECT_LE(costLongEstimateBytes(largest, shape), panel.limits().maxBytes);
    EXPECT_GT(costLongEstimateBytes(largest + 1, shape), panel.limits().maxBytes);
    const QString message = panel.message();
    EXPECT_TRUE(message.contains(locale.toString(100000))) << message.toStdString();
    EXPECT_TRUE(message.contains(locale.toString(largest))) << message.toStdString();
    EXPECT_TRUE(message.contains(QStringLiteral("6.0 GiB"))) << message.toStdString();
}

TEST(CostPanel, BeyondTheBudgetOfEveryStageOnlyTheWeightsAreKeptInFloat)
{
    Document doc;
    ASSERT_TRUE(doc.replaceSession(lessonSession("cost"), QStringLiteral("lesson")));
    doc.flush();
    CostPanel panel(&doc);
    attn::Limits small;
    small.maxBytes = std::size_t{64} << 20;  // so that the switch comes at a small n
    panel.setLimits(small);
    const CostShape shape = costShapeOf(doc.session().input, doc.session().seed);
    const long full = largestFittingN(shape, small);
    const long top = largestMeasurableN(shape, small);
    ASSERT_GT(top, full + full / 2);
    panel.setMaxN(top);
    ASSERT_TRUE(measureAndWait(panel));
    ASSERT_EQ(panel.points().size(), costSizes(top).size());
    const auto h = static_cast<std::size_t>(doc.session().input.heads.size());
    int weightsOnly = 0;
    for (const CostPoint& p : panel.points()) {
        SCOPED_TRACE(p.n);
        const auto n = static_cast<std::size_t>(p.n);
        EXPECT_EQ(p.weightsOnly, p.n > full);
        EXPECT_EQ(p.weightBytes, n * n * h * (p.weightsOnly ? 4 : 8));
        EXPECT_LE(p.estimatedBytes, small.maxBytes);
        weightsOnly += p.weightsOnly ? 1 : 0;
    }
    ASSERT_GE(weightsOnly, 1);
    EXPECT_EQ(panel.plot()->weightsOnlyTimeGraph()->dataCount(), weightsOnly);
    EXPECT_EQ(panel.plot()->weightsOnlyWeightsGraph()->dataCount(), weightsOnly);
    EXPECT_EQ(panel.plot()->timeGraph()->dataCount(),
              static_cast<int>(panel.points().size()) - weightsOnly);
    EXPECT_TRUE(panel.message().contains(QStringLiteral("float"))) << panel.message().toStdString();

    panel.setMaxN(top + 1);
    EXPECT_FALSE(panel.measure());
    EXPECT_TRUE(panel.message().contains(QLocale().toString(top))) << panel.message().toStdString();
}

TEST(CostPanel, StopEndsTheRunBeforeTheLastSize)
{
    Document doc;
    ASSERT_TRUE(doc.replaceSession(lessonSession("cost"), QStringLiteral("lesson")));
    doc.flush();
    CostPanel panel(&doc);
    panel.setMaxN(2048);
    ASSERT_TRUE(panel.measure());
    EXPECT_FALSE(panel.measure());  // one run at a time
    panel.cancel();
    ASSERT_TRUE(QTest::qWaitFor([&panel] { return !panel.running(); }, 120000));
    EXPECT_LT(panel.points().size(), costSizes(2048).size());
    EXPECT_EQ(panel.measurementsStarted(), 1);
}

TEST(LessonWindow, CostLessonShowsTheCostPanelAndScalingLessonItsPlot)
{
    testing::isolateSettings();
    MainWindow window;
    window.show();
    auto* actions = window.findChild<LessonActions*>();
    ASSERT_NE(actions, nullptr);
    EXPECT_TRUE(actions->costDock()->isHidden());
    ASSERT_TRUE(actions->openLesson(QStringLiteral("cost")));
    EXPECT_FALSE(actions->costDock()->isHidden());
    auto* plot = actions->lessonPanel()->findChild<ScalingPlot*>();
    ASSERT_NE(plot, nullptr);
    EXPECT_FALSE(plot->isVisibleTo(actions->lessonPanel()));
    ASSERT_TRUE(actions->openLesson(QStringLiteral("scaling")));
    window.document()->flush();
    EXPECT_TRUE(plot->isVisibleTo(actions->lessonPanel()));
    EXPECT_EQ(plot->markedDk(), 16);
}

TEST(CostStudy, MeasuresWithTheSessionsModeAndScoreFunction)
{
    // A causal, additive session is measured as causal and additive: the core's result for
    // the measured n has an exactly zero upper triangle and additive scores, not Q·Kᵀ.
    Document doc;
    ASSERT_TRUE(doc.changeSession(QStringLiteral("options"), [](Session& s) {
        s.input.mode = attn::Mode::Causal;
        s.input.score = attn::ScoreFunction::Additive;
    }));
    doc.flush();
    const CostShape shape = costShapeOf(doc.session().input, doc.session().seed);
    EXPECT_EQ(shape.mode, attn::Mode::Causal);
    EXPECT_EQ(shape.score, attn::ScoreFunction::Additive);
    CostPoint point;
    attn::AttentionResult result;
    ASSERT_TRUE(measureCost(40, shape, attn::Limits{}, point, &result).ok());
    ASSERT_EQ(result.heads.size(), 1u);
    const attn::HeadResult& h = result.heads[0];
    ASSERT_EQ(h.weights.rows(), 40);
    EXPECT_EQ(
        h.weights.triangularView<Eigen::StrictlyUpper>().toDenseMatrix().cwiseAbs().maxCoeff(),
        0.0);
    EXPECT_GT((h.scores - h.Q * h.K.transpose()).cwiseAbs().maxCoeff(), 1e-3);
    // ... and they are the additive formula s_ij = v^T tanh(W_a q_i + U_a k_j), written out
    // here as loops over the parameters the study drew (attn::randomInput of its spec).
    const attn::AttentionInput drawn = attn::randomInput(costSpec(40, shape));
    const attn::AdditiveParams& p = drawn.heads[0].additive;
    ASSERT_EQ(p.v.size(), shape.dAdditive);
    for (long i : {0L, 7L, 39L}) {
        for (long j = 0; j <= i; ++j) {
            double score = 0.0;
            for (long a = 0; a < p.v.size(); ++a) {
                double pre = 0.0;
                for (long c = 0; c < h.Q.cols(); ++c)
                    pre += p.W_a(a, c) * h.Q(i, c) + p.U_a(a, c) * h.K(j, c);
                score += p.v(a) * std::tanh(pre);
            }
            EXPECT_NEAR(h.scores(i, j), score, 1e-12) << i << ", " << j;
        }
    }
    EXPECT_EQ(point.weightBytes, std::size_t{40 * 40 * 8});
}

// The panel kept another session's measurement under the new session's header.
TEST(CostPanel, AnotherSessionClearsTheOldMeasurement)
{
    Document doc;
    ASSERT_TRUE(doc.replaceSession(lessonSession("cost"), QStringLiteral("lesson")));
    CostPanel panel(&doc);
    panel.setMaxN(128);
    ASSERT_TRUE(measureAndWait(panel));
    ASSERT_EQ(panel.points().size(), 1u);
    ASSERT_TRUE(doc.setKeyDim(static_cast<int>(doc.session().input.keyDim()) + 4));
    EXPECT_TRUE(panel.points().empty());
    EXPECT_EQ(panel.plot()->timeGraph()->dataCount(), 0);
    EXPECT_TRUE(panel.message().contains(QStringLiteral("session changed")))
        << panel.message().toStdString();
    // A change that keeps the measured shape (a vector edit) keeps the points.
    ASSERT_TRUE(measureAndWait(panel));
    attn::VectorEdit e;
    e.role = attn::Role::Key;
    e.scale = 2.0;
    ASSERT_TRUE(doc.editVector(e));
    EXPECT_EQ(panel.points().size(), 1u);
}

}  // namespace
}  // namespace attnlab
