// SPDX-License-Identifier: GPL-3.0-or-later
// A session that only the long path can hold (every stage in double over the memory budget,
// the weights in float within it) opens in the main window: its map in the Long map tab, the
// other views and panels stepping aside with a message, and the window's Save, Export,
// undo/redo, autosave, crash recovery and language switch serving it. Real files on disk.
#include <gtest/gtest.h>

#include <QAction>
#include <QApplication>
#include <QDir>
#include <QDockWidget>
#include <QDoubleSpinBox>
#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>

#include "core/random_init.h"
#include "support/kill_test_support.h"
#include "support/session_test_support.h"
#include "support/waits.h"
#include "ui/document/document.h"
#include "ui/document/long_document.h"
#include "ui/io/autosave.h"
#include "ui/panels/long_map_panel.h"
#include "ui/panels/long_panel.h"
#include "ui/panels/weights_panel.h"
#include "ui/presenter/presenter_window.h"
#include "ui/readers/session_file.h"
#include "ui/views/panel_message.h"
#include "ui/window/export_actions.h"
#include "ui/window/file_actions.h"
#include "ui/window/language.h"
#include "ui/window/main_window.h"
#include "ui/window/presenter_actions.h"
#include "ui/window/quit_flow.h"
#include "ui/window/window_actions.h"

namespace attnlab {
namespace {

using testing::idle;
using testing::plantOrphan;

// 17,000 tokens: every stage in double would need 6.7 GiB, the weights in float 1.1 GiB.
constexpr long kTokens = 17000;

Session onlyLongSession(attn::Mode mode = attn::Mode::Causal)
{
    return testing::longSession(kTokens, mode, 1, 1);
}

QString writeLong(const QTemporaryDir& dir, const QString& name,
                  const Session& s = onlyLongSession())
{
    const QString path = dir.filePath(name);
    FileError error;
    EXPECT_TRUE(writeSessionFile(path, SessionFile{s, {}}, error)) << error.message().toStdString();
    return path;
}

// Opens `path` as File ▸ Open does and waits for the worker that reads it.
bool openAndWait(MainWindow& window, const QString& path)
{
    return window.openFile(path) && window.fileActions()->waitForOpen();
}

// Scales key `key` (from 1) by `scale` with the long panel's own controls.
void scaleKeyWithThePanel(MainWindow& window, int key, double scale)
{
    LongPanel* panel = window.longMapPanel()->panel();
    panel->keyBox()->setValue(key);
    panel->scaleBox()->setValue(scale);
    QTest::mouseClick(panel->applyButton(), Qt::LeftButton);
}

// The docks' notes that they cannot serve a long session, as a dock shows them when opened.
QList<PanelMessage*> longMessages(const MainWindow& window)
{
    QList<PanelMessage*> shown;
    for (QDockWidget* dock : window.findChildren<QDockWidget*>())
        for (auto* m : dock->findChildren<PanelMessage*>(QStringLiteral("LongSessionMessage")))
            if (m->isVisibleTo(dock)) shown << m;
    return shown;
}

QStringList visibleDocks(const MainWindow& window)
{
    QStringList names;
    for (QDockWidget* dock : window.findChildren<QDockWidget*>())
        if (dock->isVisible()) names << dock->objectName();
    names.sort();
    return names;
}

// Shows the window with its questions and warnings recorded in `dialogs`.
bool show(MainWindow& window, testing::RecordingDialogs& dialogs)
{
    window.fileActions()->setDialogs(dialogs.dialogs());
    window.show();
    return QTest::qWaitForWindowExposed(&window);
}

TEST(LongSession, AFileOnlyTheLongPathHoldsOpensInTheMainWindowAndThePanelsStepAside)
{
    testing::isolateSettings();
    QTemporaryDir dir;
    const QString path = writeLong(dir, QStringLiteral("long.attnlab.json"));
    MainWindow window;
    testing::RecordingDialogs dialogs;
    ASSERT_TRUE(show(window, dialogs));
    const QStringList docks = visibleDocks(window);
    ASSERT_FALSE(docks.isEmpty());
    const int windows = QApplication::topLevelWidgets().size();
    ASSERT_TRUE(openAndWait(window, path))
        << dialogs.warnings.join(QLatin1Char('\n')).toStdString();
    EXPECT_TRUE(dialogs.warnings.isEmpty());
    EXPECT_EQ(QApplication::topLevelWidgets().size(), windows);  // no window of its own
    ASSERT_TRUE(window.showsLongSession());
    LongMapPanel* page = window.longMapPanel();
    ASSERT_NE(page, nullptr);
    EXPECT_EQ(window.centralTabs()->currentWidget(), page);
    EXPECT_TRUE(window.windowTitle().contains(QStringLiteral("long.attnlab.json")));
    EXPECT_EQ(window.fileActions()->recentFiles().value(0), QFileInfo(path).absoluteFilePath());
    ASSERT_TRUE(idle(window.longDocument()));
    ASSERT_TRUE(page->showsMap());
    EXPECT_EQ(page->map()->content().rows(), kTokens);
    EXPECT_TRUE(page->map()->content().causal);
    EXPECT_FALSE(window.isWindowModified());

    // The workbench's views and panels step aside, saying why; the map has their room.
    EXPECT_TRUE(visibleDocks(window).isEmpty()) << visibleDocks(window).join(u' ').toStdString();
    // Pin and ×2 change the workbench's session, which waits meanwhile.
    EXPECT_FALSE(window.findChild<WindowActions*>()->doubleKey()->isEnabled());
    for (int i = 0; i < window.centralTabs()->count(); ++i) {
        if (window.centralTabs()->widget(i) == page) continue;
        EXPECT_FALSE(window.centralTabs()->isTabEnabled(i)) << i;
        EXPECT_TRUE(window.centralTabs()->tabToolTip(i).contains(QStringLiteral("long session")));
    }
    const QList<PanelMessage*> messages = longMessages(window);
    EXPECT_GE(messages.size(), 5);  // Controls, Sequences, Matrices, Row inspector, Keys, …
    for (PanelMessage* m : messages)
        EXPECT_TRUE(m->text().contains(QStringLiteral("long session"))) << m->text().toStdString();

    // Export ▸ Figure writes the long map.
    auto* exports = window.findChild<ExportActions*>();
    ASSERT_NE(exports, nullptr);
    for (const char* ext : {"png", "svg"}) {
        const QString out = dir.filePath(QStringLiteral("map.") + QLatin1String(ext));
        QString error;
        ASSERT_TRUE(exports->exportLongMap(out, error)) << error.toStdString();
        QFile f(out);
        ASSERT_TRUE(f.open(QIODevice::ReadOnly));
        const QByteArray bytes = f.readAll();
        EXPECT_LT(bytes.size(), 4 << 20) << ext;
        if (QByteArray(ext) == "svg") {
            EXPECT_EQ(bytes.count("<image"), 1);
        } else {
            EXPECT_FALSE(QImage::fromData(bytes).isNull());
        }
    }

    // A workbench file takes the window back: the long session, its tab and the messages go.
    SessionFile small;
    small.session = testing::richSession();
    const QString smallPath = dir.filePath(QStringLiteral("small.attnlab.json"));
    FileError error;
    ASSERT_TRUE(writeSessionFile(smallPath, small, error));
    ASSERT_TRUE(openAndWait(window, smallPath));
    EXPECT_FALSE(window.showsLongSession());
    EXPECT_EQ(window.longMapPanel(), nullptr);
    EXPECT_EQ(window.longDocument()->result(), nullptr);  // its 1.1 GiB are given back
    EXPECT_EQ(window.centralTabs()->count(), 5);
    for (int i = 0; i < window.centralTabs()->count(); ++i)
        EXPECT_TRUE(window.centralTabs()->isTabEnabled(i)) << i;
    EXPECT_TRUE(longMessages(window).isEmpty());
    EXPECT_EQ(visibleDocks(window), docks);  // the workbench's layout is back
    EXPECT_TRUE(window.findChild<WindowActions*>()->doubleKey()->isEnabled());
    EXPECT_EQ(window.document()->session().targetTokens, small.session.targetTokens);
}

TEST(LongSession, TheViewMenuZoomsItsMapAndF5PresentsIt)
{
    testing::isolateSettings();
    QTemporaryDir dir;
    const QString path = writeLong(dir, QStringLiteral("long.attnlab.json"));
    MainWindow window;
    testing::RecordingDialogs dialogs;
    window.resize(1366, 768);
    ASSERT_TRUE(show(window, dialogs));
    auto* longTab = window.findChild<QAction*>(QStringLiteral("LongMapTabAction"));
    ASSERT_NE(longTab, nullptr);
    EXPECT_FALSE(longTab->isVisible());  // no long session yet
    ASSERT_TRUE(openAndWait(window, path));
    ASSERT_TRUE(idle(window.longDocument()));
    LongMapPanel* page = window.longMapPanel();
    ASSERT_TRUE(page && page->showsMap());

    // View lists the Long map tab while the session is open, and the waiting tabs as disabled.
    EXPECT_TRUE(longTab->isVisible());
    window.centralTabs()->setCurrentIndex(0);
    longTab->trigger();
    EXPECT_EQ(window.centralTabs()->currentWidget(), page);

    // View ▸ Zoom in acts on the long map, not on the workbench's map behind it.
    const QCPRange before = page->map()->xAxis->range();
    const QCPRange workbench = window.weightsPanel()->view()->xAxis->range();
    auto* zoomIn = window.findChild<QAction*>(QStringLiteral("ZoomInAction"));
    ASSERT_NE(zoomIn, nullptr);
    zoomIn->trigger();
    EXPECT_LT(page->map()->xAxis->range().size(), before.size() * 0.9);
    EXPECT_EQ(window.weightsPanel()->view()->xAxis->range(), workbench);

    // F5 shows the same weights full screen, without the controls, and Esc leaves.
    auto* presenter = window.findChild<PresenterActions*>();
    ASSERT_NE(presenter, nullptr);
    EXPECT_EQ(presenter->currentView(), QStringLiteral("long"));
    presenter->presenterAction()->trigger();
    QCoreApplication::processEvents();
    PresenterWindow* shown = presenter->presenterWindow();
    ASSERT_NE(shown, nullptr);
    auto* presented = qobject_cast<LongMapPanel*>(shown->content());
    ASSERT_NE(presented, nullptr);
    EXPECT_TRUE(presented->showsMap());
    EXPECT_FALSE(presented->panel()->isVisibleTo(presented));
    EXPECT_EQ(presented->map()->content().rows(), kTokens);
    // Shared, not copied: both maps read the document's one float result.
    EXPECT_EQ(presented->map()->content().floats.get(), page->map()->content().floats.get());
    QTest::keyClick(shown, Qt::Key_Escape);
    QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
    EXPECT_EQ(presenter->presenterWindow(), nullptr);
    EXPECT_TRUE(dialogs.warnings.isEmpty()) << dialogs.warnings.join(u'\n').toStdString();
}

TEST(LongSession, ItsEditsAreUndoStepsOfTheEditMenuAndSaveWritesThemBack)
{
    testing::isolateSettings();
    QTemporaryDir dir;
    const QString path = writeLong(dir, QStringLiteral("edit.attnlab.json"));
    MainWindow window;
    testing::RecordingDialogs dialogs;
    window.fileActions()->setDialogs(dialogs.dialogs());
    window.show();
    ASSERT_TRUE(openAndWait(window, path));
    LongDocument* doc = window.longDocument();
    ASSERT_TRUE(idle(doc));
    auto* actions = window.findChild<WindowActions*>();
    ASSERT_NE(actions, nullptr);
    EXPECT_FALSE(actions->undo()->isEnabled());

    scaleKeyWithThePanel(window, 4, 2.0);
    EXPECT_FALSE(actions->undo()->isEnabled());  // waits while the change computes
    ASSERT_TRUE(idle(doc));
    ASSERT_EQ(doc->session().input.edits.size(), 1U);
    EXPECT_TRUE(window.isWindowModified());
    EXPECT_TRUE(window.fileActions()->hasUnsavedChanges());
    ASSERT_TRUE(actions->undo()->isEnabled());
    EXPECT_TRUE(actions->undo()->text().contains(QStringLiteral("key 4")))
        << actions->undo()->text().toStdString();

    actions->undo()->trigger();
    ASSERT_TRUE(idle(doc));
    EXPECT_TRUE(doc->session().input.edits.empty());
    EXPECT_FALSE(window.isWindowModified());
    ASSERT_TRUE(actions->redo()->isEnabled());
    actions->redo()->trigger();
    ASSERT_TRUE(idle(doc));
    ASSERT_EQ(doc->session().input.edits.size(), 1U);

    // Save writes the edit to the file it came from; reopening gives the same session.
    ASSERT_TRUE(window.fileActions()->save());
    EXPECT_FALSE(window.isWindowModified());
    EXPECT_TRUE(dialogs.warnings.isEmpty());
    ASSERT_TRUE(openAndWait(window, path));
    ASSERT_TRUE(idle(doc));
    EXPECT_EQ(doc->undoStack()->count(), 0);
    ASSERT_EQ(doc->session().input.edits.size(), 1U);
    EXPECT_EQ(doc->session().input.edits[0].index, 3);
    EXPECT_EQ(doc->session().input.edits[0].scale, 2.0);
    EXPECT_EQ(doc->session().targetTokens.size(), kTokens);
    EXPECT_TRUE(testing::sameBits(doc->session().input.X, onlyLongSession().input.X));
}

TEST(LongSession, TheLanguageSwitchRelabelsItsUndoSteps)
{
    testing::isolateSettings();
    QTemporaryDir dir;
    const QString path = writeLong(dir, QStringLiteral("lang.attnlab.json"));
    MainWindow window;
    ASSERT_TRUE(openAndWait(window, path));
    ASSERT_TRUE(idle(window.longDocument()));
    ASSERT_TRUE(window.longDocument()->scaleKey(0, 2, 2.0));
    ASSERT_TRUE(idle(window.longDocument()));
    setLanguage(QStringLiteral("zh_CN"));
    QApplication::processEvents();  // the posted LanguageChange rebuilds the interface
    auto* actions = window.findChild<WindowActions*>();
    ASSERT_NE(actions, nullptr);
    const QString zh = actions->undo()->text();
    // The long tab survives the rebuild, and the step is named in Chinese.
    EXPECT_NE(window.longMapPanel(), nullptr);
    EXPECT_EQ(window.centralTabs()->currentWidget(), window.longMapPanel());
    setLanguage(QStringLiteral("en"));
    QApplication::processEvents();
    actions = window.findChild<WindowActions*>();
    EXPECT_TRUE(zh.contains(QStringLiteral("将键 3 缩放 2 倍"))) << zh.toStdString();
    EXPECT_TRUE(actions->undo()->text().contains(QStringLiteral("Scale key 3 by 2")))
        << actions->undo()->text().toStdString();
}

TEST(LongSession, QuitAsksOnceByItsNameAndSaveAllWritesIt)
{
    testing::isolateSettings();
    QTemporaryDir dir;
    const QString path = writeLong(dir, QStringLiteral("quit.attnlab.json"));
    MainWindow window;
    testing::RecordingDialogs dialogs;
    dialogs.answer = QMessageBox::SaveAll;
    window.fileActions()->setDialogs(dialogs.dialogs());
    window.show();
    ASSERT_TRUE(openAndWait(window, path));
    ASSERT_TRUE(idle(window.longDocument()));
    ASSERT_TRUE(window.longDocument()->scaleKey(0, 7, 2.0));
    ASSERT_TRUE(idle(window.longDocument()));
    ASSERT_TRUE(QuitFlow::quit(&window));
    ASSERT_EQ(dialogs.questions.size(), 1);
    EXPECT_TRUE(dialogs.questions.first().contains(QStringLiteral("quit.attnlab.json")))
        << dialogs.questions.first().toStdString();
    EXPECT_FALSE(window.isVisible());
    SessionFile back;
    FileError error;
    ASSERT_TRUE(readSessionFile(path, back, error)) << error.message().toStdString();
    ASSERT_EQ(back.session.input.edits.size(), 1U);
    EXPECT_EQ(back.session.input.edits[0].index, 7);
}

TEST(LongSession, AutosaveWritesItsEditsAndRecoveryRestoresThemAsALongSession)
{
    testing::isolateSettings();
    QTemporaryDir dir;
    const QString path = writeLong(dir, QStringLiteral("auto.attnlab.json"));
    const QString recovery = dir.filePath(QStringLiteral("recovery"));
    QString kept;
    {
        MainWindow window;
        testing::RecordingDialogs dialogs;
        dialogs.answer = QMessageBox::Discard;
        window.fileActions()->setDialogs(dialogs.dialogs());
        Autosave* autosave = window.fileActions()->autosave();
        autosave->setDirectory(recovery);
        autosave->setInterval(50);
        ASSERT_TRUE(openAndWait(window, path));
        ASSERT_TRUE(idle(window.longDocument()));
        QSignalSpy written(autosave, &Autosave::written);
        ASSERT_TRUE(window.longDocument()->scaleKey(0, 5, 3.0));
        ASSERT_TRUE(idle(window.longDocument()));
        ASSERT_TRUE(written.wait(10000));
        SessionFile back;
        FileError error;
        ASSERT_TRUE(readSessionFile(autosave->recoveryPath(), back, error))
            << error.message().toStdString();
        EXPECT_TRUE(back.onlyWeightsFit);
        ASSERT_EQ(back.session.input.edits.size(), 1U);
        EXPECT_EQ(back.session.input.edits[0].scale, 3.0);
        // What a crash would leave: the same file under a dead process's name.
        kept = plantOrphan(recovery, QStringLiteral("999999981"), back.session, path);
        ASSERT_FALSE(kept.isEmpty());
        window.show();
        EXPECT_TRUE(window.close());  // Discard: the window's own file goes
        EXPECT_FALSE(QFileInfo::exists(autosave->recoveryPath()));
    }

    MainWindow window;
    testing::RecordingDialogs dialogs;
    dialogs.answer = QMessageBox::Yes;
    window.fileActions()->setDialogs(dialogs.dialogs());
    window.fileActions()->autosave()->setDirectory(recovery);
    ASSERT_TRUE(window.fileActions()->offerRecovery());
    // Read on a worker: nothing has changed yet when the offer returns.
    EXPECT_TRUE(window.fileActions()->reading());
    ASSERT_TRUE(window.fileActions()->waitForOpen());
    ASSERT_TRUE(window.showsLongSession());
    LongDocument* doc = window.longDocument();
    EXPECT_EQ(doc->session().targetTokens.size(), kTokens);
    ASSERT_EQ(doc->session().input.edits.size(), 1U);
    EXPECT_EQ(doc->session().input.edits[0].scale, 3.0);
    EXPECT_TRUE(window.isWindowModified());  // restored, not saved
    EXPECT_EQ(window.fileActions()->currentFile(), QFileInfo(path).absoluteFilePath());
    EXPECT_FALSE(QFileInfo::exists(kept));  // taken over by this process's own file
    EXPECT_TRUE(QFileInfo::exists(window.fileActions()->autosave()->recoveryPath()));
    ASSERT_TRUE(idle(doc));
    EXPECT_TRUE(window.longMapPanel()->showsMap());
}

// The real program, killed with SIGKILL while it holds an unsaved long session: as
// Autosave.KilledProcessLeavesWorkThatTheNextStartRestores, with a long orphan planted.
TEST(LongSession, AKilledProcessLeavesALongSessionThatTheNextStartRestores)
{
    ASSERT_TRUE(testing::attnlabBuilt());
    QTemporaryDir dir;
    const QString recovery = dir.filePath(QStringLiteral("recovery"));
    Session lost = onlyLongSession();
    attn::VectorEdit edit;
    edit.role = attn::Role::Key;
    edit.index = 7;
    edit.scale = 2.0;
    lost.input.edits.push_back(edit);
    const QString planted = plantOrphan(recovery, QStringLiteral("999999983"), lost, QString());
    ASSERT_FALSE(planted.isEmpty());

    const testing::KillRestart run = testing::killAndRestart(recovery, planted, dir.path(), 60000);
    ASSERT_TRUE(run.failure.isEmpty()) << run.failure.toStdString();
    const QString secondFile = run.secondFile;
    SessionFile out;
    FileError error;
    ASSERT_TRUE(readSessionFile(secondFile, out, error)) << error.message().toStdString();
    EXPECT_TRUE(out.onlyWeightsFit);
    EXPECT_EQ(out.session.targetTokens.size(), kTokens);
    ASSERT_EQ(out.session.input.edits.size(), 1U);
    EXPECT_EQ(out.session.input.edits[0].index, 7);
}

}  // namespace
}  // namespace attnlab
