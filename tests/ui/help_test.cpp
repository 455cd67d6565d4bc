// SPDX-License-Identifier: GPL-3.0-or-later
// Help: the keyboard shortcuts are read from the window's actions when the list opens, the
// user guide opens in the program in the interface language, lessons are numbered wherever
// they are named, and the start page opens at the top with a cue for the lessons below.
#include <gtest/gtest.h>

#include <QAction>
#include <QCoreApplication>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QScrollArea>
#include <QScrollBar>
#include <QSet>
#include <QTest>
#include <QTextBrowser>
#include <QTreeWidget>
#include <QUndoStack>

#include "support/session_test_support.h"
#include "ui/document/document.h"
#include "ui/panels/lesson_panel.h"
#include "ui/readers/lesson_catalog.h"
#include "ui/views/help_dialogs.h"
#include "ui/window/language.h"
#include "ui/window/lesson_actions.h"
#include "ui/window/main_window.h"
#include "ui/window/start_page.h"

namespace attnlab {
namespace {

QAction* actionNamed(MainWindow& window, const char* name)
{
    return window.findChild<QAction*>(QLatin1String(name));
}

QSet<QString> rowsOf(const QTreeWidget* tree)
{
    QSet<QString> rows;
    for (int g = 0; g < tree->topLevelItemCount(); ++g) {
        const QTreeWidgetItem* group = tree->topLevelItem(g);
        for (int i = 0; i < group->childCount(); ++i)
            rows << group->child(i)->text(0) + QLatin1Char('|') + group->child(i)->text(1);
    }
    return rows;
}

TEST(Help, TheShortcutListHoldsEveryActionWithAShortcutAsTheWindowHasItWhenItOpens)
{
    testing::isolateSettings();
    MainWindow window;
    window.show();
    // One added to a menu and one to no menu after the window was built.
    QMenu* help = window.findChild<QMenu*>(QStringLiteral("HelpMenu"));
    ASSERT_NE(help, nullptr);
    help->addAction(QStringLiteral("&Test action"))
        ->setShortcut(QKeySequence(Qt::CTRL | Qt::ALT | Qt::Key_T));
    auto* loose = new QAction(QStringLiteral("Loose action"), &window);
    loose->setShortcut(QKeySequence(Qt::CTRL | Qt::ALT | Qt::Key_L));
    window.addAction(loose);

    QSet<QString> expected;
    for (const QAction* a : window.findChildren<QAction*>()) {
        if (a->shortcuts().isEmpty() || a->menu()) continue;
        QStringList keys;
        for (const QKeySequence& k : a->shortcuts()) keys << k.toString(QKeySequence::NativeText);
        expected << QString(a->text()).remove(QLatin1Char('&')) + QLatin1Char('|') +
                        keys.join(QStringLiteral(", "));
    }
    ASSERT_GT(expected.size(), 15);
    // And the keys no action carries, listed after them.
    for (const ShortcutEntry& e : keysWithoutActions())
        expected << e.action + QLatin1Char('|') + e.keys;

    QAction* open = actionNamed(window, "HelpShortcutsAction");
    ASSERT_NE(open, nullptr);
    open->trigger();
    auto* dialog = window.findChild<ShortcutsDialog*>();
    ASSERT_NE(dialog, nullptr);
    EXPECT_TRUE(dialog->isVisible());
    const QSet<QString> shown = rowsOf(dialog->tree());
    EXPECT_EQ(shown, expected);
    EXPECT_TRUE(shown.contains(
        QStringLiteral("Test action|") +
        QKeySequence(Qt::CTRL | Qt::ALT | Qt::Key_T).toString(QKeySequence::NativeText)));
    // Grouped by the menu each is in; the loose one under "Other".
    bool helpGroup = false, otherGroup = false;
    for (int g = 0; g < dialog->tree()->topLevelItemCount(); ++g) {
        const QTreeWidgetItem* group = dialog->tree()->topLevelItem(g);
        for (int i = 0; i < group->childCount(); ++i) {
            helpGroup |= group->text(0) == QLatin1String("Help") &&
                         group->child(i)->text(0) == QLatin1String("Test action");
            otherGroup |= group->text(0) == QLatin1String("Other") &&
                          group->child(i)->text(0) == QLatin1String("Loose action");
        }
    }
    EXPECT_TRUE(helpGroup);
    EXPECT_TRUE(otherGroup);
}

TEST(Help, TheUserGuideOpensInTheProgramInEitherLanguage)
{
    testing::isolateSettings();
    const QString en = GuideDialog::guideText(QStringLiteral("en"));
    const QString zh = GuideDialog::guideText(QStringLiteral("zh_CN"));
    for (const char* part :
         {"## The five steps", "## Lessons", "F5", "Export", "GPT-2", "attnlab render"})
        EXPECT_TRUE(en.contains(QLatin1String(part))) << part;
    for (const char* part : {"## 五个步骤", "## 课程", "F5", "导出", "GPT-2", "attnlab render"})
        EXPECT_TRUE(zh.contains(QString::fromUtf8(part))) << part;

    setLanguage(QStringLiteral("en"));
    QCoreApplication::sendPostedEvents();
    MainWindow window;
    window.show();
    QAction* guide = actionNamed(window, "HelpGuideAction");
    ASSERT_NE(guide, nullptr);
    guide->trigger();
    auto* dialog = window.findChild<GuideDialog*>();
    ASSERT_NE(dialog, nullptr);
    EXPECT_TRUE(dialog->isVisible());
    EXPECT_TRUE(dialog->browser()->toPlainText().contains(QStringLiteral("The five steps")));
    dialog->close();
    QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);

    setLanguage(QStringLiteral("zh_CN"));
    QCoreApplication::sendPostedEvents();
    QCoreApplication::processEvents();
    actionNamed(window, "HelpGuideAction")->trigger();
    dialog = window.findChild<GuideDialog*>();
    ASSERT_NE(dialog, nullptr);
    EXPECT_TRUE(dialog->browser()->toPlainText().contains(QStringLiteral("五个步骤")));
    setLanguage(QStringLiteral("en"));
    QCoreApplication::sendPostedEvents();
}

TEST(LessonNumbers, AreShownInTheMenuOnTheStartPageAndInTheLessonsTitles)
{
    testing::isolateSettings();
    setLessonLanguage(QStringLiteral("en"));
    MainWindow window;
    auto* actions = window.findChild<LessonActions*>();
    ASSERT_NE(actions, nullptr);
    int n = 0;
    for (QAction* a : actions->menu()->actions()) {
        if (!a->data().isValid()) continue;
        ++n;
        EXPECT_TRUE(a->text().startsWith(QStringLiteral("Lesson %1 — ").arg(n)))
            << a->text().toStdString();
    }
    EXPECT_EQ(n, lessons().size());
    EXPECT_EQ(lessons().first().id, QStringLiteral("hand-exercise"));  // the guide's lesson 1

    actions->showStartPage();
    auto* row = actions->startPage()->findChild<QLabel*>(QStringLiteral("lesson-hand-exercise"));
    ASSERT_NE(row, nullptr);
    EXPECT_TRUE(row->text().contains(QStringLiteral("Lesson 1 — ")));

    ASSERT_TRUE(actions->openLesson(QStringLiteral("coreference-tired")));
    EXPECT_EQ(actions->lessonPanel()->shownTitle(),
              QStringLiteral("Lesson 2 — 它 and 动物: 「…因为它太累了」"));
    EXPECT_TRUE(window.windowTitle().startsWith(actions->lessonPanel()->shownTitle()));
    EXPECT_EQ(window.document()->undoStack()->undoText(),
              QStringLiteral("Open Lesson 2 — 它 and 动物: 「…因为它太累了」"));

    // In Chinese: "第 2 课 — …", and the undo label has no doubled quotes.
    setLessonLanguage(QStringLiteral("zh"));
    actions->setLanguage(QStringLiteral("zh"));
    window.document()->retranslate();
    EXPECT_TRUE(
        actions->lessonPanel()->shownTitle().startsWith(QStringLiteral("第 2 课 — “它”指谁")))
        << actions->lessonPanel()->shownTitle().toStdString();
    EXPECT_FALSE(window.document()->undoStack()->undoText().contains(QStringLiteral("““")));
    EXPECT_FALSE(actions->lessonPanel()->shownText().startsWith(QLatin1Char('#')));
    setLessonLanguage(QString());
}

TEST(StartPage, OpensAtTheTopAndSaysHowManyLessonsAreBelow)
{
    testing::isolateSettings();
    setLessonLanguage(QStringLiteral("en"));
    StartPage page;
    page.resize(760, 520);  // a small screen: the list does not fit
    page.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&page));
    QCoreApplication::processEvents();
    QScrollBar* bar = page.scrollArea()->verticalScrollBar();
    ASSERT_GT(bar->maximum(), 0);
    EXPECT_EQ(bar->value(), 0);
    // Lesson 1 is in view at the top.
    auto* first = page.findChild<QLabel*>(QStringLiteral("lesson-hand-exercise"));
    ASSERT_NE(first, nullptr);
    EXPECT_TRUE(first->visibleRegion().boundingRect().height() >= first->height() - 1);
    const int below = page.lessonsBelow();
    EXPECT_GT(below, 0);
    EXPECT_TRUE(page.moreCue()->isVisible());
    EXPECT_TRUE(page.moreCue()->text().contains(QStringLiteral("%1 more lesson").arg(below)))
        << page.moreCue()->text().toStdString();
    // The cue is a link to the rest; at the bottom it goes away.
    Q_EMIT page.moreCue()->linkActivated(QStringLiteral("#more"));
    EXPECT_EQ(bar->value(), bar->maximum());
    EXPECT_EQ(page.lessonsBelow(), 0);
    EXPECT_FALSE(page.moreCue()->isVisible());
    // Shown again, it is back at the top.
    page.hide();
    page.show();
    EXPECT_TRUE(QTest::qWaitFor([bar] { return bar->value() == 0; }, 2000));
    setLessonLanguage(QString());
}

}  // namespace
}  // namespace attnlab
