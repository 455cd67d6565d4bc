// SPDX-License-Identifier: GPL-3.0-or-later
// The lesson "Cross-attention learns to align" (resources/lessons/cross-align.*.md) says what
// the reader will see; each figure it names is checked here on what the reader uses, and each
// stands in both languages' texts: the hand-made map of its session, the model trainer's
// translator page with the default recipe (alignment at step 0, the step it forms), the
// built-in translator the recipe made (its best head, exact match), and the same model with
// the heads the text names switched off, measured as `attnlab align --ablate` measures it and
// translated as the translator window translates.
#include <gtest/gtest.h>

#include <QPushButton>
#include <QTest>

#include "core/attention.h"
#include "core/train/dates_align.h"
#include "support/lesson_figures.h"
#include "support/session_test_support.h"
#include "ui/model/align_lesson_launcher.h"
#include "ui/model/model_trainer_panel.h"
#include "ui/model/model_window.h"
#include "ui/model/model_windows.h"
#include "ui/model/seq2seq_document.h"
#include "ui/model/translator_trainer_panel.h"
#include "ui/modelrun/builtin_models.h"

namespace attnlab {
namespace {

constexpr int kWaitMs = 300000;

// The figure is in both texts.
void said(const QString& figure)
{
    testing::expectInBothTexts(QStringLiteral("cross-align"), figure);
}

std::string builtinDates()
{
    QString error;
    const QString folder = resolveModelFolder(builtinReference(QStringLiteral("dates")), error);
    EXPECT_FALSE(folder.isEmpty()) << error.toStdString();
    return folder.toStdString();
}

std::vector<attn::model::HeadEdit> crossOff(int layer, std::initializer_list<int> heads)
{
    std::vector<attn::model::HeadEdit> edits;
    for (int h : heads) {
        attn::model::HeadEdit e;
        e.kind = attn::model::HeadEditKind::AblateZero;
        e.attention = attn::model::AttentionKind::Cross;
        e.layer = layer - 1;
        e.head = h - 1;
        edits.push_back(e);
    }
    return edits;
}

double exactMatchWith(const std::vector<attn::model::HeadEdit>& edits)
{
    attn::dates::FolderAlignment a;
    const attn::Status s = attn::dates::alignFolder(builtinDates(), 200, a, edits);
    EXPECT_TRUE(s.ok()) << s.detail;
    return a.accuracy;
}

TEST(CrossAlignLesson, TheHandMadeMapPutsEachFieldOnItsOwnAndSpreadsTheComma)
{
    const Session s = testing::lessonSession("cross-align");
    attn::AttentionResult r;
    ASSERT_TRUE(attn::computeAttention<double>(s.input, r).ok());
    const attn::Matrix& w = r.heads.at(0).weights;
    ASSERT_EQ(w.rows(), 4);                                             // December 4 , 2026
    ASSERT_EQ(w.cols(), 6);                                             // 2026 年 12 月 4 日
    EXPECT_EQ(testing::decimals(w(0, 2), 3), QStringLiteral("0.947"));  // December -> 12
    EXPECT_EQ(testing::decimals(w(1, 4), 3), QStringLiteral("0.947"));  // 4 -> 4
    EXPECT_EQ(testing::decimals(w(3, 0), 3),
              QStringLiteral("0.947"));  // 2026 -> 2026: the crossing
    for (long j = 0; j < 6; ++j) EXPECT_EQ(testing::decimals(w(2, j), 3), QStringLiteral("0.167"));
    said(QStringLiteral("0.947"));
    said(QStringLiteral("0.167"));
}

TEST(CrossAlignLesson, TheTrainButtonOpensTheTranslatorPageWhereAlignmentFormsAtStep75)
{
    ModelWindows models;
    AlignLessonLauncher launcher(&models);
    launcher.trainButton()->click();
    ModelTrainerPanel* trainer = models.window()->trainer();
    ASSERT_TRUE(trainer->showsTranslator());
    TranslatorTrainerPanel* page = trainer->translator();
    ASSERT_NE(page->run(), nullptr);
    // The defaults the text tells the reader to keep.
    EXPECT_EQ(page->spec().steps, 1200);
    EXPECT_EQ(page->spec().heads, 4);
    EXPECT_EQ(page->spec().seed, 1U);
    page->run()->runTo(100);
    ASSERT_TRUE(QTest::qWaitFor(
        [&] { return page->run()->steps() == 100 && page->run()->settledRun(); }, kWaitMs));
    const auto& measures = page->run()->measures();
    ASSERT_FALSE(measures.empty());
    EXPECT_EQ(measures.front().step, 0);
    EXPECT_LE(measures.front().alignment.best, 0.5);
    EXPECT_EQ(testing::decimals(measures.front().alignment.best, 2), QStringLiteral("0.42"));
    said(QStringLiteral("0.42"));
    const attn::dates::Point* formed = page->formed();
    ASSERT_NE(formed, nullptr);
    EXPECT_EQ(formed->step, 75);
    EXPECT_EQ(testing::decimals(formed->meanAccuracy(), 2), QStringLiteral("0.00"));
    said(QStringLiteral("75"));
    said(QStringLiteral("0.00"));
    models.window()->close();
}

TEST(CrossAlignLesson, TheTrainedTranslatorAlignsWithLayer2Head2AndNeedsLayer2sHeads)
{
    attn::dates::FolderAlignment a;
    ASSERT_TRUE(attn::dates::alignFolder(builtinDates(), 200, a).ok());
    EXPECT_EQ(a.alignment.bestLayer, 1);
    EXPECT_EQ(a.alignment.bestHead, 1);
    EXPECT_EQ(testing::decimals(a.alignment.best, 2), QStringLiteral("0.98"));
    EXPECT_EQ(testing::decimals(a.accuracy, 2), QStringLiteral("1.00"));
    EXPECT_EQ(testing::decimals(a.alignment.heads[1][0], 2), QStringLiteral("0.95"));
    EXPECT_EQ(testing::decimals(a.alignment.heads[1][2], 2), QStringLiteral("0.94"));
    for (const char* f : {"0.98", "1.00", "0.95", "0.94"}) said(QString::fromLatin1(f));

    EXPECT_EQ(testing::decimals(exactMatchWith(crossOff(2, {2})), 2), QStringLiteral("1.00"));
    EXPECT_EQ(testing::decimals(exactMatchWith(crossOff(2, {2, 4})), 3), QStringLiteral("0.615"));
    EXPECT_EQ(testing::decimals(exactMatchWith(crossOff(2, {1, 2, 3, 4})), 3),
              QStringLiteral("0.015"));
    EXPECT_EQ(testing::decimals(exactMatchWith(crossOff(1, {1, 2, 3, 4})), 3),
              QStringLiteral("0.925"));
    for (const char* f : {"0.615", "0.015", "0.925"}) said(QString::fromLatin1(f));
}

TEST(CrossAlignLesson, TheTranslatorWindowWritesAnotherDateWithLayer2sCrossHeadsOff)
{
    Seq2SeqDocument doc;
    QString error;
    ASSERT_TRUE(doc.open(QString::fromStdString(builtinDates()), error)) << error.toStdString();
    const QString date = QStringLiteral("二〇二六年十二月四日");
    doc.setSource(date);
    doc.translate();
    ASSERT_TRUE(QTest::qWaitFor([&] { return doc.idle() && doc.snapshot(); }, kWaitMs));
    EXPECT_EQ(doc.translationText(), QStringLiteral("December 4, 2026"));
    doc.ablateHead(attn::model::AttentionKind::Cross, 1, 1);
    doc.translate();
    ASSERT_TRUE(QTest::qWaitFor([&] { return doc.idle(); }, kWaitMs));
    EXPECT_EQ(doc.translationText(), QStringLiteral("December 4, 2026"));
    for (int h : {0, 2, 3}) doc.ablateHead(attn::model::AttentionKind::Cross, 1, h);
    doc.translate();
    ASSERT_TRUE(QTest::qWaitFor([&] { return doc.idle(); }, kWaitMs));
    EXPECT_EQ(doc.translationText(), QStringLiteral("October 3, 2028"));
    said(date);
    said(QStringLiteral("October 3, 2028"));
}

}  // namespace
}  // namespace attnlab
