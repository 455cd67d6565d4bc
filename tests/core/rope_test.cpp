// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/rope.h"

#include <cmath>
#include <gtest/gtest.h>
#include <numbers>

namespace {

using attn::MatrixT;
using attn::Rope;
using attn::RopeScaling;

TEST(Rope, RotationTurnsEachPairByPositionTimesFrequency)
{
    MatrixT<double> x(1, 4);
    x << 1.0, 2.0, 3.0, 4.0;
    Rope rope;
    rope.theta = 100.0;
    attn::applyRope(x, rope, 3);
    // pairs (x0, x2) at frequency 1 and (x1, x3) at 100^(-1/2) = 0.1, position 3
    const double a0 = 3.0, a1 = 0.3;
    EXPECT_NEAR(x(0, 0), 1.0 * std::cos(a0) - 3.0 * std::sin(a0), 1e-15);
    EXPECT_NEAR(x(0, 2), 3.0 * std::cos(a0) + 1.0 * std::sin(a0), 1e-15);
    EXPECT_NEAR(x(0, 1), 2.0 * std::cos(a1) - 4.0 * std::sin(a1), 1e-15);
    EXPECT_NEAR(x(0, 3), 4.0 * std::cos(a1) + 2.0 * std::sin(a1), 1e-15);
}

TEST(Rope, ScoreDependsOnlyOnTheDistanceBetweenQueryAndKey)
{
    MatrixT<double> q = MatrixT<double>::Random(1, 8), k = MatrixT<double>::Random(1, 8);
    Rope rope;
    auto score = [&](long m, long n) {
        MatrixT<double> a = q, b = k;
        attn::applyRope(a, rope, m);
        attn::applyRope(b, rope, n);
        return a.row(0).dot(b.row(0));
    };
    EXPECT_NEAR(score(7, 3), score(104, 100), 1e-12);
    EXPECT_NEAR(score(0, 0), q.row(0).dot(k.row(0)), 1e-12);
}

TEST(Rope, TableRotatesAsTheDirectFormula)
{
    MatrixT<float> x = MatrixT<float>::Random(5, 16);
    MatrixT<float> y = x.bottomRows(3);
    Rope rope;
    rope.theta = 500000.0;
    attn::applyRope(x, rope, 10);
    const attn::RopeTable table = attn::ropeTable(rope, 16, 10, 5);
    attn::applyRope(y, table, 2);
    EXPECT_LT((x.bottomRows(3) - y).cwiseAbs().maxCoeff(), 1e-6f);
}

TEST(Rope, Llama3ScalingKeepsHighFrequenciesAndDividesLowOnes)
{
    Rope plain;
    plain.theta = 500000.0;
    Rope scaled = plain;
    scaled.scaling = RopeScaling::Llama3;
    scaled.factor = 8.0;
    scaled.lowFreqFactor = 1.0;
    scaled.highFreqFactor = 4.0;
    scaled.originalPositions = 8192;
    const auto f = attn::ropeInverseFrequencies(plain, 64);
    const auto g = attn::ropeInverseFrequencies(scaled, 64);
    ASSERT_EQ(f.size(), 32u);
    EXPECT_DOUBLE_EQ(g[0], f[0]);            // wavelength 2 pi: kept
    EXPECT_NEAR(g[31], f[31] / 8.0, 1e-18);  // wavelength beyond 8192: divided
    int blended = 0;
    for (std::size_t i = 0; i < f.size(); ++i) {
        EXPECT_LE(g[i], f[i]);
        EXPECT_GE(g[i], f[i] / 8.0 * (1 - 1e-12));
        const double wavelength = 2 * std::numbers::pi / f[i];
        if (wavelength > 2048 && wavelength < 8192) ++blended;
    }
    EXPECT_GT(blended, 0);
}

TEST(Rope, LinearScalingDividesEveryFrequency)
{
    Rope rope;
    rope.scaling = RopeScaling::Linear;
    rope.factor = 4.0;
    const auto g = attn::ropeInverseFrequencies(rope, 8);
    EXPECT_DOUBLE_EQ(g[0], 0.25);
    EXPECT_NEAR(g[1], std::pow(10000.0, -0.25) / 4.0, 1e-15);
}

TEST(Rope, ProblemNamesOddWidthAndBadFactors)
{
    Rope rope;
    EXPECT_EQ(attn::ropeProblem(rope, 8), "");
    EXPECT_NE(attn::ropeProblem(rope, 7).find("even"), std::string::npos);
    rope.theta = -1;
    EXPECT_NE(attn::ropeProblem(rope, 8).find("theta"), std::string::npos);
    rope.theta = 10000;
    rope.scaling = RopeScaling::Llama3;
    rope.factor = 8;
    rope.lowFreqFactor = 4;
    rope.highFreqFactor = 1;
    EXPECT_NE(attn::ropeProblem(rope, 8).find("low_freq_factor"), std::string::npos);
    RopeScaling s;
    EXPECT_TRUE(attn::parseRopeScaling("llama3", s));
    EXPECT_EQ(s, RopeScaling::Llama3);
    EXPECT_FALSE(attn::parseRopeScaling("yarn", s));
}

}  // namespace
