// SPDX-License-Identifier: GPL-3.0-or-later
// The lesson "Cross-attention: translation looks back" opens the translator AttnLab trained
// (builtin:dates) and says what it shows: it writes "December 4, 2026" for 二〇二六年十二月四日,
// and in layer 2, head 2 of its cross-attention the row that writes the month looks at 十 or 二
// of 十二, the row that writes the day at 四, and the rows that write the year at its digits.
#include <gtest/gtest.h>

#include <QApplication>
#include <QFile>
#include <QPushButton>
#include <QTest>

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

// The source column the row of decoder position `row` puts its largest weight on.
long peak(const attn::model::FloatMatrix& map, long row)
{
    long best = 0;
    map.row(row).maxCoeff(&best);
    return best;
}

TEST(LessonCrossTranslator, TheButtonOpensTheDatesTranslatorWhoseFieldsCross)
{
    MainWindow main;
    main.show();
    auto* lessons = main.findChild<LessonActions*>();
    ASSERT_TRUE(lessons && lessons->openLesson(QStringLiteral("cross")));
    const QString words = lessons->lessonPanel()->shownText();
    EXPECT_TRUE(words.contains(QStringLiteral("**December 4, 2026**")));
    EXPECT_TRUE(words.contains(QStringLiteral("(layer 2, head 2)")));
    ModelLessonLauncher* launcher = nullptr;
    for (auto* l : lessons->lessonPanel()->findChildren<ModelLessonLauncher*>(
             QStringLiteral("crossTranslatorLauncher")))
        if (l->isVisible()) launcher = l;
    ASSERT_TRUE(launcher);
    QPushButton* open = launcher->builtinButton(QStringLiteral("dates"));
    ASSERT_TRUE(open);
    EXPECT_FALSE(launcher->reopenButton()->isVisible()) << "no downloaded model is offered here";
    open->click();
    Seq2SeqWindow* translator = nullptr;
    for (QWidget* w : QApplication::topLevelWidgets())
        if (auto* t = qobject_cast<Seq2SeqWindow*>(w); t && t->isVisible()) translator = t;
    ASSERT_TRUE(translator);
    Seq2SeqDocument* doc = translator->document();
    ASSERT_TRUE(testing::settled(doc));
    EXPECT_EQ(doc->source(), QStringLiteral("二〇二六年十二月四日"));
    EXPECT_EQ(doc->translationText(), QStringLiteral("December 4, 2026"));
    const auto run = doc->snapshot();
    ASSERT_TRUE(run);
    // Decoder input: <pad> December ▁ 4 , ▁ 2 0 2 6; the row of position t writes label t.
    // Source: 二 〇 二 六 年 十 二 月 四 日 </s>.
    const attn::model::FloatMatrix& head = run->result.cross[1][1];
    ASSERT_EQ(head.rows(), 10);
    ASSERT_EQ(head.cols(), 11);
    const long month = peak(head, 0);
    EXPECT_TRUE(month == 5 || month == 6) << month;  // 十 or 二 of 十二
    EXPECT_EQ(peak(head, 2), 8);                     // 4 from 四
    for (long row = 5; row < 9; ++row) EXPECT_LT(peak(head, row), 4) << row;  // the year's digits
}

TEST(LessonCrossTranslator, TheChineseTextStatesTheSameFigures)
{
    QFile f(QStringLiteral(":/lessons/cross.zh.md"));
    ASSERT_TRUE(f.open(QIODevice::ReadOnly));
    const QString zh = QString::fromUtf8(f.readAll());
    EXPECT_TRUE(zh.contains(QStringLiteral("**December 4, 2026**")));
    EXPECT_TRUE(zh.contains(QStringLiteral("第 2 层第 2 个头")));
    EXPECT_TRUE(zh.contains(QStringLiteral("二〇二六年十二月四日")));
}

}  // namespace
}  // namespace attnlab
