// SPDX-License-Identifier: GPL-3.0-or-later
// The long-session document's policy (Refuse) and transactions: a change while one computes is
// refused with a message and changes nothing; a cancelled one leaves the session and the undo
// stack as they were; its undo labels follow a language switch.
#include <gtest/gtest.h>

#include <QSignalSpy>
#include <QTest>

#include "support/waits.h"
#include "ui/document/long_document.h"
#include "ui/window/language.h"

namespace attnlab {
namespace {

using testing::idle;

// Keys of 64 components: a change computes long enough to be refused or cancelled meanwhile.
Session wideKeySession(long n)
{
    return testing::longSession(n, attn::Mode::Self, 1, 64, 11);
}

TEST(LongTransaction, AChangeWhileOneComputesIsRefusedAndChangesNothing)
{
    LongDocument doc;
    ASSERT_TRUE(doc.open(wideKeySession(4000)));
    ASSERT_TRUE(idle(&doc));
    ASSERT_TRUE(doc.scaleKey(0, 3, 2.0));
    ASSERT_TRUE(doc.computing());
    QSignalSpy errors(&doc, &LongDocument::errorOccurred);
    EXPECT_FALSE(doc.setMode(attn::Mode::Causal));
    EXPECT_EQ(errors.count(), 1);
    EXPECT_TRUE(doc.computing());  // the first change goes on
    ASSERT_TRUE(idle(&doc));
    EXPECT_EQ(doc.session().input.mode, attn::Mode::Self);
    EXPECT_EQ(doc.session().input.edits.size(), 1u);
    EXPECT_EQ(doc.undoStack()->count(), 1);
}

TEST(LongTransaction, ACancelledChangeLeavesSessionAndUndoStackAsTheyWere)
{
    LongDocument doc;
    ASSERT_TRUE(doc.open(wideKeySession(4000)));
    ASSERT_TRUE(idle(&doc));
    ASSERT_TRUE(doc.scaleKey(0, 3, 2.0));
    ASSERT_TRUE(idle(&doc));
    const Session before = doc.session();
    const auto shown = doc.result();
    ASSERT_TRUE(doc.scaleKey(0, 5, 3.0));
    doc.cancel();
    ASSERT_TRUE(idle(&doc));
    EXPECT_EQ(doc.session().input.edits.size(), before.input.edits.size());
    EXPECT_EQ(doc.result(), shown);
    EXPECT_EQ(doc.undoStack()->count(), 1);
    EXPECT_EQ(doc.undoStack()->index(), 1);
}

TEST(LongTransaction, UndoLabelsFollowALanguageSwitch)
{
    LongDocument doc;
    ASSERT_TRUE(doc.open(wideKeySession(300)));
    ASSERT_TRUE(idle(&doc));
    ASSERT_TRUE(doc.setMode(attn::Mode::Causal));
    ASSERT_TRUE(idle(&doc));
    EXPECT_EQ(doc.undoStack()->text(0), QStringLiteral("Change the mode"));
    setLanguage(QStringLiteral("zh_CN"));
    EXPECT_EQ(doc.undoStack()->text(0), QStringLiteral("更改模式"));
    setLanguage(QStringLiteral("en"));
    EXPECT_EQ(doc.undoStack()->text(0), QStringLiteral("Change the mode"));
}

}  // namespace
}  // namespace attnlab
