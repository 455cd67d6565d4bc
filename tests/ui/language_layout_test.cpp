// SPDX-License-Identifier: GPL-3.0-or-later
// A language switch rebuilds the window's menus, tabs and docks around the same document; the
// layout must come back as it was: each dock keeps its size and the central map its room.
// (In the walkthrough at 1366×768 the right-hand docks grew to about 60 % of the window and the
// current step's map shrank to a strip.)
#include <cstdlib>
#include <gtest/gtest.h>

#include <QDockWidget>
#include <QTabWidget>
#include <QTest>

#include "support/session_test_support.h"
#include "ui/document/document.h"
#include "ui/window/language.h"
#include "ui/window/lesson_actions.h"
#include "ui/window/main_window.h"
#include "ui/window/walkthrough_actions.h"

namespace attnlab {
namespace {

QMap<QString, QRect> dockGeometries(MainWindow& window)
{
    QMap<QString, QRect> out;
    for (QDockWidget* d : window.findChildren<QDockWidget*>())
        if (d->isVisible()) out[d->objectName()] = d->geometry();
    return out;
}

void settle()
{
    for (int i = 0; i < 5; ++i) {
        QCoreApplication::sendPostedEvents();
        QCoreApplication::processEvents();
    }
}

TEST(LanguageLayout, SwitchingLanguageKeepsEveryDockSizeAndTheCentralRoom)
{
    for (const char* lessonId : {"coreference-tired", "hand-exercise"}) {
        SCOPED_TRACE(lessonId);
        testing::isolateSettings();
        setLanguage(QStringLiteral("en"));
        settle();
        MainWindow window;
        window.resize(1366, 768);
        window.show();
        ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
        auto* lessons = window.findChild<LessonActions*>();
        ASSERT_TRUE(lessons->openLesson(QString::fromLatin1(lessonId)));
        window.document()->flush();
        window.findChild<WalkthroughActions*>()->showTab();
        settle();
        const QMap<QString, QRect> before = dockGeometries(window);
        const QSize central = window.centralWidget()->size();
        ASSERT_FALSE(before.isEmpty());

        for (const char* language : {"zh_CN", "en"}) {
            SCOPED_TRACE(language);
            setLanguage(QString::fromLatin1(language));
            settle();
            const QMap<QString, QRect> after = dockGeometries(window);
            EXPECT_EQ(after.keys(), before.keys());
            // A line of text more or less in the other language's font (Noto CJK's lines are
            // taller) may move a splitter a little; a dock that grows over the map may not.
            const auto near = [](int a, int b) { return std::abs(a - b) <= std::max(24, b / 12); };
            for (auto it = before.cbegin(); it != before.cend(); ++it) {
                const QRect now = after.value(it.key());
                EXPECT_TRUE(near(now.width(), it->width()))
                    << it.key().toStdString() << " " << now.width() << " vs " << it->width();
                EXPECT_TRUE(near(now.height(), it->height()))
                    << it.key().toStdString() << " " << now.height() << " vs " << it->height();
            }
            const QSize room = window.centralWidget()->size();
            EXPECT_GE(room.width(), central.width() - 12);
            EXPECT_GE(room.height(), central.height() - 12);
            EXPECT_EQ(window.centralTabs()->currentWidget()->objectName(),
                      QStringLiteral("walkthroughTab"));
        }
    }
    setLanguage(QStringLiteral("en"));
}

}  // namespace
}  // namespace attnlab
