// SPDX-License-Identifier: GPL-3.0-or-later
// The long-sequence path (float, only the weights kept) against PyTorch's fixtures and the naive
// double reference, its progress and cancelling, its memory estimate and its refusals.
#include "core/long_attention.h"

#include <cmath>
#include <gtest/gtest.h>
#include <vector>

#include "core/naive_reference.h"
#include "core/random_init.h"
#include "support/fixture_reader.h"
#include "support/matrix_compare.h"

namespace attn {
namespace {

using test::maxAbsDiff;

// Float against double: weights lie in [0, 1] and the fixtures' outputs are of order 1.
constexpr double kFloatTolerance = 2e-5;

void expectMatches(const AttentionInput& in, const AttentionResult& want, double tolerance)
{
    LongResult got;
    const LongOutcome o = computeLongAttention(in, got);
    ASSERT_TRUE(o.ok()) << describe(o.status);
    ASSERT_EQ(got.heads.size(), want.heads.size());
    for (std::size_t h = 0; h < got.heads.size(); ++h) {
        const LongHead& g = got.heads[h];
        const HeadResult& w = want.heads[h];
        SCOPED_TRACE("head " + std::to_string(h));
        EXPECT_LE(maxAbsDiff(g.weights, w.weights), tolerance);
        EXPECT_LE(maxAbsDiff(g.output, w.output), tolerance);
        EXPECT_LE(maxAbsDiff(g.maxWeight, w.diagnostics.maxWeight), tolerance);
        EXPECT_LE(maxAbsDiff(g.entropy, w.diagnostics.entropy), 1e-4);
        for (long i = 0; i < g.weights.rows(); ++i) {
            const bool masked = w.diagnostics.fullyMasked[static_cast<std::size_t>(i)];
            EXPECT_EQ(g.argmax[i] < 0, masked) << "row " << i;
            for (long j = 0; j < g.weights.cols(); ++j) {
                if (!w.mask(i, j)) {
                    EXPECT_EQ(g.weights(i, j), 0.0f) << i << ", " << j;
                }
            }
        }
        // A row's scores, recomputed on demand, are the kept scores of the full path.
        VectorT<float> raw, scaled;
        const long row = g.weights.rows() / 2;
        longRowScores(in, got, static_cast<int>(h), row, raw, scaled);
        EXPECT_LE(maxAbsDiff(raw.transpose(), w.scores.row(row)), 1e-4);
        EXPECT_LE(maxAbsDiff(scaled.transpose(), w.scaled.row(row)), 1e-4);
    }
    EXPECT_LE(maxAbsDiff(got.output, want.output), tolerance);
}

TEST(LongAttention, MatchesTorchOnEveryDotProductFixtureWithin2e5)
{
    int checked = 0;
    for (const std::string& name : attn_test::listFixtures()) {
        attn_test::ReferenceFixture fx;
        ASSERT_EQ(attn_test::readFixture(attn_test::fixturePath(name), fx), "");
        if (fx.input.score != ScoreFunction::Dot) continue;
        SCOPED_TRACE("fixture " + name);
        // The fixture's expected stages as a result, to compare through one helper.
        AttentionResult want;
        ASSERT_TRUE(naiveAttention(fx.input, want).ok());
        for (std::size_t h = 0; h < fx.heads.size(); ++h) {
            want.heads[h].weights = fx.heads[h].weights;
            want.heads[h].output = fx.heads[h].output;
            want.heads[h].scores = fx.heads[h].scores;
            want.heads[h].scaled = fx.heads[h].scaled;
        }
        want.output = fx.output;
        expectMatches(fx.input, want, kFloatTolerance);
        ++checked;
    }
    EXPECT_GE(checked, 6);
}

struct LongCase {
    const char* name;
    Mode mode;
    bool customMask;
    long heads;
};

TEST(LongAttention, MatchesTheNaiveReferenceAcrossBlocksInEveryMode)
{
    // n = 300: two full blocks of 128 rows and a partial one; the custom mask has a fully
    // masked row and a row allowed only its last key.
    const LongCase cases[] = {{"self", Mode::Self, false, 1},
                              {"causal", Mode::Causal, false, 2},
                              {"cross", Mode::Cross, false, 1},
                              {"custom mask", Mode::Self, true, 2}};
    for (const LongCase& c : cases) {
        SCOPED_TRACE(c.name);
        RandomSpec spec;
        spec.n = 300;
        spec.m = c.mode == Mode::Cross ? 170 : 300;
        spec.dModel = 16;
        spec.dK = 8;
        spec.dV = 6;
        spec.heads = c.heads;
        spec.mode = c.mode;
        spec.seed = 11;
        AttentionInput in = randomInput(spec);
        if (c.customMask) {
            BoolMatrix mask = BoolMatrix::Constant(in.queryCount(), in.keyCount(), true);
            for (long i = 0; i < mask.rows(); ++i) mask(i, (i * 7) % mask.cols()) = false;
            mask.row(5).setConstant(false);
            mask.row(200).setConstant(false);
            mask(200, mask.cols() - 1) = true;
            in.mask = mask;
        }
        AttentionResult want;
        ASSERT_TRUE(naiveAttention(in, want).ok());
        expectMatches(in, want, kFloatTolerance);
    }
}

TEST(LongAttention, ReportsProgressToTheEndAndCancelsLeavingTheResultUntouched)
{
    RandomSpec spec;
    spec.n = 1000;
    spec.dModel = 8;
    spec.dK = 8;
    spec.dV = 8;
    spec.heads = 2;
    const AttentionInput in = randomInput(spec);
    std::vector<double> seen;
    LongResult r;
    ASSERT_TRUE(computeLongAttention(in, r, {}, [&](double f) {
                    seen.push_back(f);
                    return true;
                }).ok());
    ASSERT_FALSE(seen.empty());
    for (std::size_t k = 1; k < seen.size(); ++k) EXPECT_GE(seen[k], seen[k - 1]);
    EXPECT_GT(seen.back(), 0.0);
    EXPECT_LE(seen.back(), 1.0);

    LongResult kept = r;
    int calls = 0;
    const LongOutcome o = computeLongAttention(randomInput(RandomSpec{}), kept, {}, [&](double) {
        ++calls;
        return false;
    });
    EXPECT_TRUE(o.cancelled);
    EXPECT_TRUE(o.status.ok());
    EXPECT_EQ(calls, 1);
    EXPECT_TRUE(kept.heads[0].weights == r.heads[0].weights);
}

TEST(LongAttention, RecomputingIntoTheOldWeightsGivesTheSameBitsInTheSameMemory)
{
    RandomSpec spec;
    spec.n = 300;
    spec.dModel = 8;
    spec.dK = 8;
    spec.dV = 4;
    spec.heads = 2;
    spec.mode = Mode::Causal;
    AttentionInput in = randomInput(spec);
    LongResult first;
    ASSERT_TRUE(computeLongAttention(in, first).ok());
    // An edit, computed fresh and into the old result's memory.
    in.edits.push_back(VectorEdit{Role::Key, 1, 40, 2.0, {}});
    LongResult fresh;
    ASSERT_TRUE(computeLongAttention(in, fresh).ok());
    const float* memory = first.heads[1].weights.data();
    LongResult& reused = first;
    ASSERT_TRUE(computeLongAttention(in, reused, {}, {}, &reused).ok());
    EXPECT_EQ(reused.heads[1].weights.data(), memory);
    for (std::size_t h = 0; h < 2; ++h) {
        EXPECT_TRUE(reused.heads[h].weights == fresh.heads[h].weights) << "head " << h;
        EXPECT_TRUE(reused.heads[h].output == fresh.heads[h].output) << "head " << h;
    }
    // A cancelled recomputation leaves the recycled result empty, not half written.
    LongResult other;
    ASSERT_TRUE(computeLongAttention(in, other).ok());
    LongResult target;
    const LongOutcome o = computeLongAttention(
        in, target, {}, [](double) { return false; }, &other);
    EXPECT_TRUE(o.cancelled);
    EXPECT_TRUE(other.heads.empty());
    EXPECT_TRUE(target.heads.empty());
}

TEST(LongAttention, ThirtyTwoThousandTokensFitTheBudgetThatEveryStageInDoubleExceeds)
{
    RandomSpec spec;
    spec.n = 1;
    spec.dModel = 64;
    spec.dK = 64;
    spec.dV = 64;
    AttentionInput in = randomInput(spec);
    in.X = Matrix::Zero(32768, 64);  // only the shape matters to the estimates
    in.mode = Mode::Causal;
    const Limits budget;  // 6 GiB
    const std::size_t longBytes = estimateLongBytes(in, 2);
    EXPECT_GT(longBytes, std::size_t{4} << 30);  // P alone is 4 GiB
    EXPECT_LT(longBytes, budget.maxBytes);
    EXPECT_GT(estimateBytes(in, 8), budget.maxBytes);
    EXPECT_TRUE(validateLong(in, budget, 2).ok());
    in.X = Matrix::Zero(65536, 64);
    const Status s = validateLong(in, budget, 2);
    EXPECT_EQ(s.code, StatusCode::TooLarge);
    EXPECT_GT(s.bytesNeeded, std::size_t{16} << 30);
}

TEST(LongAttention, AdditiveScoresMatchTheNaiveReferenceAcrossBlocks)
{
    RandomSpec spec;
    spec.n = 200;
    spec.dModel = 8;
    spec.dK = 6;
    spec.dAdditive = 5;
    spec.mode = Mode::Causal;
    AttentionInput in = randomInput(spec);
    in.score = ScoreFunction::Additive;
    AttentionResult want;
    ASSERT_TRUE(naiveAttention(in, want).ok());
    expectMatches(in, want, kFloatTolerance);
}

TEST(LongAttention, OverflowingScoresAreRefusedByNameAndTheResultIsUntouched)
{
    RandomSpec spec;
    AttentionInput in = randomInput(spec);
    LongResult r;
    in.X *= 1e20;  // finite in double; q · k overflows a float
    in.scaling = Scaling::None;
    const Status s = computeLongAttention(in, r).status;
    EXPECT_EQ(s.code, StatusCode::NonFinite);
    EXPECT_TRUE(s.field == "Q" || s.field == "scores") << s.field;
    EXPECT_EQ(s.head, 0) << describe(s);
    EXPECT_TRUE(r.heads.empty());
}

}  // namespace
}  // namespace attn
