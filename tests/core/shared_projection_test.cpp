// SPDX-License-Identifier: GPL-3.0-or-later
// One projection for Q, K and V: every token's largest weight is on itself.
#include <gtest/gtest.h>

#include "core/attention.h"
#include "core/random_init.h"

namespace attn {
namespace {

TEST(SharedProjections, EqualNormTokensAttendMostToThemselves)
{
    RandomSpec spec{12, 12, 8, 8, 8, 1, 4, Mode::Self, 21};
    AttentionInput in = randomInput(spec);
    in.sharedProjections = true;
    // Equal norms after projection: normalise each projected row by scaling X rows.
    const Matrix projected = in.X * in.heads[0].W_Q;
    for (long i = 0; i < in.X.rows(); ++i) in.X.row(i) *= 3.0 / projected.row(i).norm();
    AttentionResult r;
    ASSERT_TRUE(computeAttention<double>(in, r).ok());
    for (long i = 0; i < in.X.rows(); ++i)
        EXPECT_EQ(r.heads[0].diagnostics.argmax[i], i) << "row " << i;
    EXPECT_EQ(r.heads[0].K, r.heads[0].Q);
    EXPECT_EQ(r.heads[0].V, r.heads[0].Q);
}

TEST(SharedProjections, SeparateProjectionsDoNotForceTheDiagonal)
{
    RandomSpec spec{12, 12, 8, 8, 8, 1, 4, Mode::Self, 21};
    AttentionResult r;
    ASSERT_TRUE(computeAttention<double>(randomInput(spec), r).ok());
    int onDiagonal = 0;
    for (long i = 0; i < 12; ++i) onDiagonal += r.heads[0].diagnostics.argmax[i] == i;
    EXPECT_LT(onDiagonal, 12);
}

}  // namespace
}  // namespace attn
