// SPDX-License-Identifier: GPL-3.0-or-later
// Why divide by sqrt(d_k): the variance of q.k grows with d_k, scaled scores do not,
// and unscaled rows collapse towards one-hot as d_k grows.
#include <gtest/gtest.h>

#include "core/attention.h"
#include "core/random_init.h"
#include "core/scores.h"

namespace attn {
namespace {

// Independent queries (n) and keys (m) with unit-variance components: cross mode with
// identity projections, so q.k is a sum of d_k products of independent N(0,1) numbers.
AttentionInput unitVarianceInput(long n, long m, long dk, Scaling scaling, std::uint64_t seed)
{
    Rng rng(seed);
    AttentionInput in;
    in.mode = Mode::Cross;
    in.X = randomNormal(n, dk, rng);
    in.Y = randomNormal(m, dk, rng);
    HeadParams p;
    p.W_Q = p.W_K = p.W_V = Matrix::Identity(dk, dk);
    in.heads.push_back(p);
    in.scaling = scaling;
    return in;
}

double variance(const Matrix& m)
{
    const double mean = m.mean();
    return (m.array() - mean).square().mean();
}

TEST(Scaling, ScoreVarianceGrowsWithDkUnscaledAndStaysNearOneScaled)
{
    for (long dk : {4L, 16L, 64L, 256L}) {
        AttentionResult raw, scaled;
        ASSERT_TRUE(
            computeAttention<double>(unitVarianceInput(200, 200, dk, Scaling::None, 3), raw).ok());
        ASSERT_TRUE(
            computeAttention<double>(unitVarianceInput(200, 200, dk, Scaling::SqrtDk, 3), scaled)
                .ok());
        const double vRaw = variance(raw.heads[0].scaled);
        const double vScaled = variance(scaled.heads[0].scaled);
        // var(q.k) = d_k for unit-variance components; allow sampling noise.
        EXPECT_NEAR(vRaw / static_cast<double>(dk), 1.0, 0.1) << "d_k " << dk;
        EXPECT_NEAR(vScaled, 1.0, 0.1) << "d_k " << dk;
    }
}

TEST(Scaling, UnscaledMeanEntropyDropsAsDkGrows)
{
    double previous = INFINITY;
    for (long dk : {1L, 8L, 64L, 512L}) {
        AttentionResult r;
        ASSERT_TRUE(
            computeAttention<double>(unitVarianceInput(256, 8, dk, Scaling::None, 5), r).ok());
        const double entropy = r.heads[0].diagnostics.entropy.mean();
        EXPECT_LT(entropy, previous) << "d_k " << dk;
        previous = entropy;
    }
    // With 8 keys per row: at d_k = 512 the unscaled rows are nearly one-hot: little entropy,
    // little gradient.
    AttentionResult raw, scaled;
    ASSERT_TRUE(
        computeAttention<double>(unitVarianceInput(256, 8, 512, Scaling::None, 5), raw).ok());
    ASSERT_TRUE(
        computeAttention<double>(unitVarianceInput(256, 8, 512, Scaling::SqrtDk, 5), scaled).ok());
    EXPECT_LT(raw.heads[0].diagnostics.entropy.mean(),
              0.25 * scaled.heads[0].diagnostics.entropy.mean());
    EXPECT_LT(raw.heads[0].diagnostics.jacobianNorm.mean(),
              0.25 * scaled.heads[0].diagnostics.jacobianNorm.mean());
}

TEST(Scaling, TemperatureDividesScores)
{
    AttentionInput in = unitVarianceInput(6, 5, 4, Scaling::Temperature, 9);
    in.temperature = 0.5;
    AttentionResult r;
    ASSERT_TRUE(computeAttention<double>(in, r).ok());
    EXPECT_LE((r.heads[0].scaled - r.heads[0].scores * 2.0).cwiseAbs().maxCoeff(), 1e-15);
}

TEST(Scaling, ScalerMultipliesByTheReciprocalAndDividesWhenItIsNotNormal)
{
    // sqrt(64) = 8: the product by 1/8 is exactly the quotient.
    const double in[4] = {1.0, -3.7, 1e-300, 123456.789};
    double out[4] = {};
    ScoreScaler<double>(8.0).apply(in, out, 4);
    for (int k = 0; k < 4; ++k) EXPECT_EQ(out[k], in[k] / 8.0) << k;
    // Any divisor: within an ulp of the quotient.
    ScoreScaler<double>(std::sqrt(3.0)).apply(in, out, 4);
    for (int k = 0; k < 4; ++k)
        EXPECT_LE(std::abs(out[k] - in[k] / std::sqrt(3.0)), std::abs(in[k]) * 2.3e-16) << k;
    // A temperature whose reciprocal overflows: 0 stays 0 (not 0 * inf = NaN).
    const double tiny[2] = {0.0, 1e-320};
    double scaled[2] = {};
    ScoreScaler<double>(1e-310).apply(tiny, scaled, 2);
    EXPECT_EQ(scaled[0], 0.0);
    EXPECT_EQ(scaled[1], 1e-320 / 1e-310);
}

}  // namespace
}  // namespace attn
