// SPDX-License-Identifier: GPL-3.0-or-later
// Every kind of bad session file (io/support/bad_sessions.h), opened through the window as a user
// would: each gives a message naming the file, the field and the problem; the open session stays as
// it was and the bad file is never written.

#include <gtest/gtest.h>

#include <QFileInfo>
#include <QTemporaryDir>

#include "io/support/bad_sessions.h"
#include "support/session_test_support.h"
#include "ui/document/document.h"
#include "ui/readers/session_file.h"
#include "ui/window/file_actions.h"
#include "ui/window/main_window.h"

namespace attnlab {
namespace {

using testing::BadSessionFile;

class BadFiles : public ::testing::TestWithParam<BadSessionFile> {};

TEST_P(BadFiles, OpeningNamesFileFieldAndProblemAndKeepsTheSessionAndTheFile)
{
    testing::isolateSettings();
    const BadSessionFile& bad = GetParam();
    QTemporaryDir dir;
    const QString good =
        testing::writeBytes(dir.path(), QStringLiteral("good.attnlab.json"),
                            sessionToJson(SessionFile{testing::richSession(), {}}));
    const QByteArray bytes = bad.bytes();
    const QString path = testing::writeBytes(
        dir.path(), QLatin1String(bad.name) + QStringLiteral(".attnlab.json"), bytes);

    MainWindow window;
    testing::RecordingDialogs dialogs;
    window.fileActions()->setDialogs(dialogs.dialogs());
    ASSERT_TRUE(window.openFile(good) && window.fileActions()->waitForOpen());
    Document* doc = window.document();
    attn::VectorEdit e;
    e.scale = 2.0;
    ASSERT_TRUE(doc->editVector(e));  // unsaved work that must survive
    doc->flush();
    const Session before = doc->session();
    const int undoIndex = doc->undoStack()->index();

    // Read on a worker: the warning comes once the reading ends.
    ASSERT_TRUE(window.openFile(path));
    EXPECT_FALSE(window.fileActions()->waitForOpen());
    ASSERT_EQ(dialogs.warnings.size(), 1);
    const QString message = dialogs.warnings.front();
    EXPECT_EQ(window.fileActions()->lastError().message(), message);
    EXPECT_TRUE(message.contains(QFileInfo(path).fileName())) << message.toStdString();
    EXPECT_TRUE(message.contains(QLatin1String(bad.field))) << message.toStdString();
    EXPECT_TRUE(message.contains(QLatin1String(bad.problem))) << message.toStdString();
    if (*bad.field) {
        EXPECT_TRUE(window.fileActions()->lastError().field.startsWith(QLatin1String(bad.field)));
    }
    EXPECT_TRUE(dialogs.questions.isEmpty());  // refused before asking about unsaved work

    doc->flush();
    EXPECT_EQ(doc->session().targetTokens, before.targetTokens);
    EXPECT_TRUE(testing::sameBits(doc->session().input.X, before.input.X));
    EXPECT_EQ(doc->session().input.edits.size(), before.input.edits.size());
    EXPECT_EQ(doc->undoStack()->index(), undoIndex);
    EXPECT_TRUE(window.isWindowModified());
    EXPECT_EQ(window.fileActions()->currentFile(), QFileInfo(good).absoluteFilePath());

    ASSERT_TRUE(window.fileActions()->save());  // goes to good.attnlab.json, not the bad file
    EXPECT_EQ(testing::readBytes(path), bytes);
}

INSTANTIATE_TEST_SUITE_P(BadFile, BadFiles, ::testing::ValuesIn(testing::badSessionFiles()),
                         [](const ::testing::TestParamInfo<BadSessionFile>& param) {
                             return std::string(param.param.name);
                         });

}  // namespace
}  // namespace attnlab
