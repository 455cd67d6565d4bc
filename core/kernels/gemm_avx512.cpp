// SPDX-License-Identifier: GPL-3.0-or-later
// The Avx512 path of kernels::sgemm and gemmWeights (shapes in gemm.h), compiled with -mavx512f
// -mavx512vl -mavx512bw -mavx512dq -mfma -mf16c: the Goto driver of gemm_goto.h with a register
// kernel for 32 zmm registers, blocked for Zen 5 (L1d 48 KiB, L2 1 MiB per core, two 512-bit FMA
// units); one-row products of half-precision weights in gemm_gemv.h.
//
//   tile     MR x NR = 8 x 48 of C in 24 zmm accumulators; per step p of k: 3 loads of B,
//            8 broadcasts of A, 24 FMAs (2 FMAs a cycle: 12 cycles a step, 11 loads in them).
//            8 x 48 divides every GPT-2 shape (n = 128, 512; m = 768, 2304, 3072), where 12 x 32
//            and 14 x 32 leave a part-empty row panel at n = 128. Measured on one Zen 5 core
//            (attnlab_model_bench --gemm), 8 x 48 was the fastest of 8 x 48, 12 x 32, 14 x 32 and
//            6 x 64: 175-190 GFLOP/s of the 205 its FMA units reach, against 155-185.
//   blocks   KC = 256: a kc x NR panel of B is 48 KiB, streamed through L1 from L2 (3 lines a
//            step against 12 cycles of FMAs); MC = 512: a 512 x kc block of A is 512 KiB (L2),
//            so that at 512 tokens each B panel is read once per slice; NC = 256. KC = 192, 384
//            or 512, MC = 128 and NC = 512 measured within the machine's noise (5-8 %) or slower.
//   edges    a chunk's last columns are loaded and stored under a mask, and only the panel's
//            vectors that hold any are computed.

#include "core/kernels/gemm_paths.h"

#if defined(__AVX512F__) && defined(__AVX512VL__) && defined(__AVX512BW__) && \
    defined(__AVX512DQ__) && defined(__FMA__) && defined(__AVX2__) && defined(__F16C__)
#define ATTNLAB_GEMM_AVX512 1
#include <immintrin.h>

#include "core/kernels/gemm_gemv.h"
#include "core/kernels/gemm_goto.h"
#endif

namespace attn::kernels::detail {

#if defined(ATTNLAB_GEMM_AVX512)

namespace {

constexpr int kMR = 8;
constexpr int kNR = 48;
constexpr int kVectors = kNR / 16;
// Steps of k between two calls of NextSlice::step (the loop's unrolling, 96 cycles of FMAs).
constexpr int kStepsPerTouch = 4;

// One tile of M rows and V of the panel's vectors of 16 columns (gemm_goto.h's Kernel): a chunk
// whose last panel holds 1-16 or 17-32 columns (64 = 48 + 16, the heads' width) computes only
// those vectors, not the zero padding. The accumulators are an array, every index a constant
// after the unrolling: GCC 12 keeps them all in registers (no stack in the loop).
template <int M, int V>
void kernel(long kc, const float* a, const float* b, float* c, long ldc, long cols,
            const float* bias, bool first, NextSlice& ahead)
{
    __m512 acc[M][V];
#pragma GCC unroll 16
    for (int i = 0; i < M; ++i)
#pragma GCC unroll 4
        for (int v = 0; v < V; ++v) {
            acc[i][v] = _mm512_setzero_ps();
            _mm_prefetch(reinterpret_cast<const char*>(c + i * ldc + 16 * v), _MM_HINT_T0);
        }
    const auto stepOfK = [&]() {
        __m512 bv[V];
#pragma GCC unroll 4
        for (int v = 0; v < V; ++v) bv[v] = _mm512_load_ps(b + 16 * v);
#pragma GCC unroll 16
        for (int i = 0; i < M; ++i) {
            const __m512 ai = _mm512_set1_ps(a[i]);
#pragma GCC unroll 4
            for (int v = 0; v < V; ++v) acc[i][v] = _mm512_fmadd_ps(ai, bv[v], acc[i][v]);
        }
        a += kMR;
        b += kNR;
    };
    long p = 0;
    for (; p + kStepsPerTouch <= kc; p += kStepsPerTouch) {
        ahead.step(kStepsPerTouch);
#pragma GCC unroll 4
        for (int q = 0; q < kStepsPerTouch; ++q) stepOfK();
    }
    for (; p < kc; ++p) {
        ahead.step(1);
        stepOfK();
    }
    __mmask16 mask[V];
    for (int v = 0; v < V; ++v) {
        const long left = cols - 16 * v;
        mask[v] = left >= 16 ? __mmask16{0xFFFF}
                             : static_cast<__mmask16>(left <= 0 ? 0 : (1u << left) - 1);
    }
    const bool withBias = first && bias != nullptr;
    __m512 base[V];
    for (int v = 0; v < V; ++v)
        base[v] = withBias ? _mm512_maskz_loadu_ps(mask[v], bias + 16 * v) : _mm512_setzero_ps();
#pragma GCC unroll 16
    for (int i = 0; i < M; ++i) {
        float* row = c + i * ldc;
#pragma GCC unroll 4
        for (int v = 0; v < V; ++v) {
            const __m512 old = first ? base[v] : _mm512_maskz_loadu_ps(mask[v], row + 16 * v);
            _mm512_mask_storeu_ps(row + 16 * v, mask[v], _mm512_add_ps(old, acc[i][v]));
        }
    }
}

// [v]: the kernel for M rows and v vectors.
template <int M>
constexpr Kernel kWidths[kVectors + 1] = {nullptr, kernel<M, 1>, kernel<M, 2>, kernel<M, 3>};

struct Avx512 {
    static constexpr int MR = kMR;
    static constexpr int NR = kNR;
    static constexpr long KC = 256;
    static constexpr long MC = 512;
    static constexpr long NC = 256;
    static Kernel kernelFor(long rows, long cols)
    {
        static constexpr const Kernel* kByRows[MR + 1] = {nullptr,    kWidths<1>, kWidths<2>,
                                                          kWidths<3>, kWidths<4>, kWidths<5>,
                                                          kWidths<6>, kWidths<7>, kWidths<8>};
        return kByRows[rows][(cols + 15) / 16];
    }
};

}  // namespace

bool avx512CompiledIn()
{
    return true;
}

void sgemmAvx512(long n, long k, long m, const float* a, long lda, const float* b, long ldb,
                 bool bTransposed, const float* bias, float* c, long ldc)
{
    sgemmGoto<Avx512>(n, k, m, a, lda, b, ldb, bTransposed, bias, c, ldc);
}

void gemmWeightsAvx512(long n, long k, long m, const float* a, long lda, const void* b,
                       WeightFormat format, long ldb, bool bTransposed, const float* bias, float* c,
                       long ldc)
{
    gemmWeightsGoto<Avx512>(n, k, m, a, lda, b, format, ldb, bTransposed, bias, c, ldc);
}

#else  // not an x86 compiler that can target AVX-512

bool avx512CompiledIn()
{
    return false;
}

void sgemmAvx512(long n, long k, long m, const float* a, long lda, const float* b, long ldb,
                 bool bTransposed, const float* bias, float* c, long ldc)
{
    sgemmPortable(n, k, m, a, lda, b, ldb, bTransposed, bias, c, ldc);
}

void gemmWeightsAvx512(long n, long k, long m, const float* a, long lda, const void* b,
                       WeightFormat format, long ldb, bool bTransposed, const float* bias, float* c,
                       long ldc)
{
    gemmWeightsPortable(n, k, m, a, lda, b, format, ldb, bTransposed, bias, c, ldc);
}

#endif

}  // namespace attn::kernels::detail
