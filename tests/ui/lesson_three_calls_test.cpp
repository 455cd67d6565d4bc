// SPDX-License-Identifier: GPL-3.0-or-later
// The lesson "One kernel, three calls" (resources/lessons/three-calls.*.md) opens the translator
// AttnLab trained (builtin:dates) and names, for each call of the kernel, what its maps show on
// 二〇二六年十二月四日; each figure is checked here on the translator window the lesson's button
// opens, and found in both languages' texts.
#include <gtest/gtest.h>

#include <QApplication>
#include <QPushButton>
#include <QTest>

#include "support/lesson_figures.h"
#include "support/waits.h"
#include "ui/model/model_lesson_launcher.h"
#include "ui/model/seq2seq_document.h"
#include "ui/model/seq2seq_window.h"
#include "ui/modelrun/seq2seq_run.h"
#include "ui/panels/lesson_panel.h"
#include "ui/window/lesson_actions.h"
#include "ui/window/main_window.h"

namespace attnlab {
namespace {

QString lessonText(const char* language)
{
    return testing::lessonMarkdown(QStringLiteral("three-calls"), language);
}

// The figure is in both texts.
void said(const QString& figure)
{
    testing::expectInBothTexts(QStringLiteral("three-calls"), figure);
}

// The lesson's button opens the translator on its date: the run it shows.
std::shared_ptr<const Seq2SeqSnapshot> openedByTheLesson(MainWindow& main)
{
    main.show();
    auto* lessons = main.findChild<LessonActions*>();
    EXPECT_TRUE(lessons && lessons->openLesson(QStringLiteral("three-calls")));
    if (!lessons) return nullptr;
    ModelLessonLauncher* launcher = nullptr;
    for (auto* l : lessons->lessonPanel()->findChildren<ModelLessonLauncher*>(
             QStringLiteral("crossTranslatorLauncher")))
        if (l->isVisible()) launcher = l;
    QPushButton* open = launcher ? launcher->builtinButton(QStringLiteral("dates")) : nullptr;
    if (!open) return nullptr;
    EXPECT_TRUE(
        lessonText("en").contains(QStringLiteral("**") + open->text() + QStringLiteral("**")));
    open->click();
    Seq2SeqWindow* translator = nullptr;
    for (QWidget* w : QApplication::topLevelWidgets())
        if (auto* t = qobject_cast<Seq2SeqWindow*>(w); t && t->isVisible()) translator = t;
    if (!translator) return nullptr;
    Seq2SeqDocument* doc = translator->document();
    EXPECT_TRUE(testing::settled(doc));
    EXPECT_EQ(doc->source(), QStringLiteral("二〇二六年十二月四日"));
    EXPECT_EQ(doc->translationText(), QStringLiteral("December 4, 2026"));
    auto run = doc->snapshot();
    translator->close();
    return run;
}

TEST(LessonThreeCalls, TheTranslatorsThreeKindsOfMapsAreTheKernelsThreeCalls)
{
    MainWindow main;
    const auto run = openedByTheLesson(main);
    ASSERT_TRUE(run);
    said(QStringLiteral("二〇二六年十二月四日"));
    said(QStringLiteral("December 4, 2026"));
    const attn::model::Seq2SeqResult& r = run->result;

    // 1. The encoder: 11 x 11, nothing masked.
    float smallest = 1.0F;
    for (const attn::model::LayerTrace& layer : r.encoder)
        for (const attn::model::FloatMatrix& head : layer.attention) {
            ASSERT_EQ(head.rows(), 11);
            ASSERT_EQ(head.cols(), 11);
            smallest = std::min(smallest, head.minCoeff());
        }
    EXPECT_EQ(r.encoder.size() * r.encoder.front().attention.size(), 8U);
    EXPECT_GT(smallest, 0.0F);
    EXPECT_EQ(testing::decimals(smallest, 4), QStringLiteral("0.0007"));
    said(QStringLiteral("11 × 11"));
    said(QStringLiteral("0.0007"));

    // 2. The decoder: 10 x 10, the 45 cells above the diagonal exactly 0; <pad> reads itself.
    for (const attn::model::LayerTrace& layer : r.decoder)
        for (const attn::model::FloatMatrix& head : layer.attention) {
            ASSERT_EQ(head.rows(), 10);
            ASSERT_EQ(head.cols(), 10);
            int above = 0;
            for (long i = 0; i < 10; ++i)
                for (long j = i + 1; j < 10; ++j) {
                    EXPECT_EQ(head(i, j), 0.0F);
                    ++above;
                }
            EXPECT_EQ(above, 45);
            EXPECT_EQ(head(0, 0), 1.0F);
        }
    said(QStringLiteral("10 × 10"));
    said(QStringLiteral("45"));

    // 3. Cross-attention: 10 x 11; layer 2 head 2 reads 十 for December, 四 for the day and
    // 六 for the year's last digit. Source: 二 〇 二 六 年 十 二 月 四 日 </s>; decoder input:
    // <pad> December ▁ 4 , ▁ 2 0 2 6 (the row of position t writes label t).
    const attn::model::FloatMatrix& head = r.cross[1][1];
    ASSERT_EQ(head.rows(), 10);
    ASSERT_EQ(head.cols(), 11);
    const struct {
        long row, column;
        const char* weight;
    } reads[] = {{0, 5, "0.925"}, {2, 8, "0.985"}, {8, 3, "0.995"}};
    for (const auto& read : reads) {
        long best = 0;
        head.row(read.row).maxCoeff(&best);
        EXPECT_EQ(best, read.column) << "row " << read.row;
        EXPECT_EQ(testing::decimals(head(read.row, read.column), 3),
                  QString::fromLatin1(read.weight));
        said(QString::fromLatin1(read.weight));
    }
    said(QStringLiteral("10 × 11"));
}

}  // namespace
}  // namespace attnlab
