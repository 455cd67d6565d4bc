// SPDX-License-Identifier: GPL-3.0-or-later
// The blocked, parallel head pass (several row blocks, OpenMP threads) and the reuse of a
// result's buffers, against the naive reference and against a fresh computation.
#include <algorithm>
#include <cmath>
#include <gtest/gtest.h>
#include <limits>

#include "core/head_pass.h"
#include "core/naive_reference.h"
#include "core/projection.h"
#include "core/random_init.h"
#include "core/softmax.h"
#include "support/matrix_compare.h"

namespace attn {
namespace {

// Large enough for several row blocks and for the parallel loop (n * m >= kParallelCells).
constexpr long kRows = 3 * kHeadBlockRows + 17;
constexpr long kCols = 290;

AttentionInput largeInput(Mode mode, bool customMask)
{
    RandomSpec s{kRows, mode == Mode::Cross ? kCols : kRows, 8, 6, 5, 2, 4, mode, 41};
    AttentionInput in = randomInput(s);
    if (customMask) {
        Rng rng(77);
        BoolMatrix mask(in.queryCount(), in.keyCount());
        for (long i = 0; i < mask.rows(); ++i)
            for (long j = 0; j < mask.cols(); ++j) mask(i, j) = rng.uniform() < 0.6;
        // Fully masked rows on both sides of block and word (64-row) boundaries.
        for (long i : {0L, 63L, 64L, kHeadBlockRows - 1, kHeadBlockRows, kRows - 1})
            mask.row(i).setConstant(false);
        in.mask = mask;
    }
    return in;
}

TEST(BlockedPass, ManyBlocksInParallelMatchNaiveLoopsWithin1e12)
{
    ASSERT_GE(kRows * kCols, kParallelCells);
    for (Mode mode : {Mode::Self, Mode::Causal, Mode::Cross}) {
        for (bool masked : {false, true}) {
            const AttentionInput in = largeInput(mode, masked);
            AttentionResult fast, slow;
            ASSERT_TRUE(computeAttention<double>(in, fast).ok());
            ASSERT_TRUE(naiveAttention(in, slow).ok());
            const test::Difference d = test::compareResults(fast, slow);
            EXPECT_LE(d.value, 1e-12) << "mode " << static_cast<int>(mode) << " masked " << masked
                                      << ": max difference " << d.value << " in " << d.where;
        }
    }
}

TEST(BlockedPass, FullyMaskedRowsAcrossBlockBoundariesAreAllReported)
{
    const AttentionInput in = largeInput(Mode::Cross, true);
    AttentionResultT<float> r;
    ASSERT_TRUE(computeAttention<float>(in, r).ok());
    for (const HeadResultT<float>& hr : r.heads) {
        for (long i = 0; i < kRows; ++i) {
            const bool expected = !in.mask->row(i).any();
            EXPECT_EQ(hr.diagnostics.fullyMasked[static_cast<std::size_t>(i)], expected)
                << "row " << i;
            if (expected) {
                EXPECT_EQ(hr.weights.row(i).cwiseAbs().maxCoeff(), 0.0f) << "row " << i;
            }
        }
    }
}

TEST(BlockedPass, RecomputingIntoAnOldResultEqualsAFreshResultBitForBit)
{
    // The old result has other sizes and other values: nothing of it may show through.
    AttentionResult reused;
    ASSERT_TRUE(computeAttention<double>(largeInput(Mode::Causal, true), reused).ok());
    for (Mode mode : {Mode::Self, Mode::Cross, Mode::Causal}) {
        const AttentionInput in = largeInput(mode, false);
        AttentionResult fresh;
        ASSERT_TRUE(computeAttention<double>(in, reused).ok());
        ASSERT_TRUE(computeAttention<double>(in, fresh).ok());
        const test::Difference d = test::compareResults(reused, fresh);
        EXPECT_EQ(d.value, 0.0) << "mode " << static_cast<int>(mode) << ": " << d.where;
        EXPECT_EQ(reused.maskKind, fresh.maskKind);
    }
}

TEST(BlockedPass, OverflowAfterValidationLeavesTheOldResultUntouched)
{
    const AttentionInput good = largeInput(Mode::Self, false);
    AttentionResultT<float> r;
    ASSERT_TRUE(computeAttention<float>(good, r).ok());
    const MatrixT<float> scoresBefore = r.heads[0].scores;
    const MatrixT<float> weightsBefore = r.heads[0].weights;
    // Finite in double, so validation accepts it, but its float scores overflow.
    AttentionInput bad = good;
    bad.X *= 1e20;
    const Status s = computeAttention<float>(bad, r);
    EXPECT_EQ(s.code, StatusCode::NonFinite) << describe(s);
    EXPECT_TRUE(r.heads[0].scores == scoresBefore);
    EXPECT_TRUE(r.heads[0].weights == weightsBefore);
}

TEST(BlockedPass, TinyTemperatureOverflowingOnlyTheScaledScoresIsNamed)
{
    AttentionInput in = largeInput(Mode::Self, false);
    in.X *= 1e150;
    in.scaling = Scaling::Temperature;
    in.temperature = 1e-200;
    AttentionResult r;
    const Status s = computeAttention<double>(in, r);
    EXPECT_EQ(s.code, StatusCode::NonFinite) << describe(s);
    EXPECT_EQ(s.field, "scaled") << describe(s);
    EXPECT_EQ(s.head, 0) << describe(s);
    EXPECT_EQ(describe(s).rfind("head 1, scaled: ", 0), 0u) << describe(s);
}

// Q, K and V of a cross-attention head large enough for the projections' parallel row
// blocks (with a partial last block on both sequences), with edits in two blocks.
TEST(BlockedPass, ProjectionRowBlocksInParallelMatchNaiveProductsAndTheOneRowPath)
{
    const long n = 3 * kProjectionBlockRows + 5;
    const long m = 2 * kProjectionBlockRows + 30;
    RandomSpec spec{n, m, 64, 64, 48, 1, 4, Mode::Cross, 43};
    AttentionInput in = randomInput(spec);
    const double work = static_cast<double>(n * 64 * 64 + m * 64 * (64 + 48));
    ASSERT_GE(work, kParallelProjectionWork);
    in.edits.push_back(
        VectorEdit{Role::Query, 0, static_cast<int>(kProjectionBlockRows) + 3, 2.0, {}});
    in.edits.push_back(VectorEdit{Role::Key, 0, static_cast<int>(m) - 1, 1.0, {{5, 0.25}}});
    MatrixT<double> Q, K, V;
    projectInto<double>(in, 0, {Role::Query, Role::Key, Role::Value}, {&Q, &K, &V});
    const struct {
        Role role;
        const MatrixT<double>& got;
        const Matrix& src;
        const Matrix& w;
    } cases[] = {{Role::Query, Q, in.X, in.heads[0].W_Q},
                 {Role::Key, K, in.Y, in.heads[0].W_K},
                 {Role::Value, V, in.Y, in.heads[0].W_V}};
    for (const auto& c : cases) {
        ASSERT_EQ(c.got.rows(), c.src.rows());
        ASSERT_EQ(c.got.cols(), c.w.cols());
        double worst = 0;
        for (long i = 0; i < c.src.rows(); ++i) {
            const VectorT<double> one = projectOne<double>(in, 0, c.role, static_cast<int>(i));
            for (long j = 0; j < c.w.cols(); ++j) {
                double naive = 0;
                for (long k = 0; k < c.src.cols(); ++k) naive += c.src(i, k) * c.w(k, j);
                if (const VectorEdit* e = findEdit(in.edits, c.role, 0, static_cast<int>(i))) {
                    for (const ComponentOverride& o : e->overrides)
                        if (o.component == j) naive = o.value;
                    naive *= e->scale;
                }
                worst = std::max(worst, std::abs(c.got(i, j) - naive));
                worst = std::max(worst, std::abs(c.got(i, j) - one[j]));
            }
        }
        EXPECT_LE(worst, 1e-12) << "role " << static_cast<int>(c.role);
    }
    EXPECT_EQ(K(m - 1, 5), 0.25);
}

}  // namespace
}  // namespace attn
