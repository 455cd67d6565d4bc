// SPDX-License-Identifier: GPL-3.0-or-later
// kernels::geluTanh, expShifted and silu (core/kernels/activation.h) on every path this binary has
// and this CPU runs, against gelu_new evaluated in double with std::tanh, and std::exp in double.
//
// GELU's tolerance: |ours - reference| <= 4e-7 max(1, |x|). The float evaluation of
// 0.5 x (1 + tanh(u)) rounds each of its few steps at 2^-24 relative (6e-8), and the rational
// tanh is within a few ulp of the true one; a wrong coefficient or a lost element of a tail is
// off by 1e-4 or more.
// exp's: relative 3e-7 (Eigen's Cephes polynomial is within 2 ulp; the shift's subtraction is
// exact or rounds once, 6e-8); a wrong coefficient is off by 1e-5 or more, a wrong power of two by
// a factor of 2.
// SiLU's: |ours - reference| <= 5e-7 max(1, |x|) (times |up|): exp as above, then a division and
// a product that round once each.
#include "core/kernels/activation.h"

#include <cmath>
#include <gtest/gtest.h>
#include <random>
#include <string>
#include <vector>

namespace attn::kernels {
namespace {

double reference(double x)
{
    return 0.5 * x * (1.0 + std::tanh(std::sqrt(2.0 / M_PI) * (x + 0.044715 * x * x * x)));
}

TEST(GeluTanh, EveryPathMatchesTheDoubleFormulaOverTheWholeRangeAndEveryTail)
{
    std::mt19937 gen(3);
    std::uniform_real_distribution<float> wide(-12.0f, 12.0f);
    std::uniform_real_distribution<float> small(-1e-3f, 1e-3f);
    for (const GemmPath path : supportedGemmPaths())
        for (const long count : {1L, 7L, 8L, 9L, 31L, 1000L}) {
            std::vector<float> x(static_cast<std::size_t>(count));
            for (std::size_t i = 0; i < x.size(); ++i) x[i] = i % 3 == 0 ? small(gen) : wide(gen);
            x[0] = count > 1 ? -0.0f : 0.25f;
            const std::vector<float> in = x;
            geluTanh(path, x.data(), count);
            for (std::size_t i = 0; i < x.size(); ++i) {
                const double want = reference(in[i]);
                EXPECT_LE(std::abs(x[i] - want), 4e-7 * std::max(1.0, std::abs(double(in[i]))))
                    << gemmPathName(path) << " x = " << in[i] << " count " << count;
            }
        }
}

TEST(GeluTanh, LargeInputsSaturateAndNaNStaysNaN)
{
    for (const GemmPath path : supportedGemmPaths()) {
        std::vector<float> x{30.0f, -30.0f, NAN, 8.0f, -8.0f};
        geluTanh(path, x.data(), static_cast<long>(x.size()));
        EXPECT_FLOAT_EQ(x[0], 30.0f) << gemmPathName(path);
        EXPECT_EQ(x[1], 0.0f) << gemmPathName(path);
        EXPECT_TRUE(std::isnan(x[2])) << gemmPathName(path);
        EXPECT_NEAR(x[3], 8.0f, 1e-6f) << gemmPathName(path);
        EXPECT_NEAR(x[4], 0.0f, 1e-6f) << gemmPathName(path);
    }
}

TEST(ExpShifted, EveryPathMatchesTheDoubleExpOverASoftmaxRowsRangeAndEveryTail)
{
    std::mt19937 gen(5);
    std::uniform_real_distribution<float> scores(-40.0f, 8.0f);
    for (const GemmPath path : supportedGemmPaths())
        for (const long count : {1L, 7L, 8L, 9L, 31L, 1000L}) {
            std::vector<float> x(static_cast<std::size_t>(count));
            for (float& v : x) v = scores(gen);
            const float shift = 8.0f;
            std::vector<float> out(x.size(), -1.0f);
            expShifted(path, x.data(), shift, out.data(), count);
            for (std::size_t i = 0; i < x.size(); ++i) {
                const double want = std::exp(double(x[i] - shift));
                EXPECT_LE(std::abs(out[i] - want), 3e-7 * want)
                    << gemmPathName(path) << " x = " << x[i] << " count " << count;
            }
        }
}

TEST(ExpShifted, InPlaceGivesTheSameAndTheEdgesHold)
{
    for (const GemmPath path : supportedGemmPaths()) {
        std::vector<float> x{0.0f, -200.0f, -INFINITY, NAN, 88.0f, -87.0f, 1.0f, -1.0f, 0.5f};
        std::vector<float> out(x.size());
        expShifted(path, x.data(), 0.0f, out.data(), static_cast<long>(x.size()));
        expShifted(path, x.data(), 0.0f, x.data(), static_cast<long>(x.size()));
        for (std::size_t i = 0; i < x.size(); ++i) {
            if (!std::isnan(out[i])) {
                EXPECT_EQ(x[i], out[i]) << gemmPathName(path) << " " << i;
            }
        }
        EXPECT_EQ(out[0], 1.0f) << gemmPathName(path);
        EXPECT_LT(out[1], 1e-30f) << gemmPathName(path);
        EXPECT_LT(out[2], 1e-30f) << gemmPathName(path);
        EXPECT_TRUE(std::isnan(out[3])) << gemmPathName(path);
        EXPECT_NEAR(out[4] / std::exp(88.0), 1.0, 3e-7) << gemmPathName(path);
        EXPECT_NEAR(out[5] / std::exp(-87.0), 1.0, 3e-7) << gemmPathName(path);
    }
}

TEST(Silu, EveryPathMatchesTheDoubleFormulaTimesUpAndEveryTail)
{
    std::mt19937 gen(7);
    std::uniform_real_distribution<float> wide(-30.0f, 30.0f);
    for (const GemmPath path : supportedGemmPaths())
        for (const long count : {1L, 7L, 8L, 9L, 31L, 1000L})
            for (const bool withUp : {false, true}) {
                std::vector<float> x(static_cast<std::size_t>(count)), up(x.size());
                for (std::size_t i = 0; i < x.size(); ++i) {
                    x[i] = wide(gen);
                    up[i] = wide(gen);
                }
                const std::vector<float> in = x;
                silu(path, x.data(), withUp ? up.data() : nullptr, count);
                for (std::size_t i = 0; i < x.size(); ++i) {
                    const double u = withUp ? up[i] : 1.0;
                    const double want = in[i] / (1.0 + std::exp(-double(in[i]))) * u;
                    EXPECT_LE(std::abs(x[i] - want),
                              5e-7 * std::max(1.0, std::abs(double(in[i]))) * std::abs(u))
                        << gemmPathName(path) << " x = " << in[i] << " count " << count;
                }
            }
}

TEST(Silu, InPlaceTimesItselfAndTheEdgesHold)
{
    for (const GemmPath path : supportedGemmPaths()) {
        std::vector<float> x{0.0f, -200.0f, 200.0f, NAN, 2.0f};
        silu(path, x.data(), x.data(), static_cast<long>(x.size()));
        EXPECT_EQ(x[0], 0.0f) << gemmPathName(path);
        EXPECT_NEAR(x[1], 0.0f, 1e-30f) << gemmPathName(path);
        EXPECT_FLOAT_EQ(x[2], 200.0f * 200.0f) << gemmPathName(path);
        EXPECT_TRUE(std::isnan(x[3])) << gemmPathName(path);
        EXPECT_NEAR(x[4], 2.0 / (1.0 + std::exp(-2.0)) * 2.0, 1e-6) << gemmPathName(path);
    }
}

}  // namespace
}  // namespace attn::kernels
