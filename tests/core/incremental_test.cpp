// SPDX-License-Identifier: GPL-3.0-or-later
// A single-vector edit updates the result incrementally; the result must equal a
// full recomputation of the edited input.
#include "core/incremental.h"

#include <gtest/gtest.h>

#include "core/naive_reference.h"
#include "core/random_init.h"
#include "support/matrix_compare.h"

namespace attn {
namespace {

constexpr double kIncrementalTolerance = 1e-12;

void expectEqualsFull(const AttentionEngine& engine, const std::string& what)
{
    AttentionResult full;
    ASSERT_TRUE(computeAttention<double>(engine.input(), full).ok()) << what;
    const test::Difference d = test::compareResults(engine.result(), full);
    EXPECT_LE(d.value, kIncrementalTolerance)
        << what << ": max difference " << d.value << " in " << d.where;
}

AttentionInput inputFor(Mode mode, ScoreFunction score, bool customMask)
{
    AttentionInput in = randomInput(RandomSpec{24, 17, 8, 6, 5, 2, 4, mode, 31});
    in.score = score;
    if (customMask) {
        Rng rng(5);
        BoolMatrix m(in.queryCount(), in.keyCount());
        for (long i = 0; i < m.rows(); ++i)
            for (long j = 0; j < m.cols(); ++j) m(i, j) = rng.uniform() < 0.6;
        in.mask = m;
    }
    return in;
}

TEST(Incremental, EverySingleVectorEditEqualsFullRecomputation)
{
    for (Mode mode : {Mode::Self, Mode::Causal, Mode::Cross}) {
        for (ScoreFunction score : {ScoreFunction::Dot, ScoreFunction::Additive}) {
            for (bool masked : {false, true}) {
                AttentionEngine engine;
                ASSERT_TRUE(engine.setInput(inputFor(mode, score, masked)).ok());
                const std::string tag = "mode " + std::to_string(static_cast<int>(mode)) +
                                        " score " + std::to_string(static_cast<int>(score)) +
                                        (masked ? " masked" : "");
                ASSERT_TRUE(engine.setEdit({Role::Key, 0, 3, 2.0, {}}).ok());
                expectEqualsFull(engine, tag + " key x2");
                ASSERT_TRUE(engine.setEdit({Role::Key, 1, 0, -4.0, {{1, 2.5}}}).ok());
                expectEqualsFull(engine, tag + " key override");
                ASSERT_TRUE(engine.setEdit({Role::Query, 1, 5, 3.0, {}}).ok());
                expectEqualsFull(engine, tag + " query");
                ASSERT_TRUE(engine.setEdit({Role::Value, 0, 2, 0.5, {{0, -1.0}}}).ok());
                expectEqualsFull(engine, tag + " value");
                ASSERT_TRUE(engine.setEdit({Role::Key, 0, 3, 1.0, {}}).ok());  // reset
                EXPECT_EQ(engine.input().edits.size(), 3u);
                expectEqualsFull(engine, tag + " key reset");
            }
        }
    }
}

TEST(Incremental, EditsOfBiasedProjectionsEqualFullRecomputation)
{
    // A real model's head: q = x W_Q + b_Q and so on; an edit scales the vector with its bias.
    for (Mode mode : {Mode::Self, Mode::Causal, Mode::Cross}) {
        AttentionInput in = inputFor(mode, ScoreFunction::Dot, false);
        Rng rng(17);
        for (HeadParams& p : in.heads) {
            p.b_Q = Vector::NullaryExpr(in.keyDim(), [&] { return rng.uniform() - 0.5; });
            p.b_K = Vector::NullaryExpr(in.keyDim(), [&] { return rng.uniform() - 0.5; });
            p.b_V = Vector::NullaryExpr(in.valueDim(), [&] { return rng.uniform() - 0.5; });
        }
        AttentionEngine engine;
        ASSERT_TRUE(engine.setInput(in).ok());
        const std::string tag = "mode " + std::to_string(static_cast<int>(mode));
        ASSERT_TRUE(engine.setEdit({Role::Key, 0, 3, 2.0, {}}).ok());
        expectEqualsFull(engine, tag + " key x2");
        ASSERT_TRUE(engine.setEdit({Role::Query, 1, 2, 0.5, {{0, 1.5}}}).ok());
        expectEqualsFull(engine, tag + " query");
        ASSERT_TRUE(engine.setEdit({Role::Value, 0, 4, 3.0, {}}).ok());
        expectEqualsFull(engine, tag + " value");
        // The bias reaches the vector: doubling a key doubles x W_K + b_K, not only x W_K.
        const VectorT<double> k = engine.result().heads[0].K.row(3).transpose();
        const Vector plain = (in.keySource().row(3) * in.heads[0].W_K).transpose();
        EXPECT_LE((k - 2.0 * (plain + in.heads[0].b_K)).cwiseAbs().maxCoeff(), 1e-12) << tag;
    }
}

TEST(Incremental, DraggingOneKeyThroughManyValuesStaysExact)
{
    AttentionEngine engine;
    ASSERT_TRUE(engine.setInput(inputFor(Mode::Self, ScoreFunction::Dot, false)).ok());
    for (int step = 0; step < 200; ++step) {
        const double value = -6.0 + 12.0 * step / 199.0;
        ASSERT_TRUE(engine.setEdit({Role::Key, 0, 7, 1.0, {{2, value}}}).ok());
    }
    expectEqualsFull(engine, "after 200 slider steps");
    // A key that comes to dominate every row, then is pulled back, forces row recomputes.
    ASSERT_TRUE(engine.setEdit({Role::Key, 0, 7, 40.0, {}}).ok());
    ASSERT_TRUE(engine.setEdit({Role::Key, 0, 7, 0.01, {}}).ok());
    EXPECT_GT(engine.lastRowsRecomputed(), 0);
    expectEqualsFull(engine, "after dominate and release");
}

TEST(Incremental, KeyEditOnlyRecomputesRowsWhereTheKeyDominated)
{
    AttentionEngine engine;
    ASSERT_TRUE(
        engine.setInput(randomInput(RandomSpec{64, 64, 16, 16, 16, 1, 4, Mode::Self, 2})).ok());
    ASSERT_TRUE(engine.setEdit({Role::Key, 0, 10, 1.1, {}}).ok());
    EXPECT_LT(engine.lastRowsRecomputed(), 8);
    expectEqualsFull(engine, "mild key edit");
}

TEST(Incremental, FloatEngineTracksFloatFullComputation)
{
    AttentionEngineT<float> engine;
    ASSERT_TRUE(engine.setInput(inputFor(Mode::Causal, ScoreFunction::Dot, false)).ok());
    ASSERT_TRUE(engine.setEdit({Role::Key, 0, 2, 2.0, {}}).ok());
    AttentionResultT<float> full;
    ASSERT_TRUE(computeAttention<float>(engine.input(), full).ok());
    EXPECT_LE(test::maxAbsDiff(engine.result().heads[0].weights, full.heads[0].weights), 1e-6);
}

}  // namespace
}  // namespace attn
