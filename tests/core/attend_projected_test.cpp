// SPDX-License-Identifier: GPL-3.0-or-later
// attendProjected() runs the kernel's steps 2-5 on Q, K, V made elsewhere: it must give
// exactly what computeAttention() gives for the same projections.
#include "core/attend_projected.h"

#include <gtest/gtest.h>

#include "core/random_init.h"
#include "support/matrix_compare.h"

namespace attn {
namespace {

void expectSameAsKernel(Mode mode, Scaling scaling, double temperature)
{
    RandomSpec spec;
    spec.n = 9;
    spec.m = 9;
    spec.dModel = 6;
    spec.dK = 4;
    spec.dV = 3;
    spec.heads = 2;
    spec.mode = mode;
    spec.seed = 7;
    AttentionInput in = randomInput(spec);
    in.scaling = scaling;
    in.temperature = temperature;
    AttentionResultT<float> want;
    ASSERT_TRUE(computeAttention<float>(in, want).ok());
    for (std::size_t h = 0; h < want.heads.size(); ++h) {
        HeadResultT<float> got;
        got.Q = want.heads[h].Q;
        got.K = want.heads[h].K;
        got.V = want.heads[h].V;
        ASSERT_TRUE(attendProjected<float>(mode, scaling, got, temperature).ok());
        EXPECT_EQ(test::maxAbsDiff(got.scaled, want.heads[h].scaled), 0.0);
        EXPECT_EQ(test::maxAbsDiff(got.weights, want.heads[h].weights), 0.0);
        EXPECT_EQ(test::maxAbsDiff(got.output, want.heads[h].output), 0.0);
        EXPECT_TRUE(got.mask == want.heads[h].mask);
    }
}

TEST(AttendProjected, MatchesComputeAttentionForSelfAndCausal)
{
    expectSameAsKernel(Mode::Self, Scaling::SqrtDk, 1.0);
    expectSameAsKernel(Mode::Causal, Scaling::SqrtDk, 1.0);
    expectSameAsKernel(Mode::Causal, Scaling::None, 1.0);
    expectSameAsKernel(Mode::Self, Scaling::Temperature, 0.7);
}

TEST(AttendProjected, CausalRowsHaveExactZerosPastThePrefix)
{
    HeadResultT<float> hr;
    hr.Q = MatrixT<float>::Random(5, 4);
    hr.K = MatrixT<float>::Random(5, 4);
    hr.V = MatrixT<float>::Random(5, 2);
    ASSERT_TRUE(attendProjected<float>(Mode::Causal, Scaling::SqrtDk, hr).ok());
    for (long i = 0; i < 5; ++i) {
        EXPECT_NEAR(hr.weights.row(i).sum(), 1.0f, 1e-6f);
        for (long j = i + 1; j < 5; ++j) EXPECT_EQ(hr.weights(i, j), 0.0f);
    }
}

TEST(AttendProjected, RefusesShapesThatDoNotFit)
{
    HeadResultT<float> hr;
    hr.Q = MatrixT<float>::Random(3, 4);
    hr.K = MatrixT<float>::Random(3, 5);
    hr.V = MatrixT<float>::Random(3, 2);
    EXPECT_EQ(attendProjected<float>(Mode::Self, Scaling::SqrtDk, hr).field, "K");
    hr.K = MatrixT<float>::Random(4, 4);
    EXPECT_EQ(attendProjected<float>(Mode::Self, Scaling::SqrtDk, hr).field, "V");
    hr.V = MatrixT<float>::Random(4, 2);
    EXPECT_EQ(attendProjected<float>(Mode::Causal, Scaling::SqrtDk, hr).field, "Q");
    EXPECT_TRUE(attendProjected<float>(Mode::Cross, Scaling::SqrtDk, hr).ok());
}

}  // namespace
}  // namespace attn
