// SPDX-License-Identifier: GPL-3.0-or-later
// Seeded initialisation is reproducible and has the intended spread.
#include "core/random_init.h"

#include <gtest/gtest.h>

namespace attn {
namespace {

TEST(RandomInit, SameSeedGivesBitIdenticalInputs)
{
    const RandomSpec spec{5, 6, 4, 3, 2, 2, 3, Mode::Cross, 1234};
    const AttentionInput a = randomInput(spec);
    const AttentionInput b = randomInput(spec);
    EXPECT_EQ(a.X, b.X);
    EXPECT_EQ(a.Y, b.Y);
    EXPECT_EQ(a.heads[1].W_V, b.heads[1].W_V);
    EXPECT_EQ(a.W_O, b.W_O);
}

TEST(RandomInit, DifferentSeedsGiveDifferentInputs)
{
    RandomSpec spec;
    const AttentionInput a = randomInput(spec);
    spec.seed = 2;
    EXPECT_NE(a.X, randomInput(spec).X);
}

TEST(RandomInit, KnownSeedGivesKnownFirstValues)
{
    // Pinned so that a lesson or session saved with a seed opens identically forever.
    Rng rng(42);
    EXPECT_EQ(rng.nextU64(), 0xBDD732262FEB6E95ULL);
}

TEST(RandomInit, NormalSamplesHaveUnitVariance)
{
    Rng rng(7);
    const Matrix m = randomNormal(200, 100, rng);
    const double mean = m.mean();
    const double var = (m.array() - mean).square().mean();
    EXPECT_NEAR(mean, 0.0, 0.02);
    EXPECT_NEAR(var, 1.0, 0.03);
}

}  // namespace
}  // namespace attn
