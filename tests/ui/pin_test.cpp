// SPDX-License-Identifier: GPL-3.0-or-later
// Pinning shows: the checked action, the badge above the maps, the status bar, the Difference
// map's message when nothing is pinned, and the keyboard reaching the window after the start
// page (Ctrl+P did nothing until the window was clicked).
#include <gtest/gtest.h>

#include <QAction>
#include <QApplication>
#include <QLabel>
#include <QPushButton>
#include <QSettings>
#include <QStatusBar>
#include <QTest>

#include "support/session_test_support.h"
#include "ui/document/document.h"
#include "ui/panels/weights_panel.h"
#include "ui/views/heatmap_view.h"
#include "ui/window/language.h"
#include "ui/window/lesson_actions.h"
#include "ui/window/main_window.h"
#include "ui/window/start_page.h"
#include "ui/window/window_actions.h"

namespace attnlab {
namespace {

attn::VectorEdit doubled(attn::Role role, int index)
{
    attn::VectorEdit e;
    e.role = role;
    e.index = index;
    e.scale = 2.0;
    return e;
}

TEST(Pin, TheActionIsCheckedExactlyWhileWeightsArePinnedThroughPinUnpinAndUndo)
{
    MainWindow window;
    Document* doc = window.document();
    auto* actions = window.findChild<WindowActions*>();
    ASSERT_NE(actions, nullptr);
    QAction* pin = actions->pin();
    ASSERT_TRUE(pin->isCheckable());
    EXPECT_FALSE(pin->isChecked());

    pin->trigger();
    EXPECT_TRUE(doc->pinnedWeights().has_value());
    EXPECT_TRUE(pin->isChecked());
    pin->trigger();
    EXPECT_FALSE(doc->pinnedWeights().has_value());
    EXPECT_FALSE(pin->isChecked());

    // An edit and its undo keep the pin (the comparison is the point of it).
    pin->trigger();
    ASSERT_TRUE(doc->editVector(doubled(attn::Role::Key, 2)));
    doc->flush();
    EXPECT_TRUE(pin->isChecked());
    doc->undoStack()->undo();
    doc->flush();
    EXPECT_TRUE(pin->isChecked());

    // Other tokens drop the pin; undoing them does not bring it back, and the action says so.
    ASSERT_TRUE(
        doc->setTokens(false, {QStringLiteral("a"), QStringLiteral("b"), QStringLiteral("c")}));
    doc->flush();
    EXPECT_FALSE(doc->pinnedWeights().has_value());
    EXPECT_FALSE(pin->isChecked());
    doc->undoStack()->undo();
    doc->flush();
    EXPECT_FALSE(pin->isChecked());

    // Clear pin (Ctrl+Shift+P) unchecks it too.
    pin->trigger();
    ASSERT_TRUE(pin->isChecked());
    doc->clearPin();
    EXPECT_FALSE(pin->isChecked());
}

TEST(Pin, TheBadgeSaysWhatWasPinnedInTheWordsOfTheHistory)
{
    setLanguage(QStringLiteral("en"));  // its plural forms
    Document doc;
    WeightsPanel weights(&doc, WeightsPanel::Kind::Weights);
    WeightsPanel difference(&doc, WeightsPanel::Kind::Difference);
    QLabel* badge = weights.pinBadge();
    EXPECT_TRUE(badge->isHidden());

    ASSERT_TRUE(doc.editVector(doubled(attn::Role::Query, 0)));  // "Edit query 1"
    doc.flush();
    doc.pinWeights();
    EXPECT_FALSE(badge->isHidden());
    EXPECT_EQ(badge->text(),
              QStringLiteral("pinned: the weights shown (edit something to compare)"));

    ASSERT_TRUE(doc.editVector(doubled(attn::Role::Key, 2)));
    doc.flush();
    EXPECT_EQ(badge->text(), QStringLiteral("pinned: before “Edit key 3”"));
    EXPECT_EQ(difference.pinBadge()->text(), badge->text());
    ASSERT_TRUE(doc.editVector(doubled(attn::Role::Key, 0)));
    doc.flush();
    EXPECT_EQ(badge->text(), QStringLiteral("pinned: before “Edit key 3” and 1 later change"));

    doc.undoStack()->undo();
    doc.undoStack()->undo();
    doc.flush();
    EXPECT_EQ(badge->text(),
              QStringLiteral("pinned: the weights shown (edit something to compare)"));
    doc.undoStack()->undo();  // past the pin
    doc.flush();
    EXPECT_EQ(badge->text(), QStringLiteral("pinned: after “Edit query 1”, since undone"));
    // A new change replaces the undone history the pin was taken in.
    ASSERT_TRUE(doc.editVector(doubled(attn::Role::Value, 1)));
    doc.flush();
    EXPECT_EQ(badge->text(), QStringLiteral("pinned: weights of changes that were undone"));

    doc.clearPin();
    EXPECT_TRUE(badge->isHidden());
    EXPECT_TRUE(difference.pinBadge()->isHidden());
}

TEST(Pin, AChangeAfterThePinIsNeverFoldedIntoTheStepBeforeIt)
{
    Document doc;
    ASSERT_TRUE(doc.setTemperature(2.0));
    doc.flush();
    doc.pinWeights();
    ASSERT_TRUE(doc.setTemperature(3.0));  // a burst of these is one step, but not across a pin
    doc.flush();
    EXPECT_EQ(doc.undoStack()->count(), 2);
    EXPECT_TRUE(doc.pinDescription().startsWith(QStringLiteral("pinned: before “")))
        << doc.pinDescription().toStdString();
}

TEST(Pin, TheStatusBarSaysSoWhenPinningAndKeepsSayingWhatIsPinned)
{
    MainWindow window;
    auto* actions = window.findChild<WindowActions*>();
    ASSERT_NE(actions, nullptr);
    QLabel* lasting = actions->pinStatus();
    ASSERT_NE(lasting, nullptr);
    EXPECT_TRUE(lasting->isHidden());
    actions->pin()->trigger();
    EXPECT_TRUE(window.statusBar()->currentMessage().startsWith(QStringLiteral("Pinned")))
        << window.statusBar()->currentMessage().toStdString();
    EXPECT_FALSE(lasting->isHidden());
    EXPECT_EQ(lasting->text(), window.document()->pinDescription());
    actions->pin()->trigger();
    EXPECT_TRUE(window.statusBar()->currentMessage().startsWith(QStringLiteral("Unpinned")));
    EXPECT_TRUE(lasting->isHidden());
}

// With nothing pinned the Difference map drew zeros on a colour bar of ±1e-12.
TEST(Pin, TheDifferenceMapWithNothingPinnedSaysSoInsteadOfDrawingZeros)
{
    Document doc;
    WeightsPanel difference(&doc, WeightsPanel::Kind::Difference);
    EXPECT_TRUE(difference.view()->isHidden());
    EXPECT_FALSE(difference.note()->isHidden());
    EXPECT_TRUE(difference.note()->text().contains(QStringLiteral("Nothing pinned")));
    EXPECT_TRUE(difference.note()->text().contains(QStringLiteral("Ctrl+P")));
    doc.pinWeights();
    // Pinned, nothing changed yet: no map of zeros on a ±1e-6 bar either.
    EXPECT_TRUE(difference.view()->isHidden());
    EXPECT_TRUE(difference.note()->text().contains(QStringLiteral("No change since the pin")));
    ASSERT_TRUE(doc.editVector(doubled(attn::Role::Key, 1)));
    doc.flush();
    EXPECT_FALSE(difference.view()->isHidden());
    EXPECT_TRUE(difference.note()->isHidden());
    EXPECT_GT(difference.view()->drawnRange().upper, 1e-3);
    doc.clearPin();
    EXPECT_TRUE(difference.view()->isHidden());
}

// After the start page closed, the keyboard went nowhere: Ctrl+P and Ctrl+Q did nothing
// until the window was clicked.
TEST(Pin, AfterALessonOpensFromTheStartPageTheWindowHasTheKeyboard)
{
    testing::isolateSettings();
    QSettings().remove(QStringLiteral("lessons"));
    MainWindow window;
    window.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
    auto* lessons = window.findChild<LessonActions*>();
    ASSERT_NE(lessons, nullptr);
    lessons->showStartPage();
    StartPage* page = lessons->startPage();
    ASSERT_NE(page, nullptr);
    ASSERT_TRUE(QTest::qWaitFor([page] { return QApplication::activeWindow() == page; }));
    auto* open = page->findChild<QPushButton*>(QStringLiteral("open-hand-exercise"));
    ASSERT_NE(open, nullptr);
    open->click();
    window.document()->flush();
    EXPECT_TRUE(QTest::qWaitFor([&window] { return QApplication::activeWindow() == &window; }))
        << "active window: "
        << (QApplication::activeWindow() ? qPrintable(QApplication::activeWindow()->objectName())
                                         : "none");
    QWidget* focus = QApplication::focusWidget();
    ASSERT_NE(focus, nullptr);
    EXPECT_TRUE(window.centralWidget()->isAncestorOf(focus)) << qPrintable(focus->objectName());
    // And a shortcut typed now reaches the window's actions.
    QTest::keyClick(focus, Qt::Key_P, Qt::ControlModifier);
    EXPECT_TRUE(window.document()->pinnedWeights().has_value());
}

}  // namespace
}  // namespace attnlab
