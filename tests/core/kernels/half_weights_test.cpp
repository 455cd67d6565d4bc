// SPDX-License-Identifier: GPL-3.0-or-later
// kernels::gemmWeights (core/kernels/gemm.h) with F16 and BF16 weights, on every path this binary
// has and this CPU runs, against sgemm on the same path with B widened to a float copy first
// (by the safetensors reader's converters, core/model/safetensors.h).
//
// Exact (bit for bit) where the arithmetic is the same: the packed paths (AVX2, AVX-512) for
// n > 1, whose packing of B widens it into the very floats the copy holds. Within tolerance where
// the order of the sums differs: one row (n = 1, a matrix-vector product that reads B in place)
// and the portable path (Eigen's product on blocks of widened columns, blocked otherwise than on
// the whole matrix): |ours - sgemm| <= 1e-5 (sum_p |a_ip| |b_pj| + |bias_j|), the bound
// gemm_test.cpp holds each side to against a double-precision product.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <gtest/gtest.h>
#include <omp.h>
#include <random>
#include <string>
#include <vector>

#include "core/kernels/gemm.h"
#include "core/model/safetensors.h"

namespace attn::kernels {
namespace {

constexpr double kTolerance = 1e-5;

float widened(WeightFormat format, std::uint16_t bits)
{
    return format == WeightFormat::BF16 ? model::bfloat16ToFloat(bits) : model::halfToFloat(bits);
}

const char* formatName(WeightFormat format)
{
    return format == WeightFormat::BF16 ? "BF16" : "F16";
}

// Random weights of size about 2^-6 .. 2 with either sign, as bit patterns of `format`.
std::vector<std::uint16_t> randomWeights(WeightFormat format, std::size_t count, unsigned seed)
{
    std::mt19937 gen(seed);
    std::uniform_int_distribution<unsigned> bits(0, 0xffff);
    std::vector<std::uint16_t> v(count);
    for (std::uint16_t& x : v) {
        const unsigned r = bits(gen);
        const unsigned sign = r & 0x8000u;
        if (format == WeightFormat::BF16)  // exponent 121..128, 7 mantissa bits
            x = static_cast<std::uint16_t>(sign | ((121u + ((r >> 7) & 7u)) << 7) | (r & 0x7fu));
        else  // exponent 9..16, 10 mantissa bits
            x = static_cast<std::uint16_t>(sign | ((9u + ((r >> 10) & 7u)) << 10) | (r & 0x3ffu));
    }
    return v;
}

std::vector<float> randomValues(std::size_t count, unsigned seed)
{
    std::mt19937 gen(seed);
    std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
    std::vector<float> v(count);
    for (float& x : v) x = dist(gen);
    return v;
}

struct Case {
    long n, k, m;
    bool transposed;
    bool withBias;
    long pad = 0;  // extra elements at the end of every row of A, B and C
};

std::string describe(GemmPath path, WeightFormat format, const Case& t, int threads)
{
    return std::string(gemmPathName(path)) + " " + formatName(format) + " " + std::to_string(t.n) +
           "x" + std::to_string(t.k) + "x" + std::to_string(t.m) + (t.transposed ? " B^T" : " B") +
           (t.withBias ? " +bias" : "") + " pad " + std::to_string(t.pad) + ", " +
           std::to_string(threads) + " thread(s)";
}

// Runs gemmWeights on raw `format` weights and sgemm on their widened copy, on `path` and
// `threads`; expects bitwise equality where the arithmetic is the same, else the tolerance.
void expectAgreement(GemmPath path, WeightFormat format, const Case& t, int threads)
{
    const long lda = t.k + t.pad;
    const long ldb = (t.transposed ? t.k : t.m) + t.pad;
    const long ldc = t.m + t.pad;
    const long bRows = t.transposed ? t.m : t.k;
    static unsigned seed = 1;
    const auto a = randomValues(static_cast<std::size_t>(t.n * lda), seed++);
    const auto raw = randomWeights(format, static_cast<std::size_t>(bRows * ldb), seed++);
    const auto bias = randomValues(static_cast<std::size_t>(t.m), seed++);
    std::vector<float> copy(raw.size());
    for (std::size_t i = 0; i < raw.size(); ++i) copy[i] = widened(format, raw[i]);
    std::vector<float> ours(static_cast<std::size_t>(t.n * ldc), NAN);
    std::vector<float> theirs(ours.size(), NAN);

    const int before = omp_get_max_threads();
    omp_set_num_threads(threads);
    gemmWeights(path, t.n, t.k, t.m, a.data(), lda, raw.data(), format, ldb, t.transposed,
                t.withBias ? bias.data() : nullptr, ours.data(), ldc);
    sgemm(path, t.n, t.k, t.m, a.data(), lda, copy.data(), ldb, t.transposed,
          t.withBias ? bias.data() : nullptr, theirs.data(), ldc);
    omp_set_num_threads(before);

    const bool exact = path != GemmPath::Portable && t.n > 1;
    long mismatches = 0;
    double worst = 0.0;
    for (long i = 0; i < t.n; ++i)
        for (long j = 0; j < t.m; ++j) {
            const float got = ours[static_cast<std::size_t>(i * ldc + j)];
            const float want = theirs[static_cast<std::size_t>(i * ldc + j)];
            if (exact) {
                if (std::memcmp(&got, &want, sizeof got) != 0) ++mismatches;
                continue;
            }
            double scale = t.withBias ? std::abs(bias[static_cast<std::size_t>(j)]) : 0.0;
            for (long p = 0; p < t.k; ++p) {
                const double w = t.transposed ? copy[static_cast<std::size_t>(j * ldb + p)]
                                              : copy[static_cast<std::size_t>(p * ldb + j)];
                scale += std::abs(a[static_cast<std::size_t>(i * lda + p)] * w);
            }
            const double error = std::abs(static_cast<double>(got) - want) / std::max(scale, 1e-30);
            if (!(error <= worst)) worst = std::isnan(error) ? INFINITY : error;
        }
    if (exact)
        EXPECT_EQ(mismatches, 0) << describe(path, format, t, threads) << ": not bit for bit";
    else
        EXPECT_LE(worst, kTolerance) << describe(path, format, t, threads);
}

void expectAgreementOnOddShapes(WeightFormat format)
{
    for (const long n : {1L, 5L, 37L, 130L})
        for (const long k : {1L, 17L, 300L})
            for (const long m : {1L, 33L, 515L})
                for (const bool transposed : {true, false})
                    for (const bool withBias : {false, true})
                        for (const int threads : {1, 2})
                            for (const GemmPath path : supportedGemmPaths())
                                expectAgreement(path, format, {n, k, m, transposed, withBias},
                                                threads);
}

TEST(HalfWeights, Bf16ProductEqualsProductOfWidenedCopy)
{
    expectAgreementOnOddShapes(WeightFormat::BF16);
}

TEST(HalfWeights, F16ProductEqualsProductOfWidenedCopy)
{
    expectAgreementOnOddShapes(WeightFormat::F16);
}

TEST(HalfWeights, ProductsHonourRowStridesAndSplitOneRowOverThreads)
{
    // Padded strides on every layout; one row against a vocabulary-sized B (5003 = 39 x 128 +
    // 11: the one-row product's blocks of 128, over two threads) and across every block edge of
    // the packed kernels (gemm_test.cpp lists them).
    const Case cases[] = {
        {7, 13, 29, true, true, 3},   {13, 260, 35, false, false, 3}, {1, 300, 70, true, true, 5},
        {1, 300, 70, false, true, 5}, {1, 768, 5003, true, true},     {1, 768, 5003, false, false},
        {2, 768, 161, true, true},    {145, 257, 40, true, false},    {513, 40, 97, false, true},
        {200, 2700, 20, true, true},  {3, 40, 2049, false, false},    {9, 64, 47, true, true}};
    for (const WeightFormat format : {WeightFormat::BF16, WeightFormat::F16})
        for (const Case& t : cases)
            for (const int threads : {1, 2})
                for (const GemmPath path : supportedGemmPaths())
                    expectAgreement(path, format, t, threads);
}

TEST(HalfWeights, F32WeightsAreSgemmItself)
{
    const long n = 37, k = 300, m = 515;
    const auto a = randomValues(static_cast<std::size_t>(n * k), 7);
    const auto b = randomValues(static_cast<std::size_t>(m * k), 8);
    for (const GemmPath path : supportedGemmPaths()) {
        std::vector<float> ours(static_cast<std::size_t>(n * m)), theirs(ours.size());
        gemmWeights(path, n, k, m, a.data(), k, b.data(), WeightFormat::F32, k, true, nullptr,
                    ours.data(), m);
        sgemm(path, n, k, m, a.data(), k, b.data(), k, true, nullptr, theirs.data(), m);
        EXPECT_EQ(ours, theirs) << gemmPathName(path);
    }
}

// Every one of the 65,536 bit patterns of `format` as weights, each met by a single 1 in A:
// with k = 8, B's (p, j) is pattern j where p = j mod 8, else 0, and A's row i is the unit vector
// e_i (n = 8, packed) or one of them (n = 1, the one-row product). Then C[j mod 8][j] = 1 x
// pattern j + zeros, which is the widened pattern itself; every lane of the 8-wide widening and
// of the transposition is met. (-0 comes out as +0: the sums start at +0.)
void expectEveryPatternWidenedExactly(GemmPath path, WeightFormat format, bool transposed, long n)
{
    constexpr long k = 8, m = 65536;
    std::vector<std::uint16_t> b(static_cast<std::size_t>(k * m), 0);
    for (long j = 0; j < m; ++j) {
        const long p = j % k;
        b[static_cast<std::size_t>(transposed ? j * k + p : p * m + j)] =
            static_cast<std::uint16_t>(j);
    }
    const long ldb = transposed ? k : m;
    std::vector<float> c(static_cast<std::size_t>(k * m), NAN);
    if (n == k) {
        std::vector<float> identity(static_cast<std::size_t>(k * k), 0.0f);
        for (long i = 0; i < k; ++i) identity[static_cast<std::size_t>(i * k + i)] = 1.0f;
        gemmWeights(path, k, k, m, identity.data(), k, b.data(), format, ldb, transposed, nullptr,
                    c.data(), m);
    } else {
        for (long i = 0; i < k; ++i) {
            std::vector<float> unit(static_cast<std::size_t>(k), 0.0f);
            unit[static_cast<std::size_t>(i)] = 1.0f;
            gemmWeights(path, 1, k, m, unit.data(), k, b.data(), format, ldb, transposed, nullptr,
                        c.data() + i * m, m);
        }
    }
    long wrong = 0;
    for (long j = 0; j < m; ++j) {
        const float want = widened(format, static_cast<std::uint16_t>(j));
        const float got = c[static_cast<std::size_t>((j % k) * m + j)];
        const bool ok = std::isnan(want) ? std::isnan(got) : got == want;
        if (!ok && ++wrong <= 5)
            ADD_FAILURE() << gemmPathName(path) << " " << formatName(format)
                          << (transposed ? " B^T" : " B") << " n " << n << ": pattern 0x"
                          << std::hex << j << std::dec << " gave " << got << ", not " << want;
    }
    EXPECT_EQ(wrong, 0) << gemmPathName(path) << " " << formatName(format);
}

TEST(HalfWeights, WideningIsExactForEveryBitPatternAndKeepsInfAndNan)
{
    // The reference converters themselves on the patterns whose meaning is fixed.
    EXPECT_TRUE(std::isinf(model::halfToFloat(0x7C00)) && model::halfToFloat(0x7C00) > 0);
    EXPECT_TRUE(std::isinf(model::halfToFloat(0xFC00)) && model::halfToFloat(0xFC00) < 0);
    EXPECT_TRUE(std::isnan(model::halfToFloat(0x7C01)) && std::isnan(model::halfToFloat(0xFE00)));
    EXPECT_TRUE(std::isinf(model::bfloat16ToFloat(0xFF80)));
    EXPECT_TRUE(std::isnan(model::bfloat16ToFloat(0x7F81)));
    for (const GemmPath path : supportedGemmPaths())
        for (const WeightFormat format : {WeightFormat::BF16, WeightFormat::F16})
            for (const bool transposed : {true, false})
                for (const long n : {1L, 8L})
                    expectEveryPatternWidenedExactly(path, format, transposed, n);
}

}  // namespace
}  // namespace attn::kernels
