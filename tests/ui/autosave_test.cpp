// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/io/autosave.h"

#include <gtest/gtest.h>
#include <sys/file.h>

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QSignalSpy>
#include <QTemporaryDir>

#include "support/kill_test_support.h"
#include "support/session_test_support.h"
#include "ui/document/document.h"
#include "ui/window/main_window.h"

namespace attnlab {
namespace {

using testing::plantOrphan;

void editSomething(Document* doc)
{
    attn::VectorEdit e;
    e.role = attn::Role::Key;
    e.index = 1;
    e.scale = 2.0;
    ASSERT_TRUE(doc->editVector(e));
}

TEST(Autosave, ModifiedSessionIsWrittenAndRemovedWhenSaved)
{
    testing::isolateSettings();
    QTemporaryDir dir;
    MainWindow window;
    Autosave* autosave = window.fileActions()->autosave();
    autosave->setDirectory(dir.filePath(QStringLiteral("recovery")));
    autosave->setInterval(50);
    QSignalSpy written(autosave, &Autosave::written);
    editSomething(window.document());
    ASSERT_TRUE(written.wait(5000));
    const QString path = autosave->recoveryPath();
    SessionFile recovered;
    FileError error;
    ASSERT_TRUE(readSessionFile(path, recovered, error)) << error.message().toStdString();
    EXPECT_EQ(recovered.session.input.edits.size(), 1u);
    // A running process's file is not an orphan.
    EXPECT_TRUE(Autosave::findOrphans(autosave->directory()).isEmpty());

    ASSERT_TRUE(window.fileActions()->saveTo(dir.filePath(QStringLiteral("s.attnlab.json"))));
    EXPECT_FALSE(QFileInfo::exists(path));
}

TEST(Autosave, CleanCloseRemovesTheRecoveryFile)
{
    testing::isolateSettings();
    QTemporaryDir dir;
    QString path;
    {
        MainWindow window;
        testing::RecordingDialogs dialogs;
        dialogs.answer = QMessageBox::Discard;
        window.fileActions()->setDialogs(dialogs.dialogs());
        Autosave* autosave = window.fileActions()->autosave();
        autosave->setDirectory(dir.path());
        editSomething(window.document());
        ASSERT_TRUE(autosave->writeNow());
        path = autosave->recoveryPath();
        ASSERT_TRUE(QFileInfo::exists(path));
        window.show();
        EXPECT_TRUE(window.close());
        EXPECT_FALSE(QFileInfo::exists(path));
    }
    EXPECT_TRUE(QDir(dir.path()).entryList(QDir::Files).isEmpty());
}

TEST(Autosave, StartOffersTheOrphanAndRestoresItAsAModifiedSession)
{
    testing::isolateSettings();
    QTemporaryDir dir;
    const Session lost = testing::richSession();
    const QString source = dir.filePath(QStringLiteral("work.attnlab.json"));
    const QString orphan = plantOrphan(dir.path(), QStringLiteral("999999991"), lost, source);
    ASSERT_FALSE(orphan.isEmpty());
    ASSERT_EQ(Autosave::findOrphans(dir.path()).size(), 1);

    MainWindow window;
    testing::RecordingDialogs dialogs;
    dialogs.answer = QMessageBox::Yes;
    window.fileActions()->setDialogs(dialogs.dialogs());
    window.fileActions()->autosave()->setDirectory(dir.path());
    ASSERT_TRUE(window.fileActions()->offerRecovery());
    // Read on a worker: nothing has changed yet when the offer returns.
    EXPECT_TRUE(window.fileActions()->reading());
    ASSERT_TRUE(window.fileActions()->waitForOpen());
    ASSERT_EQ(dialogs.questions.size(), 1);
    EXPECT_TRUE(dialogs.questions.front().contains(QStringLiteral("work.attnlab.json")));
    window.document()->flush();
    EXPECT_EQ(window.document()->session().targetTokens, lost.targetTokens);
    EXPECT_TRUE(testing::sameBits(window.document()->session().input.X, lost.input.X));
    EXPECT_TRUE(window.isWindowModified());
    EXPECT_EQ(window.fileActions()->currentFile(), source);
    EXPECT_FALSE(QFileInfo::exists(orphan));  // taken over by this process's own file
    EXPECT_TRUE(QFileInfo::exists(window.fileActions()->autosave()->recoveryPath()));
}

TEST(Autosave, DiscardDeletesTheOrphanAndCancelKeepsIt)
{
    testing::isolateSettings();
    QTemporaryDir dir;
    const QString orphan =
        plantOrphan(dir.path(), QStringLiteral("999999992"), defaultSession(), QString());
    MainWindow window;
    testing::RecordingDialogs dialogs;
    window.fileActions()->autosave()->setDirectory(dir.path());
    dialogs.answer = QMessageBox::Cancel;
    window.fileActions()->setDialogs(dialogs.dialogs());
    EXPECT_FALSE(window.fileActions()->offerRecovery());
    EXPECT_TRUE(QFileInfo::exists(orphan));
    dialogs.answer = QMessageBox::Discard;
    window.fileActions()->setDialogs(dialogs.dialogs());
    EXPECT_FALSE(window.fileActions()->offerRecovery());
    EXPECT_FALSE(QFileInfo::exists(orphan));
    EXPECT_FALSE(window.isWindowModified());
}

// The real program, killed with SIGKILL while it holds unsaved work (kill_test_support.h says
// how), and started again: the second start must take the killed program's file over.
TEST(Autosave, KilledProcessLeavesWorkThatTheNextStartRestores)
{
    ASSERT_TRUE(testing::attnlabBuilt());
    QTemporaryDir dir;
    const QString recovery = dir.filePath(QStringLiteral("recovery"));
    const Session lost = testing::richSession();
    const QString planted = plantOrphan(recovery, QStringLiteral("999999993"), lost, QString());
    ASSERT_FALSE(planted.isEmpty());

    const testing::KillRestart run = testing::killAndRestart(recovery, planted, dir.path(), 30000);
    ASSERT_TRUE(run.failure.isEmpty()) << run.failure.toStdString();
    const QString secondFile = run.secondFile;
    SessionFile out;
    FileError error;
    ASSERT_TRUE(readSessionFile(secondFile, out, error)) << error.message().toStdString();
    EXPECT_EQ(out.session.targetTokens, lost.targetTokens);
    EXPECT_TRUE(testing::sameBits(out.session.input.X, lost.input.X));
}

TEST(Autosave, ALockThatAKilledProcessLeftWithoutARecoveryFileIsRemoved)
{
    // A process that autosaved, then saved (its recovery file went) and was killed: only its
    // lock and .source stay. Nothing holds the lock any more, so the next look removes them;
    // a lock a live process holds stays, and so does an orphan's (it is offered for recovery).
    QTemporaryDir dir;
    const QString recovery = dir.filePath(QStringLiteral("recovery"));
    QDir().mkpath(recovery);
    testing::writeBytes(recovery, QStringLiteral("autosave-999999991.lock"), {});
    testing::writeBytes(recovery, QStringLiteral("autosave-999999991.source"), "/x.attnlab.json");
    testing::writeBytes(recovery, QStringLiteral("autosave-999999992.lock"), {});
    QFile held(QDir(recovery).filePath(QStringLiteral("autosave-999999992.lock")));
    ASSERT_TRUE(held.open(QIODevice::ReadWrite));
    ASSERT_EQ(::flock(held.handle(), LOCK_EX | LOCK_NB), 0);
    const QString orphan =
        plantOrphan(recovery, QStringLiteral("999999993"), testing::richSession(), QString());
    testing::writeBytes(recovery, QStringLiteral("autosave-999999993.lock"), {});

    const QList<Autosave::Orphan> orphans = Autosave::findOrphans(recovery);
    ASSERT_EQ(orphans.size(), 1);
    EXPECT_EQ(orphans.front().sessionPath, orphan);
    const QStringList left = QDir(recovery).entryList(QDir::Files, QDir::Name);
    EXPECT_FALSE(left.contains(QStringLiteral("autosave-999999991.lock")))
        << left.join(QLatin1Char(' ')).toStdString();
    EXPECT_FALSE(left.contains(QStringLiteral("autosave-999999991.source")));
    EXPECT_TRUE(left.contains(QStringLiteral("autosave-999999992.lock")));
    EXPECT_TRUE(left.contains(QStringLiteral("autosave-999999993.lock")));
}

}  // namespace
}  // namespace attnlab
