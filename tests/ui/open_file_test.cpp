// SPDX-License-Identifier: GPL-3.0-or-later
#include <gtest/gtest.h>

#include <QFileInfo>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QUndoStack>

#include "support/session_test_support.h"
#include "ui/document/document.h"
#include "ui/readers/session_file.h"
#include "ui/window/file_actions.h"
#include "ui/window/main_window.h"

namespace attnlab {
namespace {

// Opening a file starts a fresh history, whether the session is computed at once or, above
// kBackgroundCells, on a worker whose result comes in after openFile has returned.
void expectOpensUnmodifiedWithoutUndoStep(int n)
{
    testing::isolateSettings();
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("opened.attnlab.json"));
    SessionFile file;
    file.session = testing::tokenSession(n);
    FileError error;
    ASSERT_TRUE(writeSessionFile(path, file, error)) << error.message().toStdString();

    MainWindow window;
    testing::RecordingDialogs dialogs;
    dialogs.answer = QMessageBox::Discard;  // the change below is not kept
    window.fileActions()->setDialogs(dialogs.dialogs());
    Document* doc = window.document();
    ASSERT_TRUE(doc->setMode(attn::Mode::Causal));  // a change of the session before
    ASSERT_TRUE(window.openFile(path));
    ASSERT_TRUE(window.fileActions()->waitForOpen())
        << dialogs.warnings.join(QLatin1Char('\n')).toStdString();
    EXPECT_EQ(doc->session().targetTokens.size(), n);
    EXPECT_EQ(doc->undoStack()->count(), 0);
    EXPECT_TRUE(doc->undoStack()->isClean());
    EXPECT_FALSE(window.fileActions()->hasUnsavedChanges());
    EXPECT_FALSE(window.isWindowModified());
}

TEST(OpenFile, ASmallSessionOpensUnmodifiedWithoutAnUndoStep)
{
    expectOpensUnmodifiedWithoutUndoStep(8);
}

TEST(OpenFile, ASessionComputedOnAWorkerOpensUnmodifiedWithoutAnUndoStep)
{
    const int n = 1100;
    static_assert(1100L * 1100L >= Document::kBackgroundCells);
    expectOpensUnmodifiedWithoutUndoStep(n);
}

// The file is read and parsed on a worker: openFile returns at once, the window says it is
// busy, and the session comes in through Document::openSession once the reading ended.
TEST(OpenFile, TheFileIsReadOnAWorkerWhileTheWindowShowsItIsBusy)
{
    testing::isolateSettings();
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("read.attnlab.json"));
    SessionFile file;
    file.session = testing::tokenSession(300);
    FileError error;
    ASSERT_TRUE(writeSessionFile(path, file, error)) << error.message().toStdString();

    MainWindow window;
    testing::RecordingDialogs dialogs;
    window.fileActions()->setDialogs(dialogs.dialogs());
    const QStringList before = window.document()->session().targetTokens;
    QSignalSpy opened(window.fileActions(), &FileActions::opened);
    ASSERT_TRUE(window.openFile(path));
    EXPECT_TRUE(window.fileActions()->reading());
    EXPECT_EQ(window.cursor().shape(), Qt::BusyCursor);
    EXPECT_TRUE(window.statusBar()->currentMessage().contains(QStringLiteral("read.attnlab.json")))
        << window.statusBar()->currentMessage().toStdString();
    EXPECT_EQ(window.document()->session().targetTokens, before);  // nothing published yet
    ASSERT_TRUE(opened.wait(10000));
    EXPECT_TRUE(opened.front().front().toBool());
    EXPECT_FALSE(window.fileActions()->reading());
    EXPECT_NE(window.cursor().shape(), Qt::BusyCursor);
    window.document()->flush();
    EXPECT_EQ(window.document()->session().targetTokens.size(), 300);
    EXPECT_EQ(window.fileActions()->currentFile(), QFileInfo(path).absoluteFilePath());
    EXPECT_TRUE(window.document()->undoStack()->isClean());
    EXPECT_TRUE(dialogs.warnings.isEmpty());
}

}  // namespace
}  // namespace attnlab
