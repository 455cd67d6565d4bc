// SPDX-License-Identifier: GPL-3.0-or-later
// core/train/loss.h: the values against direct formulas, what fully masked rows and zero
// targets contribute, underflowed weights, and the refusals of bad targets.

#include <cmath>
#include <gtest/gtest.h>

#include "support/grad_check.h"
#include "train/grad_cases.h"

namespace attn::test {
namespace {

TEST(LossCrossEntropy, ValueIsMeanOverTargetRowsOfMinusTLogP)
{
    const AttentionInput in = makeGradInput({.mode = Mode::Causal, .seed = 3});
    AttentionResult r;
    ASSERT_TRUE(computeAttention<double>(in, r).ok());
    Rng rng(4);
    LossSpec spec;
    spec.patterns.push_back({0, randomPattern(5, 5, rng)});
    spec.patterns[0].pattern.row(2).setZero();  // no target in row 2
    spec.patterns[0].pattern(0, 0) = 0.5;       // causal row 0 allows key 0 only
    LossValueT<double> v;
    CotangentT<double> cot;
    ASSERT_TRUE(evaluateLoss<double>(in, r, spec, v, &cot).ok());
    double sum = 0;
    long rows = 0;
    for (long i = 0; i < 5; ++i) {
        double mass = 0;
        for (long j = 0; j <= i; ++j) mass += spec.patterns[0].pattern(i, j);
        if (mass == 0) continue;
        ++rows;
        for (long j = 0; j <= i; ++j)
            sum -= spec.patterns[0].pattern(i, j) / mass * std::log(r.heads[0].weights(i, j));
    }
    EXPECT_EQ(v.patternRows, rows);
    EXPECT_EQ(v.patternRows, 4);
    EXPECT_NEAR(v.crossEntropy, sum / static_cast<double>(rows), 1e-14);
    EXPECT_EQ(v.mse, 0);
    EXPECT_EQ(v.total, v.crossEntropy);
    EXPECT_TRUE(cot.output.size() == 0);
    ASSERT_EQ(cot.scaled.size(), 1u);
    // dZ = (P - t) / rows on allowed cells of target rows, 0 elsewhere.
    EXPECT_EQ(cot.scaled[0].row(2).norm(), 0);
    EXPECT_EQ(cot.scaled[0](1, 3), 0);  // masked by causality
    const double mass1 = spec.patterns[0].pattern.row(1).head(2).sum();
    EXPECT_NEAR(cot.scaled[0](1, 1),
                (r.heads[0].weights(1, 1) - spec.patterns[0].pattern(1, 1) / mass1) / rows, 1e-15);
}

TEST(LossCrossEntropy, FullyMaskedRowContributesNothing)
{
    const AttentionInput in = makeGradInput({.customMask = true, .seed = 5});
    AttentionResult r;
    ASSERT_TRUE(computeAttention<double>(in, r).ok());
    ASSERT_TRUE(r.heads[0].diagnostics.fullyMasked[1]);
    Rng rng(6);
    LossSpec spec;
    spec.patterns.push_back({0, randomPattern(5, 5, rng)});
    spec.patterns[0].pattern.row(1).setConstant(1.0);
    spec.patterns[0].pattern(3, 0) = 0.5;  // row 3 allows key 0 only
    spec.output = randomNormal(5, 3, rng);
    LossValueT<double> v;
    CotangentT<double> cot;
    ASSERT_TRUE(evaluateLoss<double>(in, r, spec, v, &cot).ok());

    // Changing the masked row's targets changes nothing.
    LossSpec other = spec;
    other.patterns[0].pattern.row(1).setConstant(7.0);
    other.output.row(1).setConstant(-100.0);
    LossValueT<double> w;
    CotangentT<double> cotOther;
    ASSERT_TRUE(evaluateLoss<double>(in, r, other, w, &cotOther).ok());
    EXPECT_EQ(v.total, w.total);
    EXPECT_EQ(v.patternRows, 4);
    EXPECT_EQ(cot.scaled[0].row(1).norm(), 0);
    EXPECT_EQ(cot.output.row(1).norm(), 0);
    EXPECT_EQ(cotOther.output.row(1).norm(), 0);
    // The MSE is the mean over the 4 unmasked rows' 12 entries.
    double sq = 0;
    for (long i : {0, 2, 3, 4}) sq += (r.output.row(i) - spec.output.row(i)).squaredNorm();
    EXPECT_NEAR(v.mse, sq / 12.0, 1e-14);
    EXPECT_NEAR(v.total, v.crossEntropy + v.mse, 1e-14);
}

TEST(LossCrossEntropy, TargetOnAnUnderflowedWeightGivesFiniteLossAndGradient)
{
    AttentionInput in = makeGradInput({.scaling = Scaling::None, .seed = 7});
    in.heads[0].W_Q *= 400.0;  // score gaps of order 1e3: weights underflow to 0
    AttentionResult r;
    ASSERT_TRUE(computeAttention<double>(in, r).ok());
    long row = -1;
    long col = -1;
    for (long i = 0; i < 5 && row < 0; ++i) {
        for (long j = 0; j < 5; ++j) {
            if (r.heads[0].weights(i, j) == 0.0) {
                row = i;
                col = j;
                break;
            }
        }
    }
    ASSERT_GE(row, 0) << "no weight underflowed";
    for (bool asFloat : {false, true}) {
        LossSpec spec;
        spec.patterns.push_back({0, Matrix::Zero(5, 5)});
        spec.patterns[0].pattern(row, col) = 1.0;
        GradientsT<double> g;
        if (!asFloat) {
            LossValueT<double> v;
            CotangentT<double> cot;
            ASSERT_TRUE(evaluateLoss<double>(in, r, spec, v, &cot).ok());
            EXPECT_TRUE(std::isfinite(v.total));
            EXPECT_GT(v.total, 100.0);  // -log P = the score gap, not inf
            // -log P = logsumexp - Z: the gap to the row's largest score, plus at most log 5.
            const double gap = r.heads[0].scaled.row(row).maxCoeff() - r.heads[0].scaled(row, col);
            EXPECT_GE(v.total, gap * (1 - 1e-12));
            EXPECT_LE(v.total, gap + std::log(5.0) + 1e-9);
            ASSERT_TRUE(backward<double>(in, r, cot, g).ok());
        } else {
            AttentionResultT<float> rf;
            ASSERT_TRUE(computeAttention<float>(in, rf).ok());
            LossValueT<float> v;
            CotangentT<float> cot;
            ASSERT_TRUE(evaluateLoss<float>(in, rf, spec, v, &cot).ok());
            EXPECT_TRUE(std::isfinite(v.total));
            GradientsT<float> gf;
            ASSERT_TRUE(backward<float>(in, rf, cot, gf).ok());
            EXPECT_TRUE(gf.heads[0].W_Q.allFinite());
            EXPECT_GT(gf.heads[0].W_Q.norm(), 0);
            continue;
        }
        EXPECT_TRUE(g.heads[0].W_Q.allFinite());
        EXPECT_TRUE(g.heads[0].W_K.allFinite());
        EXPECT_GT(g.heads[0].W_Q.norm(), 0);
    }
}

TEST(LossTarget, BadTargetsGiveTheirStatusesAndLeaveOutputsUntouched)
{
    const AttentionInput in = makeGradInput({.heads = 2});
    AttentionResult r;
    ASSERT_TRUE(computeAttention<double>(in, r).ok());
    LossValueT<double> v;
    v.total = 42;
    CotangentT<double> cot;
    cot.output = Matrix::Constant(1, 1, 3.0);
    auto run = [&](const LossSpec& spec) { return evaluateLoss<double>(in, r, spec, v, &cot); };

    LossSpec spec;
    spec.patterns.push_back({0, Matrix::Zero(5, 5)});
    spec.patterns.push_back({1, Matrix::Zero(5, 4)});
    Status s = run(spec);
    EXPECT_EQ(s.code, StatusCode::ShapeMismatch);
    EXPECT_EQ(s.field, "target pattern 2");
    EXPECT_EQ(s.expectedCols, 5);

    spec.patterns[1] = {2, Matrix::Zero(5, 5)};
    s = run(spec);
    EXPECT_EQ(s.code, StatusCode::EditOutOfRange);
    EXPECT_EQ(s.field, "target pattern 2, head");
    spec.patterns[1].head = -1;
    EXPECT_EQ(run(spec).code, StatusCode::EditOutOfRange);

    spec.patterns[1].head = 1;
    spec.patterns[1].pattern(3, 2) = -0.25;
    s = run(spec);
    EXPECT_EQ(s.code, StatusCode::BadTarget);
    EXPECT_EQ(s.field, "target pattern 2");
    EXPECT_EQ(s.row, 3);
    EXPECT_EQ(s.col, 2);

    spec.patterns[1].pattern(3, 2) = NAN;
    s = run(spec);
    EXPECT_EQ(s.code, StatusCode::NonFinite);
    EXPECT_EQ(s.row, 3);
    spec.patterns[1].pattern(3, 2) = INFINITY;
    EXPECT_EQ(run(spec).code, StatusCode::NonFinite);

    spec.patterns.pop_back();
    spec.output = Matrix::Zero(5, 5);  // two heads, no W_O: output is 5 x 6
    s = run(spec);
    EXPECT_EQ(s.code, StatusCode::ShapeMismatch);
    EXPECT_EQ(s.field, "target.output");
    EXPECT_EQ(s.expectedCols, 6);
    spec.output = Matrix::Zero(5, 6);
    spec.output(4, 5) = -INFINITY;
    s = run(spec);
    EXPECT_EQ(s.code, StatusCode::NonFinite);
    EXPECT_EQ(s.field, "target.output");
    EXPECT_EQ(s.row, 4);
    EXPECT_EQ(s.col, 5);

    EXPECT_EQ(v.total, 42);
    EXPECT_EQ(cot.output(0, 0), 3.0);
    spec.output(4, 5) = -1;  // negative outputs are fine
    EXPECT_TRUE(run(spec).ok());
}

TEST(LossTarget, RowsWithoutAllowedTargetMassCountForNothing)
{
    const AttentionInput in = makeGradInput({.mode = Mode::Causal, .seed = 8});
    AttentionResult r;
    ASSERT_TRUE(computeAttention<double>(in, r).ok());
    LossSpec spec;
    spec.patterns.push_back({0, Matrix::Zero(5, 5)});
    spec.patterns[0].pattern(0, 4) = 1.0;  // only on a cell causality masks
    LossValueT<double> v;
    CotangentT<double> cot;
    ASSERT_TRUE(evaluateLoss<double>(in, r, spec, v, &cot).ok());
    EXPECT_EQ(v.patternRows, 0);
    EXPECT_EQ(v.total, 0);
    EXPECT_EQ(cot.scaled[0].norm(), 0);
}

}  // namespace
}  // namespace attn::test
