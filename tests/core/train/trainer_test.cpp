// SPDX-License-Identifier: GPL-3.0-or-later
// The trainer: learning W_Q and W_K on the tasks, deterministic, and the shared-projection
// limit that the textbook asks about.
#include "core/train/trainer.h"

#include <gtest/gtest.h>

#include "core/random_init.h"

namespace attn {
namespace {

AttentionInput lessonSession(Mode mode = Mode::Self, long n = 6, long dModel = 8, long dK = 6)
{
    RandomSpec spec;
    spec.n = n;
    spec.m = n;
    spec.dModel = dModel;
    spec.dK = dK;
    spec.dV = dK;
    spec.mode = mode;
    spec.seed = 5;
    AttentionInput in = randomInput(spec);
    in.W_O.resize(0, 0);
    return in;
}

Trainer trainerFor(const AttentionInput& session, TaskKind kind, const TrainSettings& settings,
                   long n = 6)
{
    TaskSpec spec;
    spec.kind = kind;
    spec.n = n;
    spec.dModel = session.modelDim();
    spec.seed = 3;
    std::vector<TrainExample> examples;
    EXPECT_TRUE(makeTask(spec, examples).ok());
    Trainer t;
    const Status s = Trainer::create(session, kind, std::move(examples), settings, t);
    EXPECT_TRUE(s.ok()) << describe(s);
    return t;
}

double trainFor(Trainer& t, int steps)
{
    for (int k = 0; k < steps; ++k) {
        const Status s = t.step();
        EXPECT_TRUE(s.ok()) << "step " << k << ": " << describe(s);
        if (!s.ok()) break;
    }
    double loss = 0.0;
    EXPECT_TRUE(t.currentLoss(loss).ok());
    return loss;
}

TEST(Trainer, PreviousTokenIsLearnedWithSeparateProjectionsButNotWithOneShared)
{
    const AttentionInput session = lessonSession();
    TrainSettings separate;
    Trainer a = trainerFor(session, TaskKind::PreviousToken, separate);
    const double separateLoss = trainFor(a, 400);
    TrainSettings sharedSettings;
    sharedSettings.shared = true;
    Trainer b = trainerFor(session, TaskKind::PreviousToken, sharedSettings);
    const double sharedLoss = trainFor(b, 400);
    EXPECT_LT(separateLoss, 0.25 * a.losses().front()) << "separate projections learn the task";
    // s_ij = (W x_i).(W x_j) <= |W x_i| |W x_j| = s_ii when |W x_j| <= |W x_i|: a token can
    // prefer the one before only if that one's vector is longer, all the way round the ring.
    EXPECT_GT(sharedLoss, 0.5) << "the shared run learned what its symmetry forbids";
    EXPECT_GT(sharedLoss, 4.0 * separateLoss);
    // The learned session with the shared run's projections says so.
    EXPECT_TRUE(b.learned().sharedProjections);
    EXPECT_FALSE(a.learned().sharedProjections);
}

TEST(Trainer, SameSettingsGiveTheSameRunBitForBit)
{
    const AttentionInput session = lessonSession(Mode::Causal);
    TrainSettings s;
    s.optimizer.kind = OptimizerKind::Sgd;
    s.optimizer.learningRate = 0.5;
    Trainer a = trainerFor(session, TaskKind::Match, s);
    Trainer b = trainerFor(session, TaskKind::Match, s);
    trainFor(a, 50);
    trainFor(b, 50);
    EXPECT_EQ(a.losses(), b.losses());
    EXPECT_EQ(a.learned().heads[0].W_Q, b.learned().heads[0].W_Q);
    EXPECT_LT(a.losses().back(), a.losses().front());
}

TEST(Trainer, CoreferencePronounLearnsToFindItsNoun)
{
    const AttentionInput session = lessonSession(Mode::Self, 8, 8, 4);
    Trainer t = trainerFor(session, TaskKind::Coreference, TrainSettings{}, 8);
    trainFor(t, 300);
    for (std::size_t e = 0; e < 2; ++e) {
        AttentionResult r;
        ASSERT_TRUE(computeAttention(t.exampleInput(e), r).ok());
        const long noun = e == 0 ? 1 : 3;  // 累 -> 动物, 宽 -> 街
        EXPECT_GT(r.heads[0].weights(5, noun), 0.8) << "example " << e;
    }
}

TEST(Trainer, PaintedPatternIsReachedOnTheSessionsOwnSequence)
{
    AttentionInput session = lessonSession(Mode::Self, 4, 6, 4);
    TaskSpec spec;
    spec.kind = TaskKind::Pattern;
    spec.X = session.X;
    spec.tokens = {"a", "b", "c", "d"};
    spec.pattern = Matrix::Zero(4, 4);
    for (long i = 0; i < 4; ++i) spec.pattern(i, 3 - i) = 1.0;  // the anti-diagonal
    std::vector<TrainExample> ex;
    ASSERT_TRUE(makeTask(spec, ex).ok());
    Trainer t;
    ASSERT_TRUE(Trainer::create(session, TaskKind::Pattern, ex, TrainSettings{}, t).ok());
    trainFor(t, 300);
    AttentionResult r;
    ASSERT_TRUE(computeAttention(t.learned(), r).ok());
    for (long i = 0; i < 4; ++i) EXPECT_GT(r.heads[0].weights(i, 3 - i), 0.9) << "row " << i;
    EXPECT_EQ(t.learned().X, session.X) << "a pattern run keeps the session's sequence";
}

TEST(Trainer, ValuesLearnToCopyTheAttendedTokens)
{
    const AttentionInput session = lessonSession();
    TrainSettings keysOnly;
    Trainer a = trainerFor(session, TaskKind::PreviousToken, keysOnly);
    TrainSettings withValues;
    withValues.trainable.values = true;
    Trainer b = trainerFor(session, TaskKind::PreviousToken, withValues);
    const double before = [&] {
        double l = 0.0;
        EXPECT_TRUE(b.currentLoss(l).ok());
        return l;
    }();
    trainFor(a, 200);
    const double after = trainFor(b, 200);
    EXPECT_LT(after, 0.3 * before);
    EXPECT_EQ(a.learned().heads[0].W_V, session.heads[0].W_V) << "W_V is not learned by default";
    EXPECT_NE(b.learned().heads[0].W_V, session.heads[0].W_V);
}

TEST(Trainer, ADivergingStepIsRefusedAndLeavesTheParameters)
{
    const AttentionInput session = lessonSession();
    TrainSettings s;
    s.optimizer.kind = OptimizerKind::Sgd;
    s.optimizer.learningRate = 1e300;
    Trainer t = trainerFor(session, TaskKind::PreviousToken, s);
    Matrix before = t.learned().heads[0].W_Q;
    Status st = Status::success();
    for (int k = 0; k < 6 && st.ok(); ++k) {
        before = t.learned().heads[0].W_Q;
        st = t.step();
    }
    ASSERT_FALSE(st.ok()) << "a step of size 1e300 must overflow";
    EXPECT_EQ(st.code, StatusCode::NonFinite);
    EXPECT_EQ(t.learned().heads[0].W_Q, before) << "the refused step changed nothing";
}

TEST(Trainer, RefusesAMissingHeadAndAnotherWidth)
{
    const AttentionInput session = lessonSession();
    TaskSpec spec;
    spec.dModel = 5;  // the session's is 8
    std::vector<TrainExample> ex;
    ASSERT_TRUE(makeTask(spec, ex).ok());
    Trainer t;
    Status s = Trainer::create(session, TaskKind::PreviousToken, ex, TrainSettings{}, t);
    EXPECT_EQ(s.code, StatusCode::ShapeMismatch);
    EXPECT_EQ(s.field, "task.d_model");
    TrainSettings bad;
    bad.head = 3;
    s = Trainer::create(session, TaskKind::PreviousToken, ex, bad, t);
    EXPECT_EQ(s.code, StatusCode::EditOutOfRange);
    EXPECT_EQ(s.field, "train.head");
}

}  // namespace
}  // namespace attn
