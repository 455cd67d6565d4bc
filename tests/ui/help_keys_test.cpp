// SPDX-License-Identifier: GPL-3.0-or-later
// Help beyond the menus: the shortcut list names the keys that no menu action carries (the
// presenter's tools, the walkthrough's arrows, Ctrl+click masking, the model view's arrows) and
// an open model window's shortcuts; the model window has the guide on F1 and a list of its own;
// an open guide follows the interface language.
#include <gtest/gtest.h>

#include <QAction>
#include <QCoreApplication>
#include <QLabel>
#include <QMenu>
#include <QSet>
#include <QTest>
#include <QTextBrowser>
#include <QTreeWidget>

#include "support/session_test_support.h"
#include "ui/model/model_window.h"
#include "ui/model/model_windows.h"
#include "ui/presenter/mark_store.h"
#include "ui/presenter/presenter_window.h"
#include "ui/views/help_dialogs.h"
#include "ui/window/language.h"
#include "ui/window/main_window.h"

namespace attnlab {
namespace {

QString keysText(const QAction* a)
{
    QStringList keys;
    for (const QKeySequence& k : a->shortcuts()) keys << k.toString(QKeySequence::NativeText);
    return keys.join(QStringLiteral(", "));
}

// The rows of an open shortcut list, as "group|action|keys".
QSet<QString> rowsOf(const QWidget* owner)
{
    QSet<QString> rows;
    const auto* dialog = owner->findChild<ShortcutsDialog*>();
    if (dialog == nullptr) return rows;
    const QTreeWidget* tree = dialog->tree();
    for (int g = 0; g < tree->topLevelItemCount(); ++g) {
        const QTreeWidgetItem* group = tree->topLevelItem(g);
        for (int i = 0; i < group->childCount(); ++i)
            rows << group->text(0) + QLatin1Char('|') + group->child(i)->text(0) +
                        QLatin1Char('|') + group->child(i)->text(1);
    }
    return rows;
}

bool listsKey(const QStringList& keys, const QString& key)
{
    for (const QString& k : keys) {
        if (k == key) return true;
        // A range such as "1 … 4".
        const QStringList ends = k.split(QStringLiteral(" … "));
        bool lo = false, hi = false, digit = false;
        if (ends.size() == 2) {
            const int a = ends[0].toInt(&lo), b = ends[1].toInt(&hi), d = key.toInt(&digit);
            if (lo && hi && digit && d >= a && d <= b) return true;
        }
    }
    return false;
}

TEST(HelpKeys, ThePresenterKeysInTheListAreThePresenterWindowsOwn)
{
    testing::isolateSettings();
    setLanguage(QStringLiteral("en"));
    QCoreApplication::sendPostedEvents();
    QStringList listed;
    for (const ShortcutEntry& e : keysWithoutActions())
        if (e.group.startsWith(QLatin1String("Presenter")))
            listed += e.keys.split(QStringLiteral(", "));
    ASSERT_FALSE(listed.isEmpty());
    MarkStore marks;
    auto* content = new QLabel(QStringLiteral("a view"));
    PresenterWindow presenter(content, &marks, QStringLiteral("page"));
    int checked = 0;
    for (const QAction* a : presenter.actions()) {
        if (a->shortcuts().isEmpty()) continue;
        EXPECT_TRUE(listsKey(listed, keysText(a)))
            << keysText(a).toStdString() << " is a presenter key the list does not name";
        ++checked;
    }
    EXPECT_GE(checked, 10);
    EXPECT_TRUE(listed.contains(QStringLiteral("Esc")));
    EXPECT_TRUE(listed.contains(QStringLiteral("F5")));
}

TEST(HelpKeys, TheWorkbenchListNamesTheWalkthroughArrowsCtrlClickAndAnOpenModelWindowsKeys)
{
    testing::isolateSettings();
    setLanguage(QStringLiteral("en"));
    QCoreApplication::sendPostedEvents();
    MainWindow window;
    window.show();
    ModelWindow* model = window.modelWindows()->window();
    ASSERT_NE(model, nullptr);
    auto* open = window.findChild<QAction*>(QStringLiteral("HelpShortcutsAction"));
    ASSERT_NE(open, nullptr);
    open->trigger();
    const QSet<QString> rows = rowsOf(&window);
    EXPECT_TRUE(rows.contains(QStringLiteral("Walkthrough|Next step|Right, Page Down, Space")));
    EXPECT_TRUE(
        rows.contains(QStringLiteral("Heatmaps|Mask or unmask a cell of the weights "
                                     "map|Ctrl+click")));
    EXPECT_TRUE(rows.contains(QStringLiteral("Presenter view (F5)|Pen|P")));
    int modelKeys = 0;
    for (const QAction* a : model->findChildren<QAction*>()) {
        if (a->shortcuts().isEmpty() || a->menu()) continue;
        bool found = false;
        for (const QString& r : rows)
            found |= r.startsWith(QStringLiteral("Model window ▸ ")) &&
                     r.endsWith(QLatin1Char('|') + keysText(a));
        EXPECT_TRUE(found) << keysText(a).toStdString() << " of the model window";
        ++modelKeys;
    }
    EXPECT_GE(modelKeys, 8);
    model->close();
}

TEST(HelpKeys, TheModelWindowHasTheGuideOnF1AndItsOwnShortcutList)
{
    testing::isolateSettings();
    setLanguage(QStringLiteral("en"));
    QCoreApplication::sendPostedEvents();
    ModelWindow model;
    model.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&model));
    auto* guide = model.findChild<QAction*>(QStringLiteral("HelpGuideAction"));
    ASSERT_NE(guide, nullptr);
    EXPECT_EQ(guide->shortcut(), QKeySequence(QKeySequence::HelpContents));
    QTest::keyClick(&model, Qt::Key_F1);
    QCoreApplication::processEvents();
    auto* dialog = model.findChild<GuideDialog*>();
    ASSERT_NE(dialog, nullptr) << "F1 opens the guide in the model window";
    EXPECT_TRUE(dialog->browser()->toPlainText().contains(QStringLiteral("GPT-2")));

    model.findChild<QAction*>(QStringLiteral("HelpShortcutsAction"))->trigger();
    const QSet<QString> rows = rowsOf(&model);
    const QString run = keysText(model.findChild<QAction*>(QStringLiteral("nextSink")));
    bool sink = false;
    for (const QString& r : rows) sink |= r.endsWith(QLatin1Char('|') + run);
    EXPECT_TRUE(sink) << "the model window's own actions are listed";
    EXPECT_TRUE(
        rows.contains(QStringLiteral("Model view|Move between heads and layers|Arrow keys")));
}

TEST(HelpKeys, AnOpenGuideFollowsTheInterfaceLanguage)
{
    testing::isolateSettings();
    setLanguage(QStringLiteral("en"));
    QCoreApplication::sendPostedEvents();
    GuideDialog guide;
    guide.show();
    EXPECT_TRUE(guide.browser()->toPlainText().contains(QStringLiteral("The five steps")));
    setLanguage(QStringLiteral("zh_CN"));
    QCoreApplication::sendPostedEvents();
    QCoreApplication::processEvents();
    EXPECT_TRUE(guide.browser()->toPlainText().contains(QStringLiteral("五个步骤")));
    EXPECT_EQ(guide.windowTitle(), GuideDialog::tr("AttnLab user guide"));
    setLanguage(QStringLiteral("en"));
    QCoreApplication::sendPostedEvents();
    QCoreApplication::processEvents();
    EXPECT_TRUE(guide.browser()->toPlainText().contains(QStringLiteral("The five steps")));
}

}  // namespace
}  // namespace attnlab
