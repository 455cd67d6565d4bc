// SPDX-License-Identifier: GPL-3.0-or-later
// The Avx2Fma path of kernels::sgemm and gemmWeights (shapes in gemm.h), compiled with -mavx2
// -mfma -mf16c: the Goto driver of gemm_goto.h with a register kernel for 16 ymm registers,
// blocked for Zen 3 (L1d 32 KiB, L2 512 KiB per core); one-row products of half-precision
// weights in gemm_gemv.h.
//
//   tile     MR x NR = 6 x 16 of C in 12 ymm accumulators; per step p of k: 2 loads of B,
//            6 broadcasts of A, 12 FMAs (2 FMAs a cycle: 6 cycles a step)
//   blocks   KC = 256: a kc x NR panel of B is 16 KiB (L1); MC = 144: an MC x kc block of A is
//            144 KiB (L2); NC = 256: a kc x NC slice of B is 256 KiB (L2, beside A's block)
//   edges    a chunk's last columns go through a tile on the stack
//
// Single-thread speed on the model's shapes: 85-92 GFLOP/s of the 103 a Zen 3 core's FMA units
// reach (bench: attnlab_model_bench --gemm).

#include "core/kernels/gemm_paths.h"

#if defined(__AVX2__) && defined(__FMA__) && defined(__F16C__)
#include <immintrin.h>

#include "core/kernels/gemm_gemv.h"
#include "core/kernels/gemm_goto.h"
#endif

namespace attn::kernels::detail {

#if defined(__AVX2__) && defined(__FMA__) && defined(__F16C__)

namespace {

constexpr int kMR = 6;
constexpr int kNR = 16;

// One tile of M rows (gemm_goto.h's Kernel).
template <int M>
void kernel(long kc, const float* a, const float* b, float* c, long ldc, long cols,
            const float* bias, bool first, NextSlice& ahead)
{
    // Named accumulators, not an array: GCC keeps an array of __m256 on the stack and stores it
    // back every step (half the speed). Rows past M are never used and compile away.
    __m256 c00 = _mm256_setzero_ps(), c01 = c00, c10 = c00, c11 = c00, c20 = c00, c21 = c00;
    __m256 c30 = c00, c31 = c00, c40 = c00, c41 = c00, c50 = c00, c51 = c00;
    for (int i = 0; i < M; ++i)
        _mm_prefetch(reinterpret_cast<const char*>(c + i * ldc), _MM_HINT_T0);
    // The tile's share of the next slice at once (a tile is 1,536 cycles of FMAs here): a call
    // in the loop below costs GCC its unrolling, and the kernel a tenth of its speed.
    ahead.step(kc);
#pragma GCC unroll 4
    for (long p = 0; p < kc; ++p) {
        const __m256 b0 = _mm256_load_ps(b);
        const __m256 b1 = _mm256_load_ps(b + 8);
        const auto row = [&](int i, __m256& lo, __m256& hi) {
            const __m256 ai = _mm256_broadcast_ss(a + i);
            lo = _mm256_fmadd_ps(ai, b0, lo);
            hi = _mm256_fmadd_ps(ai, b1, hi);
        };
        row(0, c00, c01);
        if constexpr (M > 1) row(1, c10, c11);
        if constexpr (M > 2) row(2, c20, c21);
        if constexpr (M > 3) row(3, c30, c31);
        if constexpr (M > 4) row(4, c40, c41);
        if constexpr (M > 5) row(5, c50, c51);
        a += kMR;
        b += kNR;
    }
    const __m256 acc[kMR][2] = {{c00, c01}, {c10, c11}, {c20, c21},
                                {c30, c31}, {c40, c41}, {c50, c51}};
    if (cols == kNR) {
        const bool withBias = first && bias != nullptr;
        const __m256 base0 = withBias ? _mm256_loadu_ps(bias) : _mm256_setzero_ps();
        const __m256 base1 = withBias ? _mm256_loadu_ps(bias + 8) : _mm256_setzero_ps();
        for (int i = 0; i < M; ++i) {
            float* row = c + i * ldc;
            const __m256 c0 = first ? base0 : _mm256_loadu_ps(row);
            const __m256 c1 = first ? base1 : _mm256_loadu_ps(row + 8);
            _mm256_storeu_ps(row, _mm256_add_ps(c0, acc[i][0]));
            _mm256_storeu_ps(row + 8, _mm256_add_ps(c1, acc[i][1]));
        }
        return;
    }
    alignas(32) float tile[M][kNR];
    for (int i = 0; i < M; ++i) {
        _mm256_store_ps(tile[i], acc[i][0]);
        _mm256_store_ps(tile[i] + 8, acc[i][1]);
    }
    for (int i = 0; i < M; ++i) {
        float* row = c + i * ldc;
        for (long j = 0; j < cols; ++j) {
            const float base = !first ? row[j] : bias != nullptr ? bias[j] : 0.0f;
            row[j] = base + tile[i][j];
        }
    }
}

struct Avx2Fma {
    static constexpr int MR = kMR;
    static constexpr int NR = kNR;
    static constexpr long KC = 256;
    static constexpr long MC = 144;
    static constexpr long NC = 256;
    static Kernel kernelFor(long rows, long /*cols*/)
    {
        static constexpr Kernel kByRows[MR + 1] = {nullptr,   kernel<1>, kernel<2>, kernel<3>,
                                                   kernel<4>, kernel<5>, kernel<6>};
        return kByRows[rows];
    }
};

}  // namespace

bool avx2FmaCompiledIn()
{
    return true;
}

void sgemmAvx2Fma(long n, long k, long m, const float* a, long lda, const float* b, long ldb,
                  bool bTransposed, const float* bias, float* c, long ldc)
{
    sgemmGoto<Avx2Fma>(n, k, m, a, lda, b, ldb, bTransposed, bias, c, ldc);
}

void gemmWeightsAvx2Fma(long n, long k, long m, const float* a, long lda, const void* b,
                        WeightFormat format, long ldb, bool bTransposed, const float* bias,
                        float* c, long ldc)
{
    gemmWeightsGoto<Avx2Fma>(n, k, m, a, lda, b, format, ldb, bTransposed, bias, c, ldc);
}

#else  // not an x86 compiler that can target AVX2, FMA and F16C

bool avx2FmaCompiledIn()
{
    return false;
}

void sgemmAvx2Fma(long n, long k, long m, const float* a, long lda, const float* b, long ldb,
                  bool bTransposed, const float* bias, float* c, long ldc)
{
    sgemmPortable(n, k, m, a, lda, b, ldb, bTransposed, bias, c, ldc);
}

void gemmWeightsAvx2Fma(long n, long k, long m, const float* a, long lda, const void* b,
                        WeightFormat format, long ldb, bool bTransposed, const float* bias,
                        float* c, long ldc)
{
    gemmWeightsPortable(n, k, m, a, lda, b, format, ldb, bTransposed, bias, c, ldc);
}

#endif

}  // namespace attn::kernels::detail
