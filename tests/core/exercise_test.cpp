// SPDX-License-Identifier: GPL-3.0-or-later
// The textbook exercise: four tokens, hand-filled 3x3 projections; compute the
// weights, then double one key vector and watch every row redistribute.
// Expected values were computed independently (numpy, float64) and written here.
#include <gtest/gtest.h>

#include "core/attention.h"
#include "support/matrix_compare.h"

namespace attn {
namespace {

AttentionInput exercise()
{
    AttentionInput in;
    in.X = Matrix{{1.0, 0.0, 1.0}, {0.0, 2.0, 0.0}, {1.0, 1.0, 0.0}, {0.0, 1.0, 1.0}};
    HeadParams p;
    p.W_Q = Matrix{{0.2, 0.1, 0.0}, {0.0, 0.3, 0.1}, {0.1, 0.0, 0.4}};
    p.W_K = Matrix{{0.3, 0.0, 0.1}, {0.1, 0.2, 0.0}, {0.0, 0.1, 0.3}};
    p.W_V = Matrix{{0.5, 0.0, 0.2}, {0.0, 0.4, 0.1}, {0.3, 0.1, 0.0}};
    in.heads.push_back(p);
    return in;
}

constexpr double kExerciseTolerance = 1e-12;

TEST(HandExercise, WeightsEqualIndependentlyComputedValues)
{
    const Matrix expected{
        {0.26167823896092129, 0.23858833291957776, 0.24986671405975047, 0.24986671405975047},
        {0.24278512565556021, 0.25721487434443979, 0.24278512565556021, 0.25721487434443979},
        {0.24568873029354563, 0.25434876783153404, 0.24998125093746015, 0.24998125093746015},
        {0.25868049377219721, 0.24136532403498268, 0.24276287789141326, 0.25719130430140674}};
    AttentionResult r;
    ASSERT_TRUE(computeAttention<double>(exercise(), r).ok());
    EXPECT_LE(test::maxAbsDiff(r.heads[0].weights, expected), kExerciseTolerance);
    for (long i = 0; i < 4; ++i)
        EXPECT_NEAR(r.heads[0].weights.row(i).sum(), 1.0, kExerciseTolerance);
}

TEST(HandExercise, DoublingKeyTwoGivesIndependentlyComputedWeights)
{
    const Matrix expected{
        {0.25470835586344098, 0.23223345681113489, 0.26984675264183933, 0.24321143468358475},
        {0.23792223465431273, 0.25206296112710747, 0.2579518430914724, 0.25206296112710747},
        {0.23951405749265497, 0.24795645013428769, 0.26883079427817946, 0.24369869809487785},
        {0.25312166322070206, 0.23617858220628202, 0.25903527936908488, 0.25166447520393104}};
    AttentionInput in = exercise();
    in.edits.push_back({Role::Key, 0, 2, 2.0, {}});
    AttentionResult r;
    ASSERT_TRUE(computeAttention<double>(in, r).ok());
    EXPECT_LE(test::maxAbsDiff(r.heads[0].weights, expected), kExerciseTolerance);
}

TEST(HandExercise, DoublingAKeyRaisesItsWeightWherePositiveAndLowersWhereNegative)
{
    // Give key 1 mixed-sign scores: query 0 scores it negatively, the others positively.
    AttentionInput in = exercise();
    in.X(1, 0) = -3.0;
    AttentionResult before, after;
    ASSERT_TRUE(computeAttention<double>(in, before).ok());
    in.edits.push_back({Role::Key, 0, 1, 2.0, {}});
    ASSERT_TRUE(computeAttention<double>(in, after).ok());
    int positive = 0, negative = 0;
    for (long i = 0; i < 4; ++i) {
        // Doubling s_i1 raises w_i1 iff s_i1 > 0 (the row's other scores are unchanged).
        const double s = before.heads[0].scaled(i, 1);
        const double delta = after.heads[0].weights(i, 1) - before.heads[0].weights(i, 1);
        if (s > 0) {
            EXPECT_GT(delta, 0.0) << "row " << i;
            ++positive;
        } else if (s < 0) {
            EXPECT_LT(delta, 0.0) << "row " << i;
            ++negative;
        }
    }
    EXPECT_GT(positive, 0);
    EXPECT_GT(negative, 0);
}

}  // namespace
}  // namespace attn
