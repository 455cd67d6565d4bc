#include "ui/document/document.h"

#include <gtest/gtest.h>

#include <QSignalSpy>
#include <QThreadPool>

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

TEST(Document, BurstOfEditsRecomputesOnceAndIsOneUndoStepWhenDragging)
{
    Document doc;
    QSignalSpy changed(&doc, &Document::changed);
    const int steps = doc.undoStack()->count();
    for (int i = 1; i <= 50; ++i) ASSERT_TRUE(doc.editVector(doubleKey(1, 1.0 + i / 10.0), true));
    EXPECT_EQ(changed.count(), 0);  // nothing yet: coalesced to the next event-loop turn
    QCoreApplication::processEvents();
    EXPECT_EQ(changed.count(), 1);
    EXPECT_EQ(doc.undoStack()->count(), steps + 1);
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

Session longSession(int n)
{
    Session s;
    s.dModel = 16;
    for (int i = 1; i <= n; ++i) s.targetTokens << QStringLiteral("t%1").arg(i);
    s.input.X = embeddingsFor(s.targetTokens, {}, attn::Matrix(), s.dModel, 3);
    randomiseProjections(s, 1, 16, 16, 3);
    return s;
}

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
    ASSERT_TRUE(doc.replaceSession(longSession(n), QStringLiteral("long")));
    QCoreApplication::processEvents();  // the coalesced recompute starts
    if (doc.computing()) {
        // The views keep reading the previous, complete result meanwhile.
        EXPECT_EQ(doc.result().heads[0].weights.rows(), 4);
    }
    editKeyFlushAndCompare(doc, 7, 3.0, n);
    EXPECT_EQ(doc.session().input.edits.size(), 1u);
}

TEST(Document, EditAfterTheWorkerReturnedButBeforeItsResultIsAdoptedIsKept)
{
    Document doc;
    const int n = 1100;
    ASSERT_TRUE(doc.replaceSession(longSession(n), QStringLiteral("long")));
    QCoreApplication::processEvents();  // the coalesced recompute starts the worker
    ASSERT_TRUE(doc.computing());
    // The worker returns; its finished signal is still queued, so nothing is adopted yet.
    ASSERT_TRUE(QThreadPool::globalInstance()->waitForDone(120000));
    EXPECT_TRUE(doc.computing());
    editKeyFlushAndCompare(doc, 900, 2.0, n);  // key 900 exists only in the long session
}

}  // namespace
}  // namespace attnlab
