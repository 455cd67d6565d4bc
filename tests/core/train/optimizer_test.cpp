// SPDX-License-Identifier: GPL-3.0-or-later
// Optimisers: SGD with momentum and Adam, against the update rules written out by hand.
#include "core/train/optimizer.h"

#include <cmath>
#include <gtest/gtest.h>

namespace attn {
namespace {

TEST(Optimizer, SgdMomentumFollowsItsRuleStepByStep)
{
    OptimizerSettings s;
    s.kind = OptimizerKind::Sgd;
    s.learningRate = 0.1;
    s.momentum = 0.5;
    Optimizer opt(s, 2);
    Vector p(2);
    p << 1.0, -2.0;
    Vector g(2);
    g << 0.4, -1.0;
    opt.step(p, g);  // v = g, p -= 0.1 g
    EXPECT_DOUBLE_EQ(p[0], 1.0 - 0.04);
    EXPECT_DOUBLE_EQ(p[1], -2.0 + 0.1);
    opt.step(p, g);  // v = 0.5 g + g = 1.5 g
    EXPECT_DOUBLE_EQ(p[0], 1.0 - 0.04 - 0.06);
    EXPECT_DOUBLE_EQ(p[1], -2.0 + 0.1 + 0.15);
    EXPECT_EQ(opt.stepsTaken(), 2);
}

TEST(Optimizer, AdamFirstStepsMatchTheBiasCorrectedRule)
{
    OptimizerSettings s;
    s.kind = OptimizerKind::Adam;
    s.learningRate = 0.01;
    Optimizer opt(s, 1);
    Vector p = Vector::Constant(1, 3.0);
    double m = 0.0;
    double v = 0.0;
    double ref = 3.0;
    for (int t = 1; t <= 5; ++t) {
        const double g = 2.0 * ref;  // gradient of x^2 at the reference point
        Vector grad = Vector::Constant(1, 2.0 * p[0]);
        opt.step(p, grad);
        m = 0.9 * m + 0.1 * g;
        v = 0.999 * v + 0.001 * g * g;
        const double mh = m / (1.0 - std::pow(0.9, t));
        const double vh = v / (1.0 - std::pow(0.999, t));
        ref -= 0.01 * mh / (std::sqrt(vh) + 1e-8);
        EXPECT_NEAR(p[0], ref, 1e-15) << "step " << t;
    }
    // Adam's first step has the size of the learning rate whatever the gradient's scale.
    Optimizer fresh(s, 1);
    Vector q = Vector::Constant(1, 3.0);
    fresh.step(q, Vector::Constant(1, 1e6));
    EXPECT_NEAR(3.0 - q[0], 0.01, 1e-9);
}

TEST(Optimizer, BothMinimiseAQuadraticAndRepeatExactly)
{
    for (OptimizerKind kind : {OptimizerKind::Sgd, OptimizerKind::Adam}) {
        OptimizerSettings s;
        s.kind = kind;
        s.learningRate = kind == OptimizerKind::Adam ? 0.05 : 0.02;
        const auto run = [&] {
            Optimizer opt(s, 3);
            Vector p(3);
            p << 2.0, -1.0, 0.5;
            for (int k = 0; k < 2000; ++k) {
                Vector g = 2.0 * p;
                g[1] *= 10.0;  // badly conditioned on purpose
                opt.step(p, g);
            }
            return p;
        };
        const Vector a = run();
        EXPECT_LT(a.norm(), 1e-3) << optimizerName(kind);
        const Vector b = run();
        EXPECT_EQ(a, b) << optimizerName(kind) << " is not deterministic";
    }
}

TEST(Optimizer, NamesParseBothWays)
{
    OptimizerKind k = OptimizerKind::Sgd;
    EXPECT_TRUE(parseOptimizerKind("adam", k));
    EXPECT_EQ(k, OptimizerKind::Adam);
    EXPECT_TRUE(parseOptimizerKind("sgd", k));
    EXPECT_EQ(k, OptimizerKind::Sgd);
    EXPECT_FALSE(parseOptimizerKind("rmsprop", k));
    EXPECT_STREQ(optimizerName(OptimizerKind::Adam), "adam");
}

}  // namespace
}  // namespace attn
