// SPDX-License-Identifier: GPL-3.0-or-later
// Masked cells are exactly 0.0 and a fully masked row is all zeros and flagged:
// never NaN, never a uniform 1/n; in float and in double.
#include <cmath>
#include <gtest/gtest.h>

#include "core/attention.h"
#include "core/random_init.h"

namespace attn {
namespace {

template <typename T>
class Masking : public ::testing::Test {
};
using Scalars = ::testing::Types<double, float>;
TYPED_TEST_SUITE(Masking, Scalars);

TYPED_TEST(Masking, CausalUpperTriangleIsExactlyZero)
{
    AttentionInput in = randomInput(RandomSpec{40, 40, 8, 8, 8, 2, 4, Mode::Causal, 3});
    AttentionResultT<TypeParam> r;
    ASSERT_TRUE(computeAttention<TypeParam>(in, r).ok());
    EXPECT_EQ(r.maskKind, MaskKind::Causal);
    for (const auto& hr : r.heads) {
        for (long i = 0; i < 40; ++i) {
            for (long j = i + 1; j < 40; ++j) {
                ASSERT_EQ(hr.weights(i, j), TypeParam(0)) << i << "," << j;
                ASSERT_FALSE(hr.mask(i, j));
            }
            EXPECT_NEAR(hr.weights.row(i).sum(), 1.0, 1e-5);
        }
    }
}

TYPED_TEST(Masking, FullyMaskedRowIsZerosAndFlagged)
{
    AttentionInput in = randomInput(RandomSpec{6, 6, 4, 4, 4, 1, 4, Mode::Self, 8});
    BoolMatrix mask = BoolMatrix::Constant(6, 6, true);
    mask.row(3).setConstant(false);
    mask(1, 2) = false;
    in.mask = mask;
    AttentionResultT<TypeParam> r;
    ASSERT_TRUE(computeAttention<TypeParam>(in, r).ok());
    const auto& hr = r.heads[0];
    EXPECT_EQ(r.maskKind, MaskKind::General);
    for (long j = 0; j < 6; ++j) EXPECT_EQ(hr.weights(3, j), TypeParam(0));
    for (long c = 0; c < hr.output.cols(); ++c) EXPECT_EQ(hr.output(3, c), TypeParam(0));
    EXPECT_EQ(hr.weights(1, 2), TypeParam(0));
    EXPECT_TRUE(hr.diagnostics.fullyMasked[3]);
    EXPECT_FALSE(hr.diagnostics.fullyMasked[1]);
    EXPECT_EQ(hr.diagnostics.argmax[3], -1);
    EXPECT_TRUE(hr.weights.allFinite());
    EXPECT_TRUE(r.output.allFinite());
    EXPECT_TRUE(hr.diagnostics.entropy.allFinite());
}

TYPED_TEST(Masking, CausalCombinedWithACustomMaskCanMaskTheFirstRowEntirely)
{
    AttentionInput in = randomInput(RandomSpec{5, 5, 4, 4, 4, 1, 4, Mode::Causal, 8});
    BoolMatrix mask = BoolMatrix::Constant(5, 5, true);
    mask(0, 0) = false;  // row 0 may only see position 0, which is now masked too
    in.mask = mask;
    AttentionResultT<TypeParam> r;
    ASSERT_TRUE(computeAttention<TypeParam>(in, r).ok());
    EXPECT_TRUE(r.heads[0].diagnostics.fullyMasked[0]);
    EXPECT_EQ(r.heads[0].weights.row(0).cwiseAbs().sum(), TypeParam(0));
    EXPECT_NEAR(r.heads[0].weights.row(1).sum(), 1.0, 1e-6);
}

TYPED_TEST(Masking, TinyWeightsAreFlushedToZeroNotSubnormal)
{
    AttentionInput in = randomInput(RandomSpec{8, 8, 4, 4, 4, 1, 4, Mode::Self, 8});
    in.scaling = Scaling::Temperature;
    in.temperature = 1e-4;  // scores x 10^4: most weights underflow
    AttentionResultT<TypeParam> r;
    ASSERT_TRUE(computeAttention<TypeParam>(in, r).ok());
    for (long i = 0; i < 8; ++i) {
        for (long j = 0; j < 8; ++j) {
            const TypeParam w = r.heads[0].weights(i, j);
            EXPECT_NE(std::fpclassify(w), FP_SUBNORMAL) << i << "," << j;
        }
    }
}

}  // namespace
}  // namespace attn
