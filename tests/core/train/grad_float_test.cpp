// SPDX-License-Identifier: GPL-3.0-or-later
// backward<float> against backward<double> on the same sessions and objectives.
// Measure per parameter matrix: ||g_float - g_double||_F / ||g_double||_F <= 1e-5: float
// rounding (6e-8 per operation) of the forward and backward passes, amplified by the softmax
// and by sums of up to n m terms. Measured worst over these 18 sessions: 1.2e-6 (printed).

#include <cstdio>
#include <gtest/gtest.h>

#include "support/grad_check.h"
#include "train/grad_cases.h"

namespace attn::test {
namespace {

constexpr double kFloatTolerance = 1e-5;

TEST(GradFloat, FloatGradientsAgreeWithDouble_EverySettingCombination)
{
    double worst = 0;
    std::string worstWhere;
    int index = 0;
    for (Mode mode : {Mode::Self, Mode::Causal, Mode::Cross}) {
        for (Scaling scaling : {Scaling::None, Scaling::SqrtDk, Scaling::Temperature}) {
            for (ScoreFunction score : {ScoreFunction::Dot, ScoreFunction::Additive}) {
                ++index;
                const GradCase c{.mode = mode,
                                 .scaling = scaling,
                                 .score = score,
                                 .shared = index % 3 == 0,
                                 .biases = true,
                                 .edits = index % 2 == 0,
                                 .customMask = index % 4 < 2,
                                 .heads = 1 + index % 2,
                                 .outputProjection = index % 3 != 1,
                                 .seed = 300 + static_cast<std::uint64_t>(index)};
                AttentionInput in = makeGradInput(c);
                Rng rng(c.seed);
                const Objective objective = randomObjective(in, rng);
                GradientsT<double> gd;
                GradientsT<float> gf;
                double vd = 0;
                float vf = 0;
                ASSERT_TRUE(objectiveGradients<double>(in, objective, gd, &vd));
                ASSERT_TRUE(objectiveGradients<float>(in, objective, gf, &vf));
                // The objective sums terms of either sign (its random linear parts), so its value
                // can be far smaller than its terms: the float error is relative to max(|value|,
                // 1).
                EXPECT_NEAR(vf, vd, 1e-5 * std::max(1.0, std::abs(vd))) << "combination " << index;
                // Compare matrix by matrix through the double views' names and sizes.
                GradientsT<double> gfd;
                gfd.W_O = gf.W_O.cast<double>();
                gfd.X = gf.X.cast<double>();
                gfd.Y = gf.Y.cast<double>();
                for (const HeadGradientsT<float>& h : gf.heads) {
                    HeadGradientsT<double> d;
                    d.W_Q = h.W_Q.cast<double>();
                    d.W_K = h.W_K.cast<double>();
                    d.W_V = h.W_V.cast<double>();
                    d.b_Q = h.b_Q.cast<double>();
                    d.b_K = h.b_K.cast<double>();
                    d.b_V = h.b_V.cast<double>();
                    d.W_a = h.W_a.cast<double>();
                    d.U_a = h.U_a.cast<double>();
                    d.v = h.v.cast<double>();
                    gfd.heads.push_back(d);
                }
                AttentionInput a = in;
                AttentionInput b = in;
                const std::vector<ParamView> want = parameterViews(a, gd);
                const std::vector<ParamView> got = parameterViews(b, gfd);
                ASSERT_EQ(want.size(), got.size());
                for (std::size_t k = 0; k < want.size(); ++k) {
                    ASSERT_NE(got[k].grad, nullptr) << got[k].name;
                    const Eigen::Map<const Vector> w(want[k].grad, want[k].size);
                    const Eigen::Map<const Vector> g(got[k].grad, got[k].size);
                    const double rel = w.norm() == 0 ? g.norm() : (g - w).norm() / w.norm();
                    EXPECT_LE(rel, kFloatTolerance)
                        << "combination " << index << " " << want[k].name;
                    if (rel > worst) {
                        worst = rel;
                        worstWhere = "combination " + std::to_string(index) + " " + want[k].name;
                    }
                }
            }
        }
    }
    std::printf("[ figures  ] float vs double: worst rel. difference %.2e (%s)\n", worst,
                worstWhere.c_str());
}

}  // namespace
}  // namespace attn::test
