// SPDX-License-Identifier: GPL-3.0-or-later
// The model window's document is transactional: a head edit, its run and its undo step are
// published together, only when the run succeeded. A cancelled or failed run leaves the edits,
// the maps and the undo stack as they were; the undo labels follow a language switch.
#include <gtest/gtest.h>

#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include "support/model_folder.h"
#include "support/waits.h"
#include "ui/model/model_document.h"
#include "ui/window/language.h"

namespace attnlab {
namespace {

using testing::settled;

struct OpenDocument {
    QTemporaryDir dir;
    ModelDocument doc;
};

void openDocument(OpenDocument& o)
{
    QString error;
    ASSERT_TRUE(o.doc.open(test::modelFolder(o.dir, "gpt2_tiny", true), error))
        << error.toStdString();
    o.doc.setText(QStringLiteral("the cat sat."));
    o.doc.runNow();
    ASSERT_TRUE(settled(&o.doc));
    ASSERT_NE(o.doc.snapshot(), nullptr);
}

TEST(ModelTransaction, AnEditIsPublishedWithItsRunAndItsUndoStep)
{
    OpenDocument o;
    ASSERT_NO_FATAL_FAILURE(openDocument(o));
    const auto plain = o.doc.snapshot();
    ASSERT_TRUE(o.doc.ablateHead(0, 1, false));
    // Until its run is in, the edit is neither shown, nor in the edits, nor an undo step.
    EXPECT_TRUE(o.doc.edits().empty());
    EXPECT_EQ(o.doc.undoStack()->count(), 0);
    EXPECT_EQ(o.doc.snapshot(), plain);
    ASSERT_TRUE(settled(&o.doc));
    EXPECT_EQ(o.doc.edits().size(), 1u);
    EXPECT_EQ(o.doc.undoStack()->count(), 1);
    EXPECT_EQ(o.doc.snapshot()->edits.size(), 1u);
}

TEST(ModelTransaction, ACancelledEditLeavesEditsMapAndUndoStackAsTheyWere)
{
    OpenDocument o;
    ASSERT_NO_FATAL_FAILURE(openDocument(o));
    ASSERT_TRUE(o.doc.ablateHead(0, 0, false));
    ASSERT_TRUE(settled(&o.doc));
    const auto shown = o.doc.snapshot();
    const auto edits = o.doc.edits();
    QSignalSpy noticed(&o.doc, &ModelDocument::noticed);
    ASSERT_TRUE(o.doc.ablateHead(1, 1, true));
    ASSERT_TRUE(o.doc.running());
    o.doc.cancel();
    ASSERT_TRUE(settled(&o.doc));
    EXPECT_EQ(noticed.count(), 1);
    EXPECT_EQ(o.doc.edits().size(), edits.size());
    EXPECT_FALSE(o.doc.headEdited(1, 1));
    EXPECT_EQ(o.doc.snapshot(), shown);
    EXPECT_EQ(o.doc.snapshot()->edits.size(), o.doc.edits().size());
    EXPECT_EQ(o.doc.undoStack()->count(), 1);
    EXPECT_EQ(o.doc.undoStack()->index(), 1);
}

TEST(ModelTransaction, AnEditWhoseRunFailsLeavesEditsMapAndUndoStackAsTheyWere)
{
    OpenDocument o;
    ASSERT_NO_FATAL_FAILURE(openDocument(o));
    const auto shown = o.doc.snapshot();
    QSignalSpy errors(&o.doc, &ModelDocument::errorOccurred);
    o.doc.setText(QString(40, QLatin1Char('x')));  // 40 tokens; the model has 32 positions
    ASSERT_TRUE(o.doc.ablateHead(0, 1, false));    // runs with that text, and fails
    ASSERT_TRUE(settled(&o.doc));
    ASSERT_EQ(errors.count(), 1);
    EXPECT_TRUE(errors.front().front().toString().contains(QStringLiteral("40 tokens")));
    EXPECT_TRUE(o.doc.edits().empty());
    EXPECT_EQ(o.doc.undoStack()->count(), 0);
    EXPECT_EQ(o.doc.snapshot(), shown);
}

TEST(ModelTransaction, EditsMadeDuringARunAreEachOneUndoStepOfTheLatestRun)
{
    OpenDocument o;
    ASSERT_NO_FATAL_FAILURE(openDocument(o));
    ASSERT_TRUE(o.doc.ablateHead(0, 1, false));
    ASSERT_TRUE(o.doc.ablateHead(1, 2, true));
    ASSERT_TRUE(settled(&o.doc));
    EXPECT_EQ(o.doc.edits().size(), 2u);
    EXPECT_EQ(o.doc.snapshot()->edits.size(), 2u);
    ASSERT_EQ(o.doc.undoStack()->count(), 2);
    o.doc.undoStack()->undo();
    ASSERT_TRUE(settled(&o.doc));
    ASSERT_EQ(o.doc.edits().size(), 1u);
    EXPECT_TRUE(o.doc.headAblated(0, 1));
    EXPECT_EQ(o.doc.snapshot()->edits.size(), 1u);
}

TEST(ModelTransaction, UndoLabelsFollowALanguageSwitch)
{
    OpenDocument o;
    ASSERT_NO_FATAL_FAILURE(openDocument(o));
    ASSERT_TRUE(o.doc.ablateHead(0, 1, false));
    ASSERT_TRUE(settled(&o.doc));
    EXPECT_EQ(o.doc.undoStack()->text(0), QStringLiteral("Switch off layer 1, head 2"));
    setLanguage(QStringLiteral("zh_CN"));
    EXPECT_EQ(o.doc.undoStack()->text(0), QStringLiteral("关闭第 1 层的头 2"));
    setLanguage(QStringLiteral("en"));
    EXPECT_EQ(o.doc.undoStack()->text(0), QStringLiteral("Switch off layer 1, head 2"));
}

}  // namespace
}  // namespace attnlab
