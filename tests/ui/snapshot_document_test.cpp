// SPDX-License-Identifier: GPL-3.0-or-later
// The generic pieces every document is built on: the asynchronous job (cancel, progress, the
// generation guard), the undo step that starts applied, and the snapshot document's three
// policies for a change that arrives during a computation, each transactional.
#include "ui/document/snapshot_document.h"

#include <atomic>
#include <gtest/gtest.h>
#include <limits>
#include <thread>

#include <QCoreApplication>
#include <QTest>
#include <QUndoStack>

namespace attnlab {
namespace {

// Holds every worker until opened, so that changes can arrive while one computes.
struct Gate {
    std::atomic<bool> open{false};
    void wait() const
    {
        while (!open.load()) std::this_thread::yield();
    }
};

TEST(AsyncJob, DeliversOnceWithTheWorksProgressAndCancel)
{
    QObject context;
    AsyncJob<int> job(&context);
    Gate gate;
    int delivered = 0, got = 0;
    job.start(
        [&gate](JobControl& control) {
            control.report(0.5);
            gate.wait();
            return control.cancelled() ? -1 : 7;
        },
        [&](int r) {
            ++delivered;
            got = r;
        });
    EXPECT_TRUE(job.running());
    ASSERT_TRUE(QTest::qWaitFor([&] { return job.progress() == 0.5; }, 5000));
    job.cancel();
    gate.open = true;
    job.wait();
    EXPECT_FALSE(job.running());
    EXPECT_EQ(delivered, 1);
    EXPECT_EQ(got, -1);                 // the work saw the cancel
    QCoreApplication::processEvents();  // a finished() still queued delivers nothing again
    EXPECT_EQ(delivered, 1);
    EXPECT_EQ(job.generation(), 1u);
}

TEST(AsyncJob, ADroppedJobIsNeverDeliveredAndTheNextOneIs)
{
    QObject context;
    AsyncJob<int> job(&context);
    std::vector<int> delivered;
    job.start([](JobControl&) { return 1; }, [&](int r) { delivered.push_back(r); });
    job.drop();
    EXPECT_FALSE(job.running());
    job.start([](JobControl&) { return 2; }, [&](int r) { delivered.push_back(r); });
    ASSERT_TRUE(QTest::qWaitFor([&] { return !job.running(); }, 5000));
    EXPECT_EQ(delivered, std::vector<int>{2});
}

TEST(UndoStep, TheFirstRedoIsTheAppliedChangeAndLabelsAreReadAgain)
{
    QUndoStack stack;
    std::vector<int> restored;
    QString language = QStringLiteral("en");
    stack.push(new StateStep<int>([&language] { return QStringLiteral("step ") + language; }, 1, 2,
                                  [&](const int& s) { restored.push_back(s); }));
    EXPECT_TRUE(restored.empty());  // push: already applied
    EXPECT_EQ(stack.text(0), QStringLiteral("step en"));
    stack.undo();
    stack.redo();
    EXPECT_EQ(restored, (std::vector<int>{1, 2}));
    language = QStringLiteral("zh");
    UndoStep::retranslate(stack);
    EXPECT_EQ(stack.text(0), QStringLiteral("step zh"));
}

// A document over an int whose result is its square; a negative state fails.
struct Squares {
    using Doc = SnapshotDocument<int, int>;
    QObject context;
    QUndoStack undo;
    Gate gate;
    std::vector<int> computed;
    std::vector<int> published;
    QStringList errors;
    int cancelled = 0;
    int freshes = 0;
    QStringList events;  // "busy", "idle" (the busy hook) and "published N", in order
    int inlineFrom = std::numeric_limits<int>::max();  // states computed on the calling thread
    Doc doc;

    explicit Squares(ChangePolicy policy)
        : doc(policy, 0, undo, &context,
              {.prepare = [this](const int& next) -> Doc::Work {
                   computed.push_back(next);
                   return [this, next](JobControl& control) {
                       if (next < inlineFrom) gate.wait();
                       Doc::Outcome out;
                       out.cancelled = control.cancelled();
                       if (next >= 0 && next != 666)
                           out.result = next * next;
                       else
                           out.error = QStringLiteral("negative");
                       return out;
                   };
               },
               .step =
                   [this](const int& before, const int& after, const Label& label, int) {
                       return new StateStep<int>(label, before, after, [this](const int& s) {
                           doc.submit({s, {}});
                       });
                   },
               .synchronous = [this](const int& next) { return next >= inlineFrom; },
               .published =
                   [this](const int&, const QStringList&, bool fresh) {
                       events << QStringLiteral("published %1").arg(doc.state());
                       published.push_back(doc.state());
                       freshes += fresh ? 1 : 0;
                   },
               .failed = [this](const QString& e) { errors << e; },
               .cancelled = [this] { ++cancelled; },
               .busy =
                   [this](bool busy) {
                       events << (busy ? QStringLiteral("busy") : QStringLiteral("idle"));
                   }})
    {
    }
    ~Squares() { gate.open = true; }  // no worker is left waiting
    bool change(int to)
    {
        return doc.submit({to, [to] { return QStringLiteral("to %1").arg(to); }});
    }
    void finish()
    {
        gate.open = true;
        doc.flush();
    }
};

TEST(SnapshotDocument, QueueComputesAndPublishesEveryChangeInTurn)
{
    Squares s(ChangePolicy::Queue);
    ASSERT_TRUE(s.change(2));
    ASSERT_TRUE(s.change(3));
    EXPECT_EQ(s.doc.state(), 0);  // nothing is published before it is computed
    EXPECT_EQ(s.doc.target(), 3);
    s.finish();
    EXPECT_EQ(s.computed, (std::vector<int>{2, 3}));
    EXPECT_EQ(s.published, (std::vector<int>{2, 3}));
    EXPECT_EQ(s.doc.result(), 9);
    EXPECT_EQ(s.undo.count(), 2);
}

TEST(SnapshotDocument, RefuseSaysWhyAndLeavesEverythingAsItWas)
{
    Squares s(ChangePolicy::Refuse);
    ASSERT_TRUE(s.change(2));
    EXPECT_FALSE(s.change(3));
    EXPECT_EQ(s.errors, QStringList{busyMessage()});
    s.finish();
    EXPECT_EQ(s.computed, std::vector<int>{2});
    EXPECT_EQ(s.doc.state(), 2);
    EXPECT_EQ(s.undo.count(), 1);
}

TEST(SnapshotDocument, SupersedeComputesOnlyTheLatestAndPushesEveryStepWithIt)
{
    Squares s(ChangePolicy::Supersede);
    ASSERT_TRUE(s.change(2));
    ASSERT_TRUE(s.change(3));
    ASSERT_TRUE(s.change(4));
    s.finish();
    EXPECT_EQ(s.computed, (std::vector<int>{2, 4}));  // 3 never ran, 2 was cancelled
    EXPECT_EQ(s.published, std::vector<int>{4});
    // Busy from the first start to the end of the last, said before what it came to.
    EXPECT_EQ(s.events, (QStringList{QStringLiteral("busy"), QStringLiteral("idle"),
                                     QStringLiteral("published 4")}));
    EXPECT_EQ(s.doc.result(), 16);
    ASSERT_EQ(s.undo.count(), 3);
    EXPECT_EQ(s.undo.text(1), QStringLiteral("to 3"));
    s.gate.open = true;
    s.undo.undo();  // back to 3, computed again
    s.doc.flush();
    EXPECT_EQ(s.doc.state(), 3);
    EXPECT_EQ(s.doc.result(), 9);
}

TEST(SnapshotDocument, LatestPublishesTheRunInFlightThenOnlyTheLatestChange)
{
    Squares s(ChangePolicy::Latest);
    ASSERT_TRUE(s.doc.submit({2, {}}));
    ASSERT_TRUE(s.doc.submit({3, {}}));
    ASSERT_TRUE(s.doc.submit({4, {}}));
    EXPECT_EQ(s.doc.target(), 4);
    s.finish();
    EXPECT_EQ(s.computed, (std::vector<int>{2, 4}));   // 3 never ran
    EXPECT_EQ(s.published, (std::vector<int>{2, 4}));  // 2 was not cancelled
    EXPECT_EQ(s.cancelled, 0);
    EXPECT_EQ(s.doc.result(), 16);
    EXPECT_EQ(s.undo.count(), 0);  // unlabelled changes: no step
}

TEST(SnapshotDocument, LatestStillRunsTheWaitingChangeWhenTheRunInFlightFails)
{
    Squares s(ChangePolicy::Latest);
    ASSERT_TRUE(s.doc.submit({-1, {}}));
    ASSERT_TRUE(s.doc.submit({5, {}}));
    s.finish();
    EXPECT_EQ(s.errors, QStringList{QStringLiteral("negative")});
    EXPECT_EQ(s.published, std::vector<int>{5});
    EXPECT_EQ(s.doc.result(), 25);
}

TEST(SnapshotDocument, ACancelledOrFailedChangeLeavesStateResultAndUndoStackAsTheyWere)
{
    for (const ChangePolicy policy :
         {ChangePolicy::Queue, ChangePolicy::Refuse, ChangePolicy::Supersede}) {
        Squares s(policy);
        ASSERT_TRUE(s.change(5));
        s.finish();
        s.gate.open = false;
        ASSERT_TRUE(s.change(6));
        s.doc.cancel();
        s.finish();
        EXPECT_EQ(s.cancelled, 1);
        ASSERT_TRUE(s.change(-1));
        s.finish();
        EXPECT_EQ(s.errors, QStringList{QStringLiteral("negative")});
        EXPECT_EQ(s.doc.state(), 5);
        EXPECT_EQ(s.doc.result(), 25);
        EXPECT_EQ(s.undo.count(), 1);
        EXPECT_EQ(s.published, std::vector<int>{5});
    }
}

TEST(SnapshotDocument, ASynchronousStateIsPublishedBeforeSubmitReturnsAndStillWaitsItsTurn)
{
    Squares s(ChangePolicy::Queue);
    s.inlineFrom = 100;
    ASSERT_TRUE(s.change(200));
    EXPECT_FALSE(s.doc.computing());
    EXPECT_EQ(s.doc.state(), 200);  // no worker, no event loop
    EXPECT_EQ(s.doc.result(), 40000);
    EXPECT_FALSE(s.change(666));  // computed at once and refused: submit says so
    EXPECT_EQ(s.errors, QStringList{QStringLiteral("negative")});
    EXPECT_EQ(s.doc.state(), 200);
    EXPECT_EQ(s.undo.count(), 1);
    ASSERT_TRUE(s.change(2));  // on the worker, held at the gate
    ASSERT_TRUE(s.change(300));
    EXPECT_EQ(s.doc.state(), 200);
    EXPECT_EQ(s.doc.target(), 300);
    s.finish();
    EXPECT_EQ(s.published, (std::vector<int>{200, 2, 300}));
    EXPECT_EQ(s.undo.count(), 3);
}

TEST(SnapshotDocument, AChangeMayBringItsOwnInPlaceComputationAndUndoStep)
{
    Squares s(ChangePolicy::Queue);
    ASSERT_TRUE(s.change(2));  // held at the gate: the in-place change waits for it
    Squares::Doc::Change own(7, [] { return QStringLiteral("seven"); });
    int ranOn = -1;
    own.inPlace = [&] {
        ranOn = s.doc.state();  // the state published before it
        return Squares::Doc::Outcome{s.doc.result().value_or(0) + 45, false, {}};
    };
    own.step = [&](const int& before) {
        return new StateStep<int>([] { return QStringLiteral("own"); }, before, 7,
                                  [&](const int& v) {
                                      s.doc.submit({v, {}});
                                  });
    };
    ASSERT_TRUE(s.doc.submit(own));
    EXPECT_EQ(ranOn, -1);
    s.finish();
    EXPECT_EQ(ranOn, 2);
    EXPECT_EQ(s.doc.state(), 7);
    EXPECT_EQ(s.doc.result(), 49);
    ASSERT_EQ(s.undo.count(), 2);
    EXPECT_EQ(s.undo.text(1), QStringLiteral("own"));
    Squares::Doc::Change failing(8, [] { return QStringLiteral("eight"); });
    failing.inPlace = [] { return Squares::Doc::Outcome{{}, false, QStringLiteral("no")}; };
    EXPECT_FALSE(s.doc.submit(failing));
    EXPECT_EQ(s.doc.state(), 7);
    EXPECT_EQ(s.doc.result(), 49);
    EXPECT_EQ(s.undo.count(), 2);
    EXPECT_EQ(s.errors.back(), QStringLiteral("no"));
}

TEST(SnapshotDocument, AFreshChangeStartsANewHistoryOnceItIsPublished)
{
    Squares s(ChangePolicy::Queue);
    ASSERT_TRUE(s.change(2));
    ASSERT_TRUE(s.change(3));
    s.finish();
    ASSERT_EQ(s.undo.count(), 2);
    s.gate.open = false;
    Squares::Doc::Change opened(4);
    opened.fresh = true;
    ASSERT_TRUE(s.doc.submit(opened));
    EXPECT_EQ(s.undo.count(), 2);  // nothing is dropped before the new state is published
    s.finish();
    EXPECT_EQ(s.doc.state(), 4);
    EXPECT_EQ(s.undo.count(), 0);
    EXPECT_EQ(s.freshes, 1);
}

}  // namespace
}  // namespace attnlab
