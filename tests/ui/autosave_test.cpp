// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/io/autosave.h"

#include <gtest/gtest.h>
#include <sys/file.h>

#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QDir>
#include <QFileInfo>
#include <QProcess>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QThread>

#include "support/session_test_support.h"
#include "ui/document/document.h"
#include "ui/window/main_window.h"

namespace attnlab {
namespace {

void editSomething(Document* doc)
{
    attn::VectorEdit e;
    e.role = attn::Role::Key;
    e.index = 1;
    e.scale = 2.0;
    ASSERT_TRUE(doc->editVector(e));
}

// A recovery file as a crashed process would leave it: session, source and no live lock.
QString plantOrphan(const QString& dir, const QString& id, const Session& s, const QString& source)
{
    QDir().mkpath(dir);
    const QString path = QDir(dir).filePath(QStringLiteral("autosave-%1.attnlab.json").arg(id));
    FileError error;
    if (!writeSessionFile(path, SessionFile{s, {}}, error)) return {};
    testing::writeBytes(dir, QStringLiteral("autosave-%1.source").arg(id), source.toUtf8());
    return path;
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

QString attnlabBinary()
{
    const QString env = qEnvironmentVariable("ATTNLAB_BINARY");
    if (!env.isEmpty()) return env;
#ifdef ATTNLAB_BINARY
    return QStringLiteral(ATTNLAB_BINARY);
#endif
    return QDir(QCoreApplication::applicationDirPath())
        .filePath(QStringLiteral("../../app/attnlab"));
}

// Polls until the file exists (present) or is gone (!present).
bool waitForFile(const QString& path, int ms, bool present = true)
{
    QDeadlineTimer deadline(ms);
    while (QFileInfo::exists(path) != present) {
        if (deadline.hasExpired()) return false;
        QThread::msleep(50);
    }
    return true;
}

// The real program, killed with SIGKILL while it holds unsaved work.
// How the work becomes unsaved without a person: the test plants the recovery file of an
// earlier crash and starts attnlab --recover (a real option: restore without asking). The
// restored session is modified, so the running program autosaves it under its own pid; the
// test waits for that file, kills the program with SIGKILL, checks the file is an orphan
// now, and starts attnlab --recover again, which must take it over.
TEST(Autosave, KilledProcessLeavesWorkThatTheNextStartRestores)
{
    const QString binary = attnlabBinary();
    if (!QFileInfo(binary).isExecutable())
        GTEST_SKIP() << "build attnlab first: " << binary.toStdString();
    QTemporaryDir dir;
    const QString recovery = dir.filePath(QStringLiteral("recovery"));
    const Session lost = testing::richSession();
    const QString planted = plantOrphan(recovery, QStringLiteral("999999993"), lost, QString());
    ASSERT_FALSE(planted.isEmpty());

    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    env.insert(QStringLiteral("ATTNLAB_RECOVERY_DIR"), recovery);
    env.insert(QStringLiteral("ATTNLAB_AUTOSAVE_MS"), QStringLiteral("100"));
    env.insert(QStringLiteral("XDG_CONFIG_HOME"), dir.filePath(QStringLiteral("config")));
    env.insert(QStringLiteral("XDG_DATA_HOME"), dir.filePath(QStringLiteral("data")));
    const auto start = [&](QProcess& p) {
        p.setProcessEnvironment(env);
        p.setProcessChannelMode(QProcess::ForwardedErrorChannel);
        p.start(binary, {QStringLiteral("--recover")});
        return p.waitForStarted(10000);
    };
    const auto fileOf = [&](const QProcess& p) {
        return QDir(recovery).filePath(
            QStringLiteral("autosave-%1.attnlab.json").arg(p.processId()));
    };

    QProcess first;
    ASSERT_TRUE(start(first));
    const QString firstFile = fileOf(first);
    ASSERT_TRUE(waitForFile(firstFile, 30000)) << "the running program never autosaved";
    // The program writes its own copy first and drops the one it restored from after.
    ASSERT_TRUE(waitForFile(planted, 30000, false)) << "the restored orphan was kept";
    first.kill();  // SIGKILL: no destructor, no clean-up
    ASSERT_TRUE(first.waitForFinished(10000));
    ASSERT_TRUE(QFileInfo::exists(firstFile));
    const QList<Autosave::Orphan> orphans = Autosave::findOrphans(recovery);
    ASSERT_EQ(orphans.size(), 1);
    EXPECT_EQ(orphans.front().sessionPath, firstFile);

    QProcess second;
    ASSERT_TRUE(start(second));
    const QString secondFile = fileOf(second);
    const bool restored = waitForFile(secondFile, 30000);
    const bool tookOver = restored && waitForFile(firstFile, 30000, false);
    second.kill();
    second.waitForFinished(10000);
    ASSERT_TRUE(restored);
    EXPECT_TRUE(tookOver) << "the first program's file was kept";
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
