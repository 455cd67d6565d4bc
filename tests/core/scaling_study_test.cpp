// SPDX-License-Identifier: GPL-3.0-or-later
// The measured case for dividing by sqrt(d_k) (lesson 6's plot): the variance of q.k over
// random unit-variance vectors grows like d_k, the scaled one stays near 1, and unscaled
// softmax rows lose their entropy as d_k grows.
#include "core/scaling_study.h"

#include <cmath>
#include <gtest/gtest.h>

namespace attn {
namespace {

ScalingStudySpec spec(std::vector<long> dKs, std::uint64_t seed = 1)
{
    ScalingStudySpec s;
    s.dKs = std::move(dKs);
    s.queries = 1024;
    s.seed = seed;
    return s;
}

TEST(ScalingStudy, UnscaledVarianceGrowsWithDk)
{
    const std::vector<ScalingStudyPoint> points = scalingStudy(spec({1, 64, 512}));
    ASSERT_EQ(points.size(), 3u);
    for (const ScalingStudyPoint& p : points) {
        const double dk = static_cast<double>(p.dK);
        EXPECT_NEAR(p.varianceUnscaled / dk, 1.0, 0.15) << "d_k " << p.dK;
    }
    EXPECT_GT(points[2].varianceUnscaled, 100.0 * points[0].varianceUnscaled);
}

TEST(ScalingStudy, ScaledVarianceStaysNearOne)
{
    for (const ScalingStudyPoint& p : scalingStudy(spec({}))) {
        EXPECT_NEAR(p.varianceScaled, 1.0, 0.15) << "d_k " << p.dK;
        EXPECT_NEAR(p.varianceScaled * static_cast<double>(p.dK), p.varianceUnscaled,
                    1e-9 * p.varianceUnscaled);
    }
}

TEST(ScalingStudy, UnscaledEntropyFallsFarBelowScaled)
{
    const std::vector<ScalingStudyPoint> points = scalingStudy(spec({1, 512}));
    ASSERT_EQ(points.size(), 2u);
    // Eight keys per row: at most log 8 = 2.08 nats.
    for (const ScalingStudyPoint& p : points) {
        EXPECT_LE(p.entropyUnscaled, std::log(8.0) + 1e-12);
        EXPECT_LE(p.entropyScaled, std::log(8.0) + 1e-12);
    }
    EXPECT_NEAR(points[0].entropyUnscaled, points[0].entropyScaled, 1e-12);  // d_k = 1
    EXPECT_LT(points[1].entropyUnscaled, 0.25 * points[1].entropyScaled);
    EXPECT_NEAR(points[1].entropyScaled, points[0].entropyScaled, 0.1);
}

TEST(ScalingStudy, SameSeedGivesIdenticalPointsAndOrderDoesNotMatter)
{
    const std::vector<ScalingStudyPoint> a = scalingStudy(spec({512, 16, 16, 0, 3}, 7));
    const std::vector<ScalingStudyPoint> b = scalingStudy(spec({3, 16, 512}, 7));
    ASSERT_EQ(a.size(), 3u);
    ASSERT_EQ(b.size(), 3u);
    for (std::size_t i = 0; i < a.size(); ++i) {
        EXPECT_EQ(a[i].dK, b[i].dK);
        EXPECT_EQ(a[i].varianceUnscaled, b[i].varianceUnscaled);
        EXPECT_EQ(a[i].entropyUnscaled, b[i].entropyUnscaled);
        EXPECT_EQ(a[i].entropyScaled, b[i].entropyScaled);
    }
    EXPECT_EQ(a[0].dK, 3);
    const std::vector<ScalingStudyPoint> other = scalingStudy(spec({16}, 8));
    EXPECT_NE(other[0].varianceUnscaled, a[1].varianceUnscaled);
}

TEST(ScalingStudy, DefaultDkAreOneToFiveHundredTwelve)
{
    const std::vector<long> d = powersOfTwoDk();
    ASSERT_EQ(d.size(), 10u);
    EXPECT_EQ(d.front(), 1);
    EXPECT_EQ(d.back(), 512);
}

}  // namespace
}  // namespace attn
