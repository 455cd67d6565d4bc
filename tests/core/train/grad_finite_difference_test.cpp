// SPDX-License-Identifier: GPL-3.0-or-later
// Every analytic gradient of core/train/gradients.h against finite differences of the
// objective (the losses of core/train/loss.h plus linear terms on P and Z), in double.
// Method and measure: tests/core/support/grad_check.h.

#include <cstdio>
#include <gtest/gtest.h>

#include "support/grad_check.h"
#include "train/grad_cases.h"

namespace attn::test {
namespace {

constexpr double kFiniteDifferenceTolerance = 1e-6;
// The finite-difference reference itself must be far more accurate than what it checks.
constexpr double kSpreadTolerance = 1e-8;

FdReport checkCase(const GradCase& c, const char* label)
{
    const AttentionInput in = makeGradInput(c);
    Rng rng(c.seed + 1000);
    const Objective objective = randomObjective(in, rng);
    GradientsT<double> grads;
    EXPECT_TRUE(objectiveGradients<double>(in, objective, grads));
    const FdReport report = finiteDifferenceCheck(in, objective, grads);
    for (const MatrixCheck& m : report.matrices) {
        EXPECT_LE(m.relError, kFiniteDifferenceTolerance)
            << label << ": " << m.name << " (|g_fd| " << m.norm << ")";
        EXPECT_LE(m.fdSpread, kSpreadTolerance) << label << ": " << m.name;
    }
    std::printf("[ figures  ] %-44s worst rel. error %.2e (%s), FD spread %.1e, %zu matrices\n",
                label, report.worst, report.worstName.c_str(), report.worstSpread,
                report.matrices.size());
    return report;
}

TEST(GradFiniteDifference, EveryParameterMatchesCentralDifferences_SelfDotSqrt)
{
    checkCase({.seed = 11}, "self dot sqrt");
}

TEST(GradFiniteDifference, EveryParameterMatchesCentralDifferences_CausalAdditiveEdits)
{
    checkCase({.mode = Mode::Causal,
               .score = ScoreFunction::Additive,
               .biases = true,
               .edits = true,
               .seed = 12},
              "causal additive biases edits");
}

TEST(GradFiniteDifference, EveryParameterMatchesCentralDifferences_CrossDotTemperatureBiases)
{
    checkCase({.mode = Mode::Cross,
               .scaling = Scaling::Temperature,
               .temperature = 0.6,
               .biases = true,
               .seed = 13},
              "cross dot temperature biases");
}

TEST(GradFiniteDifference,
     EveryParameterMatchesCentralDifferences_CustomMaskFullyMaskedRowUnscaledTwoHeadsW_O)
{
    const GradCase c{.scaling = Scaling::None,
                     .customMask = true,
                     .heads = 2,
                     .outputProjection = true,
                     .seed = 14};
    AttentionResult r;
    ASSERT_TRUE(computeAttention<double>(makeGradInput(c), r).ok());
    ASSERT_TRUE(r.heads[0].diagnostics.fullyMasked[1]);
    checkCase(c, "custom mask, full row, none, 2 heads, W_O");
}

TEST(GradFiniteDifference, EveryParameterMatchesCentralDifferences_SharedProjectionsBiasesEdits)
{
    checkCase({.shared = true, .biases = true, .edits = true, .seed = 15},
              "shared projections biases edits");
}

TEST(GradFiniteDifference, EveryParameterMatchesCentralDifferences_CrossAdditiveTwoHeadsNoW_O)
{
    checkCase({.mode = Mode::Cross,
               .score = ScoreFunction::Additive,
               .biases = true,
               .edits = true,
               .customMask = true,
               .heads = 2,
               .seed = 16},
              "cross additive mask edits, 2 heads, no W_O");
}

// With rotary positions the scores see Q and K turned; the gradients are turned back.
TEST(GradFiniteDifference, EveryParameterMatchesCentralDifferences_RotaryPositions)
{
    for (Mode mode : {Mode::Self, Mode::Causal, Mode::Cross}) {
        RandomSpec spec;
        spec.n = 5;
        spec.m = 4;
        spec.dModel = 4;
        spec.dK = 4;
        spec.heads = 2;
        spec.mode = mode;
        spec.seed = 31 + static_cast<std::uint64_t>(mode);
        AttentionInput in = randomInput(spec);
        in.rope = Rope{};
        in.rope->theta = 3.0;
        in.edits.push_back({Role::Key, 1, 2, 1.5, {{0, 0.4}}});
        Rng rng(spec.seed + 1000);
        const Objective objective = randomObjective(in, rng);
        GradientsT<double> grads;
        ASSERT_TRUE(objectiveGradients<double>(in, objective, grads));
        const FdReport report = finiteDifferenceCheck(in, objective, grads);
        for (const MatrixCheck& m : report.matrices) {
            EXPECT_LE(m.relError, kFiniteDifferenceTolerance) << m.name;
            EXPECT_LE(m.fdSpread, kSpreadTolerance) << m.name;
        }
        std::printf("[ figures  ] %-44s worst rel. error %.2e (%s)\n", "rotary positions",
                    report.worst, report.worstName.c_str());
    }
}

// Every mode x scaling x scoring x shared combination, with biases, edits, a custom mask,
// one or two heads and W_O alternating between the cases.
TEST(GradFiniteDifference, EveryParameterMatchesCentralDifferences_EverySettingCombination)
{
    int index = 0;
    double worst = 0;
    for (Mode mode : {Mode::Self, Mode::Causal, Mode::Cross}) {
        for (Scaling scaling : {Scaling::None, Scaling::SqrtDk, Scaling::Temperature}) {
            for (ScoreFunction score : {ScoreFunction::Dot, ScoreFunction::Additive}) {
                for (bool shared : {false, true}) {
                    ++index;
                    const GradCase c{.mode = mode,
                                     .scaling = scaling,
                                     .temperature = 1.3,
                                     .score = score,
                                     .shared = shared,
                                     .biases = index % 2 == 0,
                                     .edits = index % 3 != 0,
                                     .customMask = index % 4 < 2,
                                     .heads = 1 + index % 2,
                                     .outputProjection = index % 5 < 3,
                                     .seed = 100 + static_cast<std::uint64_t>(index)};
                    const std::string label = "combination " + std::to_string(index);
                    worst = std::max(worst, checkCase(c, label.c_str()).worst);
                }
            }
        }
    }
    std::printf("[ figures  ] all 36 combinations: worst rel. error %.2e\n", worst);
}

// The check is sharp: a gradient wrong by 1e-5 of its norm in one entry fails it, and so does
// a backward pass that forgets the edits.
// Under the pure causal mask, with no cotangent above the diagonal (a cross-entropy's), the
// backward pass computes only each row block's prefix of keys: two blocks (128 rows and 3) here.
TEST(GradFiniteDifference, EveryParameterMatchesCentralDifferences_CausalPrefixBlocks)
{
    RandomSpec spec;
    spec.n = 131;
    spec.m = 131;
    spec.dModel = 2;
    spec.dK = 2;
    spec.dV = 2;
    spec.mode = Mode::Causal;
    spec.seed = 21;
    const AttentionInput in = randomInput(spec);
    Rng rng(77);
    Objective objective = randomObjective(in, rng);
    for (Matrix& d : objective.onScaled)
        for (long i = 0; i < d.rows(); ++i)
            for (long j = i + 1; j < d.cols(); ++j) d(i, j) = 0.0;
    GradientsT<double> grads;
    ASSERT_TRUE(objectiveGradients<double>(in, objective, grads));
    const FdReport report = finiteDifferenceCheck(in, objective, grads);
    for (const MatrixCheck& m : report.matrices) {
        EXPECT_LE(m.relError, kFiniteDifferenceTolerance) << m.name;
        EXPECT_LE(m.fdSpread, kSpreadTolerance) << m.name;
    }
    std::printf("[ figures  ] %-44s worst rel. error %.2e (%s)\n", "causal prefix blocks n=131",
                report.worst, report.worstName.c_str());
}

TEST(GradFiniteDifference, CheckRejectsWrongGradients_PerturbedEntryAndForgottenEdits)
{
    const GradCase c{.mode = Mode::Causal, .biases = true, .edits = true, .seed = 21};
    const AttentionInput in = makeGradInput(c);
    Rng rng(77);
    const Objective objective = randomObjective(in, rng);
    GradientsT<double> grads;
    ASSERT_TRUE(objectiveGradients<double>(in, objective, grads));

    GradientsT<double> nudged = grads;
    nudged.heads[0].W_K(1, 2) += 1e-5 * nudged.heads[0].W_K.norm();
    FdReport report = finiteDifferenceCheck(in, objective, nudged);
    EXPECT_GT(report.worst, 5e-6);
    EXPECT_EQ(report.worstName, "heads[0].W_K");

    AttentionInput noEdits = in;
    noEdits.edits.clear();
    AttentionResult r;
    ASSERT_TRUE(computeAttention<double>(in, r).ok());
    LossValueT<double> v;
    CotangentT<double> seed;
    ASSERT_TRUE(evaluateLoss<double>(in, r, objective.spec, v, &seed).ok());
    for (std::size_t h = 0; h < in.heads.size(); ++h) {
        seed.weights.push_back(objective.onWeights[h]);
        seed.scaled[h] += objective.onScaled[h];
    }
    GradientsT<double> forgetful;
    BackwardOptions options;
    options.embeddings = true;
    ASSERT_TRUE(backward<double>(noEdits, r, seed, forgetful, options).ok());
    report = finiteDifferenceCheck(in, objective, forgetful);
    EXPECT_GT(report.worst, 1e-3);
    std::printf("[ figures  ] nudged entry: %.2e; edits forgotten: %.2e (%s)\n",
                finiteDifferenceCheck(in, objective, nudged).worst, report.worst,
                report.worstName.c_str());
}

}  // namespace
}  // namespace attn::test
