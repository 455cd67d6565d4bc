// The blocked, parallel head pass (several row blocks, OpenMP threads) and the reuse of a
// result's buffers, against the naive reference and against a fresh computation.
#include <gtest/gtest.h>
#include <limits>

#include "core/head_pass.h"
#include "core/naive_reference.h"
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
    EXPECT_EQ(s.field, "heads[0].scaled") << describe(s);
}

}  // namespace
}  // namespace attn
