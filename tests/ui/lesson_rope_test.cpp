// SPDX-License-Identifier: GPL-3.0-or-later
// The lesson "Positions by rotation (RoPE)" (resources/lessons/rope.*.md) says what the reader
// will see; each figure it names is checked here on what the reader uses: the lesson opened in
// the window and its buttons pressed in order. Each figure is also looked for in both texts, so
// that a text and its check cannot drift apart.
#include <gtest/gtest.h>

#include <QPushButton>
#include <QTest>

#include "core/rope.h"
#include "support/session_test_support.h"
#include "ui/document/document.h"
#include "ui/panels/lesson_panel.h"
#include "ui/panels/rope_lesson_buttons.h"
#include "ui/readers/lesson_catalog.h"
#include "ui/window/lesson_actions.h"
#include "ui/window/main_window.h"

namespace attnlab {
namespace {

class RopeLesson : public ::testing::Test {
protected:
    void SetUp() override
    {
        testing::isolateSettings();
        setLessonLanguage(QStringLiteral("en"));
        window_ = std::make_unique<MainWindow>();
        actions_ = window_->findChild<LessonActions*>();
        ASSERT_NE(actions_, nullptr);
        ASSERT_TRUE(actions_->openLesson(QStringLiteral("rope")));
        doc_ = window_->document();
        doc_->flush();
        buttons_ = window_->findChild<RopeLessonButtons*>();
        ASSERT_NE(buttons_, nullptr);
        const Lesson* lesson = findLessonById(QStringLiteral("rope"));
        ASSERT_NE(lesson, nullptr);
        textEn_ = lesson->textEn;
        textZh_ = lesson->textZh;
    }
    void TearDown() override { setLessonLanguage(QString()); }

    // Presses button `index` (0: no positions, then θ = 10000, 100, 10, 1).
    void press(int index)
    {
        buttons_->button(index)->click();
        doc_->flush();
    }
    // Weight of row i, column j (from 1, as the text counts), rounded as the text writes it,
    // and that text in both languages.
    void expectWeight(int i, int j, const char* shown, double tolerance = 0.005)
    {
        const double w = doc_->currentHead()->weights(i - 1, j - 1);
        EXPECT_NEAR(w, QString::fromLatin1(shown).toDouble(), tolerance)
            << "row " << i << ", key " << j;
        expectNamed(shown);
    }
    void expectNamed(const char* figure)
    {
        EXPECT_TRUE(textEn_.contains(QLatin1String(figure))) << figure << " (en)";
        EXPECT_TRUE(textZh_.contains(QLatin1String(figure))) << figure << " (zh)";
    }

    std::unique_ptr<MainWindow> window_;
    LessonActions* actions_ = nullptr;
    Document* doc_ = nullptr;
    RopeLessonButtons* buttons_ = nullptr;
    QString textEn_, textZh_;
};

TEST_F(RopeLesson, WithoutPositionsEveryScoreIs13_86AndEveryWeightASeventh)
{
    const attn::AttentionInput& in = doc_->session().input;
    EXPECT_EQ(in.queryCount(), 7);
    EXPECT_EQ(in.keyDim(), 8);
    EXPECT_FALSE(in.rope.has_value());
    const attn::HeadResult& hr = *doc_->currentHead();
    EXPECT_LT((hr.weights.array() - 1.0 / 7.0).abs().maxCoeff(), 1e-12);
    EXPECT_LT((hr.scores.array() - 13.86).abs().maxCoeff(), 1e-9);
    expectNamed("1/7 = 0.143");
    expectNamed("13.86");
    press(1);
    press(0);  // and back
    EXPECT_LT((doc_->currentHead()->weights.array() - 1.0 / 7.0).abs().maxCoeff(), 1e-12);
}

TEST_F(RopeLesson, Theta10000GivesFrequenciesABandAndConstantDiagonals)
{
    press(1);
    ASSERT_TRUE(doc_->session().input.rope.has_value());
    EXPECT_EQ(doc_->session().input.rope->theta, 10000.0);
    const std::vector<double> f = attn::ropeInverseFrequencies(*doc_->session().input.rope, 8);
    const double named[] = {1.0, 0.1, 0.01, 0.001};
    for (std::size_t i = 0; i < 4; ++i) EXPECT_NEAR(f[i], named[i], 1e-12);
    expectNamed("0.01");
    expectNamed("0.001");
    expectWeight(7, 7, "0.22");
    expectWeight(7, 6, "0.19");
    // The first "la", six back, gets more than the fourth.
    expectWeight(7, 1, "0.13");
    expectWeight(7, 4, "0.10");
    // The Pipeline's S: every diagonal constant, 13.86 on the main one and 13.37 next to it.
    const attn::Matrix& s = doc_->currentHead()->scores;
    for (long i = 1; i < 7; ++i)
        for (long j = 1; j < 7; ++j) EXPECT_NEAR(s(i, j), s(i - 1, j - 1), 1e-12);
    EXPECT_NEAR(s(3, 3), 13.86, 1e-9);
    EXPECT_NEAR(s(4, 3), 13.37, 0.005);
    expectNamed("13.37");
    expectNamed("6.28");
    // Row 1 is row 7 reversed.
    const attn::Matrix& p = doc_->currentHead()->weights;
    for (long j = 0; j < 7; ++j) EXPECT_NEAR(p(0, j), p(6, 6 - j), 1e-12);
}

TEST_F(RopeLesson, SmallerThetasNarrowTheBandAndThetaOneOscillates)
{
    press(1);
    press(2);
    EXPECT_EQ(doc_->session().input.rope->theta, 100.0);
    expectWeight(7, 7, "0.42");
    expectWeight(7, 6, "0.31");
    expectWeight(7, 1, "0.008", 0.0005);
    press(3);
    expectWeight(7, 7, "0.61");
    press(4);
    EXPECT_EQ(doc_->session().input.rope->theta, 1.0);
    expectWeight(4, 4, "0.82");
    expectWeight(7, 7, "0.51");
    expectWeight(7, 1, "0.42");
}

TEST_F(RopeLesson, EachButtonIsOneUndoStep)
{
    const int base = doc_->undoStack()->index();
    press(1);
    press(2);
    press(3);
    EXPECT_EQ(doc_->undoStack()->index(), base + 3);
    doc_->undoStack()->undo();
    doc_->flush();
    EXPECT_EQ(doc_->session().input.rope->theta, 100.0);
    doc_->undoStack()->undo();
    doc_->undoStack()->undo();
    doc_->flush();
    EXPECT_FALSE(doc_->session().input.rope.has_value());
    expectNamed("Ctrl+Z");
}

}  // namespace
}  // namespace attnlab
