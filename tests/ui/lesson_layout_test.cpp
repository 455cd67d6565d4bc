// SPDX-License-Identifier: GPL-3.0-or-later
// Every lesson, opened as a teacher would in a window of 1366×768 and of 1920×1080, in
// English and in Chinese: nothing the lesson needs is collapsed, clipped or scrolled away, no
// panel scrolls and no plot's axis title is longer than its axis (lesson 13's plot was below
// the window's edge; lesson 6 at d_k = 512 cut "score (unscaled)" and scrolled sideways).
// (The hand exercise's Keys sliders were collapsed to a header; labels were elided.) Every panel
// a lesson's text sends the student to is in view when it opens, not closed and not a tab behind
// another (lesson 7 pointed to the row inspector behind Controls, unsaid), unless the line says
// how to reach it (a menu, or the tab to click).
#include <gtest/gtest.h>

#include <QDockWidget>
#include <QSlider>
#include <QTest>

#include "support/classroom_screens.h"
#include "support/layout_check.h"
#include "support/session_test_support.h"
#include "ui/document/document.h"
#include "ui/readers/lesson_catalog.h"
#include "ui/window/language.h"
#include "ui/window/lesson_actions.h"
#include "ui/window/main_window.h"

namespace attnlab {
namespace {

using testing::Screen;

// The panels a lesson's text names that are not in view when the lesson opens.
QStringList panelsOutOfView(const MainWindow& window, const Lesson& lesson)
{
    struct Named {
        const char* phrase;  // as the English text says it
        const char* dock;
        const char* title;  // the dock's English title
    };
    const Named named[] = {{"row inspector", "RowInspectorDock", "Row inspector"},
                           {"Controls panel", "ControlsDock", "Controls"},
                           {"Sequences panel", "SequencesDock", "Sequences"},
                           {"Trainer panel", "TrainerDock", "Trainer"},
                           {"Show working", "WorkingDock", "Show working"},
                           {"Cost panel", "CostDock", "Cost"}};
    QStringList out;
    for (const QString& line : lesson.textEn.split(QLatin1Char('\n'))) {
        if (line.contains(QStringLiteral("View ▸"))) continue;
        for (const Named& n : named) {
            if (!line.contains(QLatin1String(n.phrase), Qt::CaseInsensitive)) continue;
            const auto* dock = window.findChild<QDockWidget*>(QLatin1String(n.dock));
            // A tab behind another is in reach when the line names the tab to click.
            const bool saysTab = line.contains(QStringLiteral("**") + QLatin1String(n.title) +
                                               QStringLiteral("** tab"));
            if (dock == nullptr || !dock->isVisible() ||
                (dock->visibleRegion().isEmpty() && !saysTab))
                out << QLatin1String(n.phrase);
        }
    }
    return out;
}

class LessonLayout : public ::testing::TestWithParam<Screen> {};

TEST_P(LessonLayout, EveryLessonFitsWithoutClippedText)
{
    const Screen screen = GetParam();
    testing::useScreen(screen);
    MainWindow window;
    ASSERT_TRUE(testing::showOnScreen(window, screen));
    QCoreApplication::processEvents();
    {
        SCOPED_TRACE("the default layout, no lesson open");
        const QStringList defects = testing::clippedTexts(&window);
        EXPECT_TRUE(defects.isEmpty()) << defects.join(QLatin1Char('\n')).toStdString();
    }
    auto* actions = window.findChild<LessonActions*>();
    ASSERT_NE(actions, nullptr);
    for (const Lesson& lesson : lessons()) {
        SCOPED_TRACE(lesson.id.toStdString());
        ASSERT_TRUE(actions->openLesson(lesson.id));
        window.document()->flush();
        QCoreApplication::processEvents();
        const QStringList defects = testing::clippedTexts(&window);
        EXPECT_TRUE(defects.isEmpty()) << defects.join(QLatin1Char('\n')).toStdString();
        const QStringList hidden = panelsOutOfView(window, lesson);
        EXPECT_TRUE(hidden.isEmpty()) << "named by the text, not in view: "
                                      << hidden.join(QStringLiteral(", ")).toStdString();
        if (lesson.id == QLatin1String("scaling")) {
            // Where the lesson's steps lead: d_k = 512 without scaling. The scores reach the
            // hundreds and the Jacobian sentence grows; the row inspector must still fit.
            SCOPED_TRACE("d_k = 512, no scaling");
            ASSERT_TRUE(window.document()->setKeyDim(512));
            ASSERT_TRUE(window.document()->setScaling(attn::Scaling::None));
            window.document()->flush();
            QCoreApplication::processEvents();
            const QStringList unscaled = testing::clippedTexts(&window);
            EXPECT_TRUE(unscaled.isEmpty()) << unscaled.join(QLatin1Char('\n')).toStdString();
        }
        if (lesson.id == QLatin1String("hand-exercise")) {
            // The exercise: every key's slider for every component, without scrolling.
            auto* keys = window.findChild<QDockWidget*>(QStringLiteral("KeysDock"));
            ASSERT_NE(keys, nullptr);
            ASSERT_TRUE(keys->isVisible());
            const QList<QSlider*> sliders = keys->findChildren<QSlider*>();
            EXPECT_EQ(sliders.size(), 12);  // 4 keys × d_k = 3
            for (QSlider* s : sliders) {
                EXPECT_TRUE(s->isVisible() && testing::fullyShown(s) && s->height() >= 12)
                    << s->toolTip().toStdString() << " " << s->width() << "×" << s->height();
            }
        }
    }
    setLanguage(QStringLiteral("en"));
}

INSTANTIATE_TEST_SUITE_P(Screens, LessonLayout, testing::classroomScreens(), testing::screenName);

}  // namespace
}  // namespace attnlab
