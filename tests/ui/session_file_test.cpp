// SPDX-License-Identifier: GPL-3.0-or-later
// Session files through the window: Save and Open, closing with unsaved changes, a dropped
// file. The readers alone (round trips, layout, a failed save) are io_tests' session_file_test.
#include "ui/readers/session_file.h"

#include <gtest/gtest.h>

#include <QCoreApplication>
#include <QDropEvent>
#include <QFileInfo>
#include <QMimeData>
#include <QTemporaryDir>
#include <QUrl>

#include "support/session_test_support.h"
#include "ui/document/document.h"
#include "ui/readers/session_format.h"
#include "ui/window/file_actions.h"
#include "ui/window/main_window.h"

namespace attnlab {
namespace {

using testing::richFile;
using testing::sameBits;

TEST(SessionFile, WindowSaveMarksCleanNamesTheTitleAndOpenRestoresSessionAndView)
{
    testing::isolateSettings();
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("lesson.attnlab.json"));
    FileError error;
    ASSERT_TRUE(writeSessionFile(path, richFile(), error));

    MainWindow window;
    testing::RecordingDialogs dialogs;
    window.fileActions()->setDialogs(dialogs.dialogs());
    ASSERT_TRUE(window.openFile(path) && window.fileActions()->waitForOpen());
    Document* doc = window.document();
    doc->flush();
    EXPECT_TRUE(sameBits(doc->session().input.X, richFile().session.input.X));
    EXPECT_EQ(doc->head(), 1);
    EXPECT_EQ(doc->selectedRow(), 2);
    EXPECT_EQ(doc->selectedColumn(), 1);
    EXPECT_FALSE(window.isWindowModified());
    EXPECT_TRUE(window.windowTitle().startsWith(QStringLiteral("lesson.attnlab.json")));
    EXPECT_EQ(window.fileActions()->recentFiles().value(0), QFileInfo(path).absoluteFilePath());

    attn::VectorEdit e;
    e.role = attn::Role::Query;
    e.index = 1;
    e.scale = 3.0;
    ASSERT_TRUE(doc->editVector(e));
    EXPECT_TRUE(window.isWindowModified());
    ASSERT_TRUE(window.fileActions()->save());
    EXPECT_FALSE(window.isWindowModified());
    SessionFile saved;
    ASSERT_TRUE(readSessionFile(path, saved, error));
    ASSERT_NE(attn::findEdit(saved.session.input.edits, attn::Role::Query, 0, 1), nullptr);
    EXPECT_TRUE(dialogs.warnings.isEmpty());

    dialogs.savePath = dir.filePath(QStringLiteral("copy"));
    window.fileActions()->setDialogs(dialogs.dialogs());
    ASSERT_TRUE(window.fileActions()->saveAs());
    EXPECT_TRUE(QFileInfo::exists(dir.filePath(QStringLiteral("copy.attnlab.json"))));
    EXPECT_TRUE(window.windowTitle().startsWith(QStringLiteral("copy.attnlab.json")));
}

TEST(SessionFile, CloseWithUnsavedChangesAsksAndCancelKeepsTheWindowOpen)
{
    testing::isolateSettings();
    MainWindow window;
    window.show();
    testing::RecordingDialogs dialogs;
    dialogs.answer = QMessageBox::Cancel;
    window.fileActions()->setDialogs(dialogs.dialogs());
    EXPECT_TRUE(window.close());  // clean: no question
    EXPECT_TRUE(dialogs.questions.isEmpty());
    window.show();
    attn::VectorEdit e;
    e.scale = 2.0;
    ASSERT_TRUE(window.document()->editVector(e));
    EXPECT_FALSE(window.close());
    EXPECT_EQ(dialogs.questions.size(), 1);
    EXPECT_TRUE(window.isVisible());
    dialogs.answer = QMessageBox::Discard;
    window.fileActions()->setDialogs(dialogs.dialogs());
    EXPECT_TRUE(window.close());
    EXPECT_EQ(dialogs.questions.size(), 2);
}

TEST(SessionFile, DroppingAFileOnTheWindowOpensIt)
{
    testing::isolateSettings();
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("dropped.attnlab.json"));
    FileError error;
    ASSERT_TRUE(writeSessionFile(path, richFile(), error));
    MainWindow window;
    window.show();
    EXPECT_TRUE(window.acceptDrops());
    QMimeData mime;
    mime.setUrls({QUrl::fromLocalFile(path)});
    QDragEnterEvent enter(QPoint(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QCoreApplication::sendEvent(&window, &enter);
    EXPECT_TRUE(enter.isAccepted());
    QDropEvent drop(QPointF(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QCoreApplication::sendEvent(&window, &drop);
    EXPECT_TRUE(window.fileActions()->waitForOpen());  // read on a worker
    EXPECT_EQ(window.fileActions()->currentFile(), QFileInfo(path).absoluteFilePath());
    EXPECT_EQ(window.document()->session().targetTokens, richFile().session.targetTokens);
}

}  // namespace
}  // namespace attnlab
