// SPDX-License-Identifier: GPL-3.0-or-later
// kernels::sgemm (core/kernels/gemm.h), on every path this binary has and this CPU runs, against
// a naive double-precision product on shapes that end inside every tile and block of the packed
// kernels (AVX2: MR = 6 rows, NR = 16 columns, MC = 144; AVX-512: MR = 8, NR = 48, MC = 512; both
// KC = 256 and column chunks of up to NC = 256), both layouts of B, with and without bias, padded
// strides, on one and two threads.
//
// Tolerance: |C - reference| <= 1e-5 * (sum_p |a_ip| |b_pj| + |bias_j|) for every element. Float
// sums of k terms are off by at most about k 2^-24 of that sum (k <= 2700 here: 1.6e-4 in the
// worst case) and by about sqrt(k) 2^-24 (under 4e-6) for these random signs; one wrong or
// missing term of typical size exceeds it many times over.
#include "core/kernels/gemm.h"

#if defined(__x86_64__)
#include <cpuid.h>
#endif

#include <algorithm>
#include <cmath>
#include <gtest/gtest.h>
#include <omp.h>
#include <random>
#include <string>
#include <vector>

#include "core/model/forward.h"

namespace attn::model {
namespace {

constexpr double kGemmTolerance = 1e-5;

struct Shape {
    long n, k, m;
};

struct Case {
    Shape shape;
    bool transposed = false;
    bool withBias = false;
    long pad = 0;  // extra floats at the end of every row of A, B and C
};

std::vector<float> randomValues(std::size_t count, unsigned seed)
{
    std::mt19937 gen(seed);
    std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
    std::vector<float> v(count);
    for (float& x : v) x = dist(gen);
    return v;
}

// The worst |C - reference| / (sum |a||b| + |bias|) over C, with sgemm run on `path` and
// `threads`.
double worstError(kernels::GemmPath path, const Case& t, int threads)
{
    const auto [n, k, m] = t.shape;
    const long lda = k + t.pad;
    const long ldb = (t.transposed ? k : m) + t.pad;
    const long ldc = m + t.pad;
    const long bRows = t.transposed ? m : k;
    // Other values on every run: packed scratch left from the last run must not pass for new.
    static unsigned seed = 1;
    const auto a = randomValues(static_cast<std::size_t>(n * lda), seed++);
    const auto b = randomValues(static_cast<std::size_t>(bRows * ldb), seed++);
    const auto bias = randomValues(static_cast<std::size_t>(m), seed++);
    std::vector<float> c(static_cast<std::size_t>(n * ldc), NAN);

    const int before = omp_get_max_threads();
    omp_set_num_threads(threads);
    kernels::sgemm(path, n, k, m, a.data(), lda, b.data(), ldb, t.transposed,
                   t.withBias ? bias.data() : nullptr, c.data(), ldc);
    omp_set_num_threads(before);

    double worst = 0.0;
    for (long i = 0; i < n; ++i)
        for (long j = 0; j < m; ++j) {
            double sum = t.withBias ? bias[static_cast<std::size_t>(j)] : 0.0;
            double scale = std::abs(sum);
            for (long p = 0; p < k; ++p) {
                const double x = a[static_cast<std::size_t>(i * lda + p)];
                const double w = t.transposed ? b[static_cast<std::size_t>(j * ldb + p)]
                                              : b[static_cast<std::size_t>(p * ldb + j)];
                sum += x * w;
                scale += std::abs(x * w);
            }
            const double got = c[static_cast<std::size_t>(i * ldc + j)];
            const double error = std::abs(got - sum) / std::max(scale, 1e-30);
            if (!(error <= worst)) worst = std::isnan(error) ? INFINITY : error;
        }
    return worst;
}

std::string describe(kernels::GemmPath path, const Case& t, int threads)
{
    return std::string(kernels::gemmPathName(path)) + " " + std::to_string(t.shape.n) + "x" +
           std::to_string(t.shape.k) + "x" + std::to_string(t.shape.m) +
           (t.transposed ? " B^T" : " B") + (t.withBias ? " +bias" : "") + " pad " +
           std::to_string(t.pad) + ", " + std::to_string(threads) + " thread(s)";
}

void expectAllLayouts(const std::vector<Shape>& shapes, long pad = 0)
{
    for (const Shape& s : shapes)
        for (const bool transposed : {false, true})
            for (const bool withBias : {false, true})
                for (const int threads : {1, 2})
                    for (const kernels::GemmPath path : kernels::supportedGemmPaths()) {
                        const Case t{s, transposed, withBias, pad};
                        EXPECT_LE(worstError(path, t, threads), kGemmTolerance)
                            << describe(path, t, threads);
                    }
}

TEST(Gemm, EveryPathTheCpuRunsIsSupportedAndOneIsChosen)
{
    const auto paths = kernels::supportedGemmPaths();
    ASSERT_FALSE(paths.empty());
    EXPECT_EQ(paths.front(), kernels::GemmPath::Portable);
    EXPECT_NE(std::find(paths.begin(), paths.end(), kernels::gemmPath()), paths.end());
#if defined(__x86_64__)
    // Every x86-64 machine this project runs its CI on has AVX2, FMA and F16C: a binary that
    // does not offer the packed kernel there has lost it (the portable build's dispatch).
    // F16C from CPUID leaf 1: clang 14's __builtin_cpu_supports does not know "f16c".
    unsigned a = 0, b = 0, c = 0, d = 0;
    const bool f16c = __get_cpuid(1, &a, &b, &c, &d) != 0 && (c & bit_F16C) != 0;
    __builtin_cpu_init();
    const bool avx2 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") && f16c;
    const bool avx512 = avx2 && __builtin_cpu_supports("avx512f") &&
                        __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512bw") &&
                        __builtin_cpu_supports("avx512dq");
    const auto has = [&](kernels::GemmPath path) {
        return std::find(paths.begin(), paths.end(), path) != paths.end();
    };
    EXPECT_EQ(has(kernels::GemmPath::Avx2Fma), avx2);
    EXPECT_EQ(has(kernels::GemmPath::Avx512), avx512);
    if (avx512) {
        EXPECT_EQ(paths.back(), kernels::GemmPath::Avx512);
    } else if (avx2) {
        EXPECT_EQ(paths.back(), kernels::GemmPath::Avx2Fma);
    }
#endif
}

TEST(Gemm, TheFastestPathIsChosenUnlessTheEnvironmentAsksForAnother)
{
    const auto paths = kernels::supportedGemmPaths();
    EXPECT_EQ(kernels::gemmPathFor(nullptr), paths.back());
    EXPECT_EQ(kernels::gemmPathFor("no such path"), paths.back());
    EXPECT_EQ(kernels::gemmPathFor("portable"), kernels::GemmPath::Portable);
    const bool avx2 =
        std::find(paths.begin(), paths.end(), kernels::GemmPath::Avx2Fma) != paths.end();
    EXPECT_EQ(kernels::gemmPathFor("avx2"), avx2 ? kernels::GemmPath::Avx2Fma : paths.back());
}

TEST(Gemm, MatchesNaiveProductOnOddShapes)
{
    expectAllLayouts({{1, 1, 1},
                      {1, 2, 3},
                      {2, 1, 17},
                      {7, 13, 29},
                      {5, 8, 16},
                      {6, 9, 15},
                      {65, 129, 257},
                      {12, 64, 48},
                      {11, 31, 33}});
}

TEST(Gemm, MatchesNaiveProductAcrossEveryBlockBoundary)
{
    // n: 143/144/145 around MC and 6/7 around MR; k: 255/256/257 and 513 around KC; m: around
    // NR and the chunks of up to 256 columns (8209 = 32 x 256 + 17). 200 x 2700: an A of over
    // 2^19 floats, packed by both threads (a smaller one before they start), in 11 slices of 246.
    // For the AVX-512 tile: n 7/8/9 and 513 (two blocks of 264 rows), m 47/48/49 and 97, and 64
    // and 80, whose last panel of 48 columns has only one or two vectors of 16 computed.
    // 64 x 256 x 1000 and 33 x 64 x 2100, on two threads: chunks of two widths (the wider first,
    // 1000 = 21 panels of 48 in 8 chunks), the last one ending in a part panel.
    expectAllLayouts({{10, 70, 64},
                      {64, 256, 1000},
                      {33, 64, 2100},
                      {11, 20, 80},
                      {9, 64, 47},
                      {8, 33, 48},
                      {7, 300, 49},
                      {513, 40, 97},
                      {145, 257, 40},
                      {144, 256, 32},
                      {143, 255, 31},
                      {150, 513, 50},
                      {7, 600, 18},
                      {3, 40, 2049},
                      {2, 17, 8209},
                      {200, 2700, 20}});
}

TEST(Gemm, MatchesNaiveProductForSingleRowsAsInTheLogits)
{
    // One row x 768 x a vocabulary (GPT-2: 50257 = 3141 x 16 + 1), smaller: 5003 = 312 x 16 + 11.
    expectAllLayouts({{1, 768, 5003}, {1, 300, 1}, {2, 768, 161}});
}

TEST(Gemm, HonoursRowStridesLongerThanTheRows)
{
    expectAllLayouts({{7, 13, 29}, {13, 260, 35}}, 3);
}

TEST(Gemm, ApplyDenseAgreesWithEigensProduct)
{
    for (const bool outByIn : {false, true}) {
        const long n = 37, in = 300, out = 70;
        const auto w = randomValues(static_cast<std::size_t>(in * out), 4);
        const auto bias = randomValues(static_cast<std::size_t>(out), 5);
        const auto xs = randomValues(static_cast<std::size_t>(n * in), 6);
        const FloatMatrix x = Eigen::Map<const FloatMatrix>(xs.data(), n, in);
        Dense dense;
        dense.weight = w.data();
        dense.bias = bias.data();
        dense.in = in;
        dense.out = out;
        dense.outByIn = outByIn;
        FloatMatrix ours, eigen;
        applyDense(x, dense, ours);
        applyDenseEigen(x, dense, eigen);
        ASSERT_EQ(ours.rows(), n);
        ASSERT_EQ(ours.cols(), out);
        EXPECT_LE((ours - eigen).cwiseAbs().maxCoeff(), 1e-4f) << "outByIn " << outByIn;
    }
}

}  // namespace
}  // namespace attn::model
