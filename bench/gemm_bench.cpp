// SPDX-License-Identifier: GPL-3.0-or-later
#include "bench/gemm_bench.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <omp.h>
#include <random>
#include <vector>

#include "core/kernels/gemm.h"
#include "core/model/forward.h"

namespace attn::bench {

namespace {

using Clock = std::chrono::steady_clock;

double msSince(Clock::time_point start)
{
    return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

struct GemmShape {
    long n, in, out;
    bool outByIn;
    const char* what;
};

}  // namespace

int gemmBench(int reps)
{
    const GemmShape shapes[] = {
        {512, 768, 3072, false, "GPT-2 mlp.c_fc, 512 tokens"},
        {512, 3072, 768, false, "GPT-2 mlp.c_proj, 512 tokens"},
        {128, 768, 2304, false, "GPT-2 attn.c_attn, 128 tokens"},
        {128, 768, 3072, false, "GPT-2 mlp.c_fc, 128 tokens"},
        {128, 3072, 768, false, "GPT-2 mlp.c_proj, 128 tokens"},
        {128, 768, 768, false, "GPT-2 attn.c_proj, 128 tokens"},
        {512, 768, 768, true, "nn.Linear (BERT), 512 tokens"},
        {1, 768, 3072, false, "GPT-2 mlp.c_fc, one new token"},
        {1, 768, 50257, true, "GPT-2 logits, last position"},
    };
    std::mt19937 gen(11);
    std::uniform_real_distribution<float> dist(-0.1f, 0.1f);
    std::printf(
        "| shape n x in x out | B | threads | ours GFLOP/s best (median) | "
        "Eigen GFLOP/s best (median) | ours / Eigen time |\n|---|---|---|---|---|---|\n");
    for (const GemmShape& s : shapes) {
        std::vector<float> w(static_cast<std::size_t>(s.in * s.out)), bias(s.out);
        for (float& v : w) v = dist(gen);
        for (float& v : bias) v = dist(gen);
        attn::model::FloatMatrix x(s.n, s.in);
        for (long i = 0; i < x.size(); ++i) x.data()[i] = dist(gen);
        attn::model::Dense dense;
        dense.weight = w.data();
        dense.bias = bias.data();
        dense.in = s.in;
        dense.out = s.out;
        dense.outByIn = s.outByIn;
        const double flops =
            2.0 * static_cast<double>(s.n) * static_cast<double>(s.in) * static_cast<double>(s.out);
        for (const int threads : {1, 2}) {
            omp_set_num_threads(threads);
            double best[2], median[2];
            for (int which = 0; which < 2; ++which) {
                attn::model::FloatMatrix y;
                std::vector<double> ms;
                for (int r = 0; r <= reps; ++r) {
                    const auto t0 = Clock::now();
                    if (which == 0)
                        attn::model::applyDense(x, dense, y);
                    else
                        attn::model::applyDenseEigen(x, dense, y);
                    if (r > 0) ms.push_back(msSince(t0));
                }
                std::sort(ms.begin(), ms.end());
                best[which] = flops / ms.front() * 1e-6;
                median[which] = flops / ms[ms.size() / 2] * 1e-6;
            }
            std::printf("| %ld x %ld x %ld | %s | %d | %.1f (%.1f) | %.1f (%.1f) | %.2f |\n", s.n,
                        s.in, s.out, s.outByIn ? "[out,in]" : "[in,out]", threads, best[0],
                        median[0], best[1], median[1], median[1] / median[0]);
            std::printf(
                "RESULT {\"what\": \"gemm\", \"shape\": \"%s\", \"n\": %ld, \"in\": %ld, "
                "\"out\": %ld, \"out_by_in\": %s, \"threads\": %d, \"ours_gflops_best\": %.2f, "
                "\"ours_gflops_median\": %.2f, \"eigen_gflops_best\": %.2f, "
                "\"eigen_gflops_median\": %.2f}\n",
                s.what, s.n, s.in, s.out, s.outByIn ? "true" : "false", threads, best[0], median[0],
                best[1], median[1]);
            std::fflush(stdout);
        }
    }
    return 0;
}

namespace {

// Float to bfloat16 or IEEE half, rounded to nearest even (finite, normal inputs: the bench's
// weights are uniform in +-0.1).
std::uint16_t narrow(float x, attn::kernels::WeightFormat format)
{
    std::uint32_t bits = 0;
    std::memcpy(&bits, &x, sizeof bits);
    if (format == attn::kernels::WeightFormat::BF16)
        return static_cast<std::uint16_t>((bits + 0x7fffu + ((bits >> 16) & 1u)) >> 16);
    const std::uint32_t sign = (bits >> 16) & 0x8000u;
    const int exponent = static_cast<int>((bits >> 23) & 0xffu) - 127 + 15;
    std::uint32_t mantissa = bits & 0x7fffffu;
    if (exponent <= 0) {  // a half subnormal: shift the implicit 1 in, round to nearest even
        if (exponent < -10) return static_cast<std::uint16_t>(sign);
        mantissa |= 0x800000u;
        const int shift = 14 - exponent;
        const std::uint32_t half = 1u << (shift - 1);
        const std::uint32_t rest = mantissa & ((1u << shift) - 1);
        std::uint32_t out = mantissa >> shift;
        if (rest > half || (rest == half && (out & 1u) != 0)) ++out;
        return static_cast<std::uint16_t>(sign | out);
    }
    std::uint32_t out = (static_cast<std::uint32_t>(exponent) << 10) | (mantissa >> 13);
    const std::uint32_t rest = mantissa & 0x1fffu;
    if (rest > 0x1000u || (rest == 0x1000u && (out & 1u) != 0)) ++out;
    return static_cast<std::uint16_t>(sign | out);
}

struct WeightsShape {
    long n, in, out;
    const char* what;
};

// One shape's row of the table and its RESULT lines: each format's best and median time, and
// its time against F32's, best and median over the rounds.
void printWeightsRow(const WeightsShape& s, long copies, std::vector<double> (&ms)[3],
                     std::vector<double> (&ratio)[3])
{
    const char* const formatNames[] = {"F32 (sgemm)", "BF16", "F16"};
    double best[3], median[3], ratioMedian[3];
    for (int f = 0; f < 3; ++f) {
        std::sort(ms[f].begin(), ms[f].end());
        std::sort(ratio[f].begin(), ratio[f].end());
        best[f] = ms[f].front();
        median[f] = ms[f][ms[f].size() / 2];
        ratioMedian[f] = ratio[f][ratio[f].size() / 2];
    }
    std::printf(
        "| %ld x %ld x %ld | %ld | %.3f (%.3f) | %.3f (%.3f) | %.3f (%.3f) | %.2f (%.2f) | "
        "%.2f (%.2f) |\n",
        s.n, s.in, s.out, copies, best[0], median[0], best[1], median[1], best[2], median[2],
        best[1] / best[0], ratioMedian[1], best[2] / best[0], ratioMedian[2]);
    for (int f = 0; f < 3; ++f)
        std::printf(
            "RESULT {\"what\": \"gemm_weights\", \"shape\": \"%s\", \"n\": %ld, "
            "\"in\": %ld, \"out\": %ld, \"format\": \"%s\", \"copies\": %ld, "
            "\"threads\": %d, \"ms_best\": %.4f, \"ms_median\": %.4f}\n",
            s.what, s.n, s.in, s.out, formatNames[f], copies, omp_get_max_threads(), best[f],
            median[f]);
}

}  // namespace

int gemmWeightsBench(int reps)
{
    using attn::kernels::WeightFormat;
    const WeightsShape shapes[] = {
        {1, 1024, 1024, "q/o_proj, one new token"},  {1, 1024, 3072, "gate/up_proj, one new token"},
        {128, 1024, 1024, "q/o_proj, 128 tokens"},   {128, 1024, 3072, "gate/up_proj, 128 tokens"},
        {512, 1024, 1024, "q/o_proj, 512 tokens"},   {512, 1024, 3072, "gate/up_proj, 512 tokens"},
        {1, 1024, 151936, "lm_head, last position"},
    };
    const WeightFormat formats[] = {WeightFormat::F32, WeightFormat::BF16, WeightFormat::F16};
    constexpr double kColdBytes = 256.0 * (1 << 20);
    std::mt19937 gen(11);
    std::uniform_real_distribution<float> dist(-0.1f, 0.1f);
    std::printf("# gemm-weights: path %s, OpenMP threads %d; W as [out, in]\n",
                attn::kernels::gemmPathName(attn::kernels::gemmPath()), omp_get_max_threads());
    std::printf(
        "| n x in x out | copies of W | F32 sgemm ms best (median) | BF16 ms | F16 ms | "
        "BF16 / F32 time: best (median round) | F16 / F32 "
        "|\n|---|---:|---:|---:|---:|---:|---:|\n");
    for (const WeightsShape& s : shapes) {
        const std::size_t count = static_cast<std::size_t>(s.in * s.out);
        const double f32Bytes = 4.0 * static_cast<double>(count);
        const long copies =
            s.n == 1 ? std::max(1L, static_cast<long>(std::ceil(kColdBytes / f32Bytes))) : 1;
        std::vector<float> w(count * static_cast<std::size_t>(copies));
        for (float& v : w) v = dist(gen);
        std::vector<std::uint16_t> halves[2];
        for (int h = 0; h < 2; ++h) {
            halves[h].resize(w.size());
            for (std::size_t i = 0; i < w.size(); ++i) halves[h][i] = narrow(w[i], formats[h + 1]);
        }
        std::vector<float> bias(static_cast<std::size_t>(s.out));
        for (float& v : bias) v = dist(gen);
        std::vector<float> x(static_cast<std::size_t>(s.n * s.in));
        for (float& v : x) v = dist(gen);
        std::vector<float> y(static_cast<std::size_t>(s.n * s.out));
        // Rounds: the three formats one after the other, so that other load on the machine
        // meets them alike; a ratio is taken within each round.
        std::vector<double> ms[3], ratio[3];
        for (int r = 0; r <= reps; ++r) {
            double round[3];
            for (int f = 0; f < 3; ++f) {
                const auto t0 = Clock::now();
                for (long copy = 0; copy < copies; ++copy) {
                    const std::size_t at = static_cast<std::size_t>(copy) * count;
                    const void* weights = f == 0
                                              ? static_cast<const void*>(w.data() + at)
                                              : static_cast<const void*>(halves[f - 1].data() + at);
                    attn::kernels::gemmWeights(s.n, s.in, s.out, x.data(), s.in, weights,
                                               formats[f], s.in, true, bias.data(), y.data(),
                                               s.out);
                }
                round[f] = msSince(t0) / static_cast<double>(copies);
            }
            if (r == 0) continue;  // the warm-up
            for (int f = 0; f < 3; ++f) {
                ms[f].push_back(round[f]);
                ratio[f].push_back(round[f] / round[0]);
            }
        }
        printWeightsRow(s, copies, ms, ratio);
        std::fflush(stdout);
    }
    return 0;
}

}  // namespace attn::bench
