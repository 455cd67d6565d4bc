// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/document/document.h"

#include <gtest/gtest.h>

#include <QSignalSpy>
#include <QThreadPool>

#include "support/session_test_support.h"
#include "ui/window/language.h"

namespace attnlab {
namespace {

attn::VectorEdit doubleKey(int index, double scale = 2.0)
{
    attn::VectorEdit e;
    e.role = attn::Role::Key;
    e.index = index;
    e.scale = scale;
    return e;
}

TEST(Document, OpensOnTheHandExerciseWithAResult)
{
    Document doc;
    ASSERT_TRUE(doc.hasResult());
    EXPECT_EQ(doc.session().targetTokens.size(), 4);
    EXPECT_EQ(doc.result().heads[0].weights.rows(), 4);
}

TEST(Document, DoubleKeyThenUndoRestoresTheExactWeights)
{
    Document doc;
    const attn::Matrix before = doc.result().heads[0].weights;
    ASSERT_TRUE(doc.editVector(doubleKey(2)));
    doc.flush();
    EXPECT_NE(doc.result().heads[0].weights, before);
    doc.undoStack()->undo();
    doc.flush();
    EXPECT_EQ(doc.result().heads[0].weights, before);  // bit-identical
}

TEST(Document, ADragIsOneUndoStepUntilItEndsAndEveryStepIsPublished)
{
    Document doc;
    QSignalSpy changed(&doc, &Document::changed);
    const int steps = doc.undoStack()->count();
    for (int i = 1; i <= 50; ++i) ASSERT_TRUE(doc.editVector(doubleKey(1, 1.0 + i / 10.0), true));
    EXPECT_EQ(changed.count(), 50);  // each step computed and published with its session
    EXPECT_EQ(doc.undoStack()->count(), steps + 1);
    EXPECT_EQ(doc.session().input.edits.front().scale, 6.0);
    doc.endDrag();
    ASSERT_TRUE(doc.editVector(doubleKey(1, 7.0), true));  // a new drag of the same vector
    EXPECT_EQ(doc.undoStack()->count(), steps + 2);
    doc.undoStack()->undo();
    EXPECT_EQ(doc.session().input.edits.front().scale, 6.0);
}

TEST(Document, InvalidChangeIsRefusedWithAMessageAndNothingChanges)
{
    Document doc;
    QSignalSpy errors(&doc, &Document::errorOccurred);
    const int steps = doc.undoStack()->count();
    EXPECT_FALSE(doc.changeSession(QStringLiteral("bad"), [](Session& s) {
        s.input.scaling = attn::Scaling::Temperature;
        s.input.temperature = -1.0;
    }));
    EXPECT_EQ(errors.count(), 1);
    EXPECT_FALSE(doc.lastError().isEmpty());
    EXPECT_EQ(doc.undoStack()->count(), steps);
    EXPECT_EQ(doc.session().input.scaling, attn::Scaling::SqrtDk);
}

TEST(Document, SelectionIsClampedToTheMatrix)
{
    Document doc;
    doc.select(99, -3);
    EXPECT_EQ(doc.selectedRow(), 3);
    EXPECT_EQ(doc.selectedColumn(), 0);
}

}  // namespace
}  // namespace attnlab

namespace attnlab {
namespace {

// Scales key `index`, flushes, and checks the document's weights
// against a fresh full computation of its session (n rows).
void editKeyFlushAndCompare(Document& doc, int index, double scale, long n)
{
    attn::VectorEdit e;
    e.role = attn::Role::Key;
    e.index = index;
    e.scale = scale;
    ASSERT_TRUE(doc.editVector(e));
    doc.flush();
    EXPECT_FALSE(doc.computing());
    attn::AttentionResult full;
    ASSERT_TRUE(attn::computeAttention<double>(doc.session().input, full).ok());
    ASSERT_EQ(doc.result().heads[0].weights.rows(), n);
    EXPECT_LE((doc.result().heads[0].weights - full.heads[0].weights).cwiseAbs().maxCoeff(), 1e-12);
}

TEST(Document, LargeRecomputeRunsOnAWorkerAndEditsMadeMeanwhileAreKept)
{
    Document doc;
    const int n = 1100;  // n * n >= Document::kBackgroundCells
    ASSERT_TRUE(doc.replaceSession(testing::tokenSession(n), QStringLiteral("long")));
    ASSERT_TRUE(doc.computing());
    // The views keep reading the previous snapshot meanwhile: session and result together.
    EXPECT_EQ(doc.result().heads[0].weights.rows(), 4);
    EXPECT_EQ(doc.session().targetTokens.size(), 4);
    editKeyFlushAndCompare(doc, 7, 3.0, n);
    EXPECT_EQ(doc.session().input.edits.size(), 1u);
}

TEST(Document, EditAfterTheWorkerReturnedButBeforeItsResultIsAdoptedIsKept)
{
    Document doc;
    const int n = 1100;
    ASSERT_TRUE(doc.replaceSession(testing::tokenSession(n), QStringLiteral("long")));
    ASSERT_TRUE(doc.computing());
    // The worker returns; its finished signal is still queued, so nothing is adopted yet.
    ASSERT_TRUE(QThreadPool::globalInstance()->waitForDone(120000));
    EXPECT_TRUE(doc.computing());
    editKeyFlushAndCompare(doc, 900, 2.0, n);  // key 900 exists only in the long session
}

// A change asked for while a large session computes applies to that session, not to the one
// published when it was asked for: otherwise it would silently undo the change it waited for.
TEST(Document, AChangeQueuedBehindALargeRecomputeAppliesToTheSessionItWaitedFor)
{
    Document doc;
    const int n = 1100;
    const int steps = doc.undoStack()->count();
    ASSERT_TRUE(doc.replaceSession(testing::tokenSession(n), QStringLiteral("long")));
    ASSERT_TRUE(doc.computing());
    ASSERT_TRUE(doc.setMode(attn::Mode::Causal));
    ASSERT_TRUE(doc.setTemperature(2.0));
    doc.flush();
    EXPECT_FALSE(doc.computing());
    EXPECT_EQ(doc.session().targetTokens.size(), n);
    EXPECT_EQ(doc.session().input.mode, attn::Mode::Causal);
    EXPECT_EQ(doc.session().input.temperature, 2.0);
    EXPECT_EQ(doc.result().heads[0].weights.rows(), n);
    EXPECT_EQ(doc.undoStack()->count(), steps + 3);
    doc.undoStack()->undo();
    doc.undoStack()->undo();
    doc.flush();
    EXPECT_EQ(doc.session().targetTokens.size(), n);
    EXPECT_NE(doc.session().input.mode, attn::Mode::Causal);
}

}  // namespace
}  // namespace attnlab

namespace attnlab {
namespace {

// The session and the result the window shows must come from the same computation.
void expectConsistent(const Document& doc)
{
    attn::AttentionResult full;
    ASSERT_TRUE(attn::computeAttention<double>(doc.session().input, full).ok());
    EXPECT_LE((doc.result().heads[0].weights - full.heads[0].weights).cwiseAbs().maxCoeff(), 1e-12);
}

// Ctrl+D pressed on one key until its scores overflow: the edit that overflows must be neither
// pushed nor written into the session, or session and map would disagree.
TEST(DocumentTransaction, AnEditTheCoreRefusesLeavesSessionResultAndUndoStackAsTheyWere)
{
    Document doc;
    ASSERT_TRUE(doc.changeSession(QStringLiteral("huge"), [](Session& s) { s.input.X *= 1e150; }));
    QSignalSpy errors(&doc, &Document::errorOccurred);
    double scale = 1.0;
    while (errors.isEmpty() && scale < 1e10) {
        scale *= 2.0;
        doc.editVector(doubleKey(2, scale));
    }
    ASSERT_EQ(errors.count(), 1) << "the key never overflowed";
    const int steps = doc.undoStack()->count();
    const Session session = doc.session();
    ASSERT_EQ(session.input.edits.size(), 1u);
    EXPECT_EQ(session.input.edits.front().scale, scale / 2.0);  // the last accepted one
    expectConsistent(doc);
    EXPECT_FALSE(doc.editVector(doubleKey(2, scale)));
    EXPECT_EQ(doc.undoStack()->count(), steps);
    EXPECT_EQ(doc.session().input.edits.front().scale, scale / 2.0);
}

// A file whose values are finite but whose scores overflow (values near 1e200).
TEST(DocumentTransaction, ASessionWhoseScoresOverflowIsRefusedWithoutAnUndoStep)
{
    Document doc;
    const Session before = doc.session();
    const int steps = doc.undoStack()->count();
    Session bad = before;
    bad.input.X.setConstant(1e200);
    QSignalSpy errors(&doc, &Document::errorOccurred);
    EXPECT_FALSE(doc.replaceSession(bad, QStringLiteral("open")));
    EXPECT_EQ(errors.count(), 1);
    EXPECT_EQ(doc.undoStack()->count(), steps);
    EXPECT_EQ(doc.session().input.X, before.input.X);
    expectConsistent(doc);
}

TEST(DocumentTransaction, ADoubledKeySurvivesSwitchingToCausalAndBack)
{
    Document doc;
    ASSERT_TRUE(doc.editVector(doubleKey(1)));
    ASSERT_TRUE(doc.setMode(attn::Mode::Causal));
    ASSERT_EQ(doc.session().input.edits.size(), 1u);
    EXPECT_EQ(doc.session().input.edits.front().scale, 2.0);
    expectConsistent(doc);
    ASSERT_TRUE(doc.setScaling(attn::Scaling::None));
    ASSERT_TRUE(doc.setMode(attn::Mode::Self));
    EXPECT_EQ(doc.session().input.edits.size(), 1u);
    expectConsistent(doc);
}

TEST(DocumentTransaction, CrossModeWithAnEmptySourceIsRefusedAndTheModeStays)
{
    Document doc;
    ASSERT_TRUE(doc.changeSession(QStringLiteral("no source"), [](Session& s) {
        s.sourceTokens.clear();
        s.input.Y.resize(0, s.dModel);
    }));
    const int steps = doc.undoStack()->count();
    EXPECT_FALSE(doc.setMode(attn::Mode::Cross));
    EXPECT_TRUE(doc.lastError().contains(QStringLiteral("source")))
        << doc.lastError().toStdString();
    // It says where a source is typed.
    EXPECT_TRUE(doc.lastError().contains(QStringLiteral("Sequences panel")))
        << doc.lastError().toStdString();
    EXPECT_EQ(doc.session().input.mode, attn::Mode::Self);
    EXPECT_EQ(doc.undoStack()->count(), steps);
}

TEST(DocumentTransaction, RaisingTheNumberOfHeadsKeepsTheExistingHeads)
{
    Document doc;
    const attn::HeadParams first = doc.session().input.heads.front();
    ASSERT_TRUE(doc.editVector(doubleKey(1)));
    ASSERT_TRUE(doc.setHeadCount(3));
    ASSERT_EQ(doc.session().input.heads.size(), 3u);
    EXPECT_EQ(doc.session().input.heads.front().W_Q, first.W_Q);
    EXPECT_EQ(doc.session().input.heads.front().W_K, first.W_K);
    EXPECT_EQ(doc.session().input.heads.front().W_V, first.W_V);
    EXPECT_EQ(doc.session().input.edits.size(), 1u);
    expectConsistent(doc);
    doc.undoStack()->undo();
    EXPECT_EQ(doc.session().input.heads.size(), 1u);
    expectConsistent(doc);
}

TEST(DocumentTransaction, NewTokensDropThePinWithANoticeAndEditsOnChangedTokens)
{
    Document doc;
    ASSERT_TRUE(doc.editVector(doubleKey(1)));  // on "cat"
    doc.pinWeights();
    ASSERT_TRUE(doc.pinnedWeights().has_value());
    QSignalSpy notices(&doc, &Document::noticed);
    ASSERT_TRUE(doc.setTokens(false, {QStringLiteral("the"), QStringLiteral("dog"),
                                      QStringLiteral("sat"), QStringLiteral("down")}));
    EXPECT_FALSE(doc.pinnedWeights().has_value());
    EXPECT_TRUE(doc.session().input.edits.empty());
    ASSERT_EQ(notices.count(), 3);  // the edit on "cat", the random vectors, the pin
    EXPECT_TRUE(notices.at(1).at(0).toString().contains(QStringLiteral(": dog.")))
        << notices.at(1).at(0).toString().toStdString();
    // A mode change keeps the map's shape and tokens: the pin stays.
    doc.pinWeights();
    ASSERT_TRUE(doc.setMode(attn::Mode::Causal));
    EXPECT_TRUE(doc.pinnedWeights().has_value());
}

// Typing the source words in another order keeps each word's hand-made vector and its edit:
// "really" still looks at 很 wherever 很 now stands, and no word gets a random vector.
TEST(DocumentTransaction, AMovedTokenKeepsItsVectorAndItsEdit)
{
    Document doc;
    ASSERT_TRUE(doc.replaceSession(testing::lessonSession("cross"), QStringLiteral("open")));
    doc.flush();
    attn::VectorEdit onHen = doubleKey(1);  // 很
    ASSERT_TRUE(doc.editVector(onHen));
    const attn::Matrix sourceBefore = doc.session().input.Y;
    QSignalSpy notices(&doc, &Document::noticed);
    const QStringList reversed = {QStringLiteral("书"), QStringLiteral("读"),
                                  QStringLiteral("喜欢"), QStringLiteral("很"),
                                  QStringLiteral("我")};
    ASSERT_TRUE(doc.setTokens(true, reversed));
    doc.flush();
    for (int i = 0; i < 5; ++i)
        EXPECT_EQ(doc.session().input.Y.row(i), sourceBefore.row(4 - i)) << "row " << i;
    ASSERT_EQ(doc.session().input.edits.size(), 1u);
    EXPECT_EQ(doc.session().input.edits.front().index, 3);
    const attn::Matrix& p = doc.result().heads[0].weights;
    Eigen::Index top = 0;
    p.row(2).maxCoeff(&top);  // "really"
    EXPECT_EQ(top, 3);
    p.row(1).maxCoeff(&top);  // "I"
    EXPECT_EQ(top, 4);
    for (const QList<QVariant>& n : notices)
        EXPECT_FALSE(n.at(0).toString().contains(QStringLiteral("random")))
            << n.at(0).toString().toStdString();
    // A word that was not there is said to be random.
    ASSERT_TRUE(doc.setTokens(true, reversed + QStringList{QStringLiteral("他")}));
    ASSERT_FALSE(notices.isEmpty());
    EXPECT_TRUE(notices.last().at(0).toString().contains(QStringLiteral("他")));
}

// The same, when the session is large enough to compute on the worker: the refusal arrives
// after replaceSession returned, and still nothing changed.
TEST(DocumentTransaction, AChangeThatFailsOnTheWorkerLeavesSessionResultAndUndoStackAsTheyWere)
{
    Document doc;
    const Session before = doc.session();
    const int steps = doc.undoStack()->count();
    Session bad = testing::tokenSession(1100);
    bad.input.X.setConstant(1e200);
    QSignalSpy errors(&doc, &Document::errorOccurred);
    QSignalSpy changed(&doc, &Document::changed);
    ASSERT_TRUE(doc.replaceSession(bad, QStringLiteral("open")));
    ASSERT_TRUE(doc.computing());
    doc.flush();
    EXPECT_EQ(errors.count(), 1);
    EXPECT_EQ(changed.count(), 0);
    EXPECT_EQ(doc.undoStack()->count(), steps);
    EXPECT_EQ(doc.session().input.X, before.input.X);
    EXPECT_EQ(doc.result().heads[0].weights.rows(), 4);
    expectConsistent(doc);
}

TEST(DocumentTransaction, UndoLabelsFollowALanguageSwitch)
{
    Document doc;
    ASSERT_TRUE(doc.setMode(attn::Mode::Causal));
    ASSERT_TRUE(doc.editVector(doubleKey(2)));
    const int last = doc.undoStack()->count() - 1;
    EXPECT_EQ(doc.undoStack()->text(last - 1), QStringLiteral("Change mode"));
    EXPECT_EQ(doc.undoStack()->text(last), QStringLiteral("Edit key 3"));
    setLanguage(QStringLiteral("zh_CN"));
    EXPECT_EQ(doc.undoStack()->text(last - 1), QStringLiteral("切换模式"));
    EXPECT_NE(doc.undoStack()->text(last), QStringLiteral("Edit key 3"));
    setLanguage(QStringLiteral("en"));
    EXPECT_EQ(doc.undoStack()->text(last), QStringLiteral("Edit key 3"));
}

}  // namespace
}  // namespace attnlab
