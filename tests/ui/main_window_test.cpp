// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/window/main_window.h"

#include <gtest/gtest.h>

#include <QAction>
#include <QDockWidget>
#include <QTabWidget>

#include "ui/document/document.h"

namespace attnlab {
namespace {

TEST(MainWindow, OpensWithTheMapsAndEveryPanel)
{
    MainWindow window;
    window.show();
    EXPECT_TRUE(window.isVisible());
    EXPECT_TRUE(window.windowTitle().contains(QStringLiteral("AttnLab")));
    EXPECT_EQ(window.centralTabs()->count(), 5);
    QStringList docks;
    for (QDockWidget* d : window.findChildren<QDockWidget*>()) docks << d->objectName();
    for (const char* name : {"ControlsDock", "SequencesDock", "RowInspectorDock", "KeysDock",
                             "QueriesDock", "ValuesDock", "MatricesDock"})
        EXPECT_TRUE(docks.contains(QLatin1String(name))) << name;
}

TEST(MainWindow, DoubleKeyActionEditsTheSelectedKeyAndUndoActionRestoresIt)
{
    MainWindow window;
    Document* doc = window.document();
    doc->select(0, 2);
    const attn::Matrix before = doc->result().heads[0].weights;
    QAction* twice = nullptr;
    QAction* undo = nullptr;
    for (QAction* a : window.findChildren<QAction*>()) {
        if (a->shortcut() == QKeySequence(Qt::CTRL | Qt::Key_D)) twice = a;
        if (a->shortcut() == QKeySequence::Undo) undo = a;
    }
    ASSERT_NE(twice, nullptr);
    ASSERT_NE(undo, nullptr);
    twice->trigger();
    doc->flush();
    EXPECT_NE(doc->result().heads[0].weights, before);
    EXPECT_TRUE(window.isWindowModified());
    undo->trigger();
    doc->flush();
    EXPECT_EQ(doc->result().heads[0].weights, before);
    EXPECT_FALSE(window.isWindowModified());
}

}  // namespace
}  // namespace attnlab
