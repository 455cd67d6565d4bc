// SPDX-License-Identifier: GPL-3.0-or-later
// Rotary positions in the attention kernel: queries and keys turned by their positions after
// the projection and the edits, before the scores (core/attention.h, step 1b).
#include <cmath>
#include <gtest/gtest.h>
#include <vector>

#include "core/attention.h"
#include "core/incremental.h"
#include "core/long_attention.h"
#include "core/naive_reference.h"
#include "core/random_init.h"
#include "core/rope.h"
#include "support/matrix_compare.h"

namespace attn {
namespace {

constexpr double kRopeAgreement = 1e-12;

AttentionInput ropeInput(Mode mode, std::uint64_t seed, double theta = 100.0)
{
    AttentionInput in = randomInput(RandomSpec{6, 5, 4, 6, 3, 2, 3, mode, seed});
    in.rope = Rope{};
    in.rope->theta = theta;
    return in;
}

// By hand: Q = X W_Q, K = S W_K, each pair (c, c + d/2) of row p turned by p theta^(-2c/d)
// with cos and sin, scores / sqrt(d_k), row softmax. No core function is used but the
// projection's matrix product.
Matrix weightsByHand(const AttentionInput& in, int head)
{
    const HeadParams& p = in.heads[static_cast<std::size_t>(head)];
    Matrix Q = in.X * p.W_Q;
    Matrix K = in.keySource() * p.W_K;
    const long d = Q.cols();
    const auto turn = [&](Matrix& x) {
        for (long row = 0; row < x.rows(); ++row) {
            for (long c = 0; c < d / 2; ++c) {
                const double angle = static_cast<double>(row) *
                                     std::pow(in.rope->theta, -2.0 * static_cast<double>(c) /
                                                                  static_cast<double>(d));
                const double a = x(row, c), b = x(row, c + d / 2);
                x(row, c) = a * std::cos(angle) - b * std::sin(angle);
                x(row, c + d / 2) = b * std::cos(angle) + a * std::sin(angle);
            }
        }
    };
    turn(Q);
    turn(K);
    Matrix P = (Q * K.transpose()) / std::sqrt(static_cast<double>(d));
    for (long i = 0; i < P.rows(); ++i) {
        const long end = in.mode == Mode::Causal ? i + 1 : P.cols();
        const double top = P.row(i).head(end).maxCoeff();
        double sum = 0;
        for (long j = 0; j < P.cols(); ++j) {
            P(i, j) = j < end ? std::exp(P(i, j) - top) : 0.0;
            sum += P(i, j);
        }
        P.row(i) /= sum;
    }
    return P;
}

TEST(RopeAttention, WeightsEqualTurningByHandThenSoftmax)
{
    for (Mode mode : {Mode::Self, Mode::Causal, Mode::Cross}) {
        const AttentionInput in = ropeInput(mode, 41);
        AttentionResult r;
        ASSERT_TRUE(computeAttention<double>(in, r).ok());
        for (int h = 0; h < 2; ++h) {
            const Matrix want = weightsByHand(in, h);
            EXPECT_LE(test::maxAbsDiff(r.heads[static_cast<std::size_t>(h)].weights, want),
                      kRopeAgreement)
                << "mode " << static_cast<int>(mode) << " head " << h;
        }
        // Q and K stay as projected; the turned ones are what the scores use.
        EXPECT_LE(test::maxAbsDiff(r.heads[0].Q, in.X * in.heads[0].W_Q), kRopeAgreement);
        EXPECT_GT(test::maxAbsDiff(r.heads[0].rotatedQ, r.heads[0].Q), 1e-3);
    }
}

TEST(RopeAttention, EveryStageEqualsTheNaiveReference)
{
    for (Mode mode : {Mode::Self, Mode::Causal, Mode::Cross}) {
        AttentionInput in = ropeInput(mode, 42, 10000.0);
        in.edits.push_back({Role::Key, 1, 2, 2.0, {{0, 0.5}}});
        in.edits.push_back({Role::Query, 0, 3, -1.5, {}});
        AttentionResult fast, naive;
        ASSERT_TRUE(computeAttention<double>(in, fast).ok());
        ASSERT_TRUE(naiveAttention(in, naive).ok());
        const test::Difference d = test::compareResults(fast, naive);
        EXPECT_LE(d.value, kRopeAgreement) << d.where;
    }
}

TEST(RopeAttention, EqualVectorsGiveScoresThatDependOnlyOnTheDistance)
{
    // Every token the same vector: without positions every row is uniform; with them the
    // scores are constant along each diagonal i - j = const (a Toeplitz matrix).
    AttentionInput in = randomInput(RandomSpec{9, 9, 4, 8, 4, 1, 3, Mode::Self, 7});
    for (long i = 1; i < in.X.rows(); ++i) in.X.row(i) = in.X.row(0);
    AttentionResult plain;
    ASSERT_TRUE(computeAttention<double>(in, plain).ok());
    EXPECT_LE((plain.heads[0].weights.array() - 1.0 / 9.0).abs().maxCoeff(), 1e-15);

    in.rope = Rope{};
    in.rope->theta = 10.0;
    AttentionResult turned;
    ASSERT_TRUE(computeAttention<double>(in, turned).ok());
    const Matrix& s = turned.heads[0].scores;
    for (long i = 1; i < s.rows(); ++i)
        for (long j = 1; j < s.cols(); ++j)
            EXPECT_NEAR(s(i, j), s(i - 1, j - 1), 1e-12) << i << ", " << j;
    // Not uniform any more, and the weights within a row are e^(scaled) of the distance: the
    // ratio of two cells of a row equals the same ratio one row further along the diagonals.
    const Matrix& p = turned.heads[0].weights;
    EXPECT_GT(p.maxCoeff() - p.minCoeff(), 1e-3);
    for (long i = 1; i + 1 < p.rows(); ++i)
        EXPECT_NEAR(p(i, i - 1) / p(i, i), p(i + 1, i) / p(i + 1, i + 1), 1e-12);
}

TEST(RopeAttention, CrossAttentionCountsTheSourcesPositionsFromZero)
{
    const AttentionInput in = ropeInput(Mode::Cross, 43);
    AttentionResult r;
    ASSERT_TRUE(computeAttention<double>(in, r).ok());
    MatrixT<double> k = in.Y * in.heads[1].W_K;
    applyRope(k, *in.rope, 0);
    EXPECT_LE(test::maxAbsDiff(r.heads[1].rotatedK, k), kRopeAgreement);
    EXPECT_EQ(r.heads[1].rotatedK.rows(), 5);
}

TEST(RopeAttention, OffLeavesTheTurnedMatricesEmptyAndTheResultAsBefore)
{
    AttentionInput in = ropeInput(Mode::Self, 44);
    AttentionResult reused;
    ASSERT_TRUE(computeAttention<double>(in, reused).ok());
    in.rope.reset();
    ASSERT_TRUE(computeAttention<double>(in, reused).ok());  // into the same buffers
    AttentionResult fresh;
    ASSERT_TRUE(naiveAttention(in, fresh).ok());
    EXPECT_EQ(reused.heads[0].rotatedQ.size(), 0);
    EXPECT_EQ(reused.heads[0].rotatedK.size(), 0);
    EXPECT_LE(test::compareResults(reused, fresh).value, kRopeAgreement);
}

TEST(RopeAttention, OddKeyWidthIsRefusedNamingD_k)
{
    AttentionInput in = randomInput(RandomSpec{4, 4, 3, 3, 3, 1, 3, Mode::Self, 1});
    in.rope = Rope{};
    AttentionResult r;
    const Status s = computeAttention<double>(in, r);
    EXPECT_EQ(s.code, StatusCode::BadRope);
    EXPECT_EQ(s.field, "d_k");
    EXPECT_EQ(s.value, 3);
    EXPECT_NE(describe(s).find("even"), std::string::npos) << describe(s);
}

TEST(RopeAttention, AdditiveScoringIsRefusedNamingTheScore)
{
    AttentionInput in = ropeInput(Mode::Self, 45);
    in.score = ScoreFunction::Additive;
    const Status s = validate(in, Limits{});
    EXPECT_EQ(s.code, StatusCode::BadRope);
    EXPECT_EQ(s.field, "score");
    EXPECT_NE(describe(s).find("dot-product"), std::string::npos) << describe(s);
}

TEST(RopeAttention, BadParametersAreRefusedNamingThem)
{
    AttentionInput in = ropeInput(Mode::Self, 46);
    in.rope->theta = 0.0;
    EXPECT_EQ(validate(in, Limits{}).field, "rope.theta");
    in.rope->theta = 10000.0;
    in.rope->scaling = RopeScaling::Linear;
    in.rope->factor = 0.5;
    EXPECT_EQ(validate(in, Limits{}).field, "rope.factor");
    in.rope->scaling = RopeScaling::Llama3;
    in.rope->factor = 8.0;
    in.rope->highFreqFactor = 0.5;
    EXPECT_EQ(validate(in, Limits{}).field, "rope.high_freq_factor");
    in.rope->highFreqFactor = 4.0;
    in.rope->originalPositions = -1.0;
    EXPECT_EQ(validate(in, Limits{}).field, "rope.original_max_position_embeddings");
    in.rope->originalPositions = 8192.0;
    EXPECT_TRUE(validate(in, Limits{}).ok());
}

TEST(RopeIncremental, KeyAndQueryEditsEqualAFullRecomputation)
{
    for (Mode mode : {Mode::Self, Mode::Causal, Mode::Cross}) {
        AttentionEngine engine;
        ASSERT_TRUE(engine.setInput(ropeInput(mode, 47)).ok());
        const auto check = [&](const VectorEdit& e, const char* what) {
            ASSERT_TRUE(engine.setEdit(e).ok()) << what;
            AttentionResult full;
            ASSERT_TRUE(computeAttention<double>(engine.input(), full).ok());
            const test::Difference d = test::compareResults(engine.result(), full);
            EXPECT_LE(d.value, 1e-12) << "mode " << static_cast<int>(mode) << ", " << what << ": "
                                      << d.value << " in " << d.where;
        };
        check({Role::Key, 0, 3, 2.0, {}}, "key 3 doubled");
        check({Role::Query, 1, 4, 1.0, {{2, 1.5}}}, "query 4 component set");
        check({Role::Key, 1, 0, -3.0, {{5, 0.25}}}, "key 0 flipped");
        check({Role::Value, 0, 1, 0.5, {}}, "value 1 halved");
        check({Role::Key, 0, 3, 1.0, {}}, "key 3 reset");
    }
}

TEST(RopeLong, WeightsOfTheLongPathEqualTheFullOnes)
{
    for (Mode mode : {Mode::Self, Mode::Causal, Mode::Cross}) {
        const AttentionInput in = ropeInput(mode, 48, 500.0);
        AttentionResultT<float> full;
        ASSERT_TRUE(computeAttention<float>(in, full).ok());
        LongResult lr;
        ASSERT_TRUE(computeLongAttention(in, lr).ok());
        for (std::size_t h = 0; h < 2; ++h) {
            EXPECT_LE(test::maxAbsDiff(lr.heads[h].weights, full.heads[h].weights), 1e-6);
            VectorT<float> raw, scaled;
            longRowScores(in, lr, static_cast<int>(h), 2, raw, scaled);
            EXPECT_LE(test::maxAbsDiff(raw, full.heads[h].scores.row(2).transpose()), 1e-5);
        }
    }
}

}  // namespace
}  // namespace attn
