// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// kernels::gemmWeights (gemm.h) on the packed paths: half-precision B through the Goto driver
// (gemm_goto.h), which widens B as it packs it, and one row of A (n = 1: the token just typed, the
// logits of the last position) as a matrix-vector product that reads B once, straight from its
// storage, widening 8 elements at a time; nothing is packed or copied.
//
//   B^T  [m, k] (nn.Linear)   c_j = bias_j + a . B_j: four rows of B at a time, each with two
//                              accumulators (8 FMA chains in flight), summed across lanes at the
//                              end
//   B    [k, m]               c[j, j + 64) = bias + sum_p a_p B[p, j, j + 64): strips of 64
//                              columns in 8 accumulators, B's rows read front to back
//
// At one row the product is bound by reading B: half-precision B is half the bytes of float.
// Threads take blocks of rows of B^T (strips of B) in turn when the product is large enough.
// The sums run in another order than the packed kernel's, so n = 1 agrees with sgemm up to float
// rounding, not bit for bit.
//
// Linkage and the standard library: as gemm_goto.h (an anonymous namespace, no std templates).
// Include it only from a unit compiled for AVX2, FMA and F16C or more.

#include <immintrin.h>

#include "core/kernels/gemm_goto.h"

namespace attn::kernels::detail {
namespace {

// Rows of B^T (columns of B: two strips of 64) a thread takes at a time.
constexpr long kGemvBlock = 128;

float sumLanes(__m256 v)
{
    __m128 s = _mm_add_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
    s = _mm_add_ps(s, _mm_movehl_ps(s, s));
    s = _mm_add_ss(s, _mm_shuffle_ps(s, s, 1));
    return _mm_cvtss_f32(s);
}

// c[0, R) = bias + a . B_r for R rows of B^T from `b` (row stride ldb).
template <class E, int R>
void gemvRows(long k, const float* a, const typename E::Type* b, long ldb, const float* bias,
              float* c)
{
    __m256 lo[R], hi[R];
#pragma GCC unroll 4
    for (int r = 0; r < R; ++r) lo[r] = hi[r] = _mm256_setzero_ps();
    long p = 0;
    for (; p + 16 <= k; p += 16) {
        const __m256 a0 = _mm256_loadu_ps(a + p);
        const __m256 a1 = _mm256_loadu_ps(a + p + 8);
#pragma GCC unroll 4
        for (int r = 0; r < R; ++r) {
            lo[r] = _mm256_fmadd_ps(a0, E::load8(b + r * ldb + p), lo[r]);
            hi[r] = _mm256_fmadd_ps(a1, E::load8(b + r * ldb + p + 8), hi[r]);
        }
    }
    if (p + 8 <= k) {
        const __m256 a0 = _mm256_loadu_ps(a + p);
#pragma GCC unroll 4
        for (int r = 0; r < R; ++r) lo[r] = _mm256_fmadd_ps(a0, E::load8(b + r * ldb + p), lo[r]);
        p += 8;
    }
#pragma GCC unroll 4
    for (int r = 0; r < R; ++r) {
        float sum = sumLanes(_mm256_add_ps(lo[r], hi[r]));
        for (long q = p; q < k; ++q) sum += a[q] * E::load1(b + r * ldb + q);
        c[r] = (bias != nullptr ? bias[r] : 0.0f) + sum;
    }
}

// Columns [0, 8 V) of c = bias + a B, from `b` at B's first row (row stride ldb).
template <class E, int V>
void gemvColumns(long k, const float* a, const typename E::Type* b, long ldb, const float* bias,
                 float* c)
{
    __m256 acc[V];
#pragma GCC unroll 8
    for (int v = 0; v < V; ++v) acc[v] = _mm256_setzero_ps();
    for (long p = 0; p < k; ++p) {
        const __m256 ap = _mm256_broadcast_ss(a + p);
        const typename E::Type* row = b + p * ldb;
#pragma GCC unroll 8
        for (int v = 0; v < V; ++v) acc[v] = _mm256_fmadd_ps(ap, E::load8(row + 8 * v), acc[v]);
    }
#pragma GCC unroll 8
    for (int v = 0; v < V; ++v) {
        const __m256 base = bias != nullptr ? _mm256_loadu_ps(bias + 8 * v) : _mm256_setzero_ps();
        _mm256_storeu_ps(c + 8 * v, _mm256_add_ps(base, acc[v]));
    }
}

// c[j0, j1) of the one-row product.
template <class E>
void gemvBlock(long k, const float* a, const typename E::Type* b, long ldb, bool bTransposed,
               const float* bias, float* c, long j0, long j1)
{
    const auto biasAt = [&](long j) { return bias != nullptr ? bias + j : nullptr; };
    long j = j0;
    if (bTransposed) {
        for (; j + 4 <= j1; j += 4) gemvRows<E, 4>(k, a, b + j * ldb, ldb, biasAt(j), c + j);
        for (; j < j1; ++j) gemvRows<E, 1>(k, a, b + j * ldb, ldb, biasAt(j), c + j);
        return;
    }
    for (; j + 64 <= j1; j += 64) gemvColumns<E, 8>(k, a, b + j, ldb, biasAt(j), c + j);
    for (; j + 8 <= j1; j += 8) gemvColumns<E, 1>(k, a, b + j, ldb, biasAt(j), c + j);
    for (; j < j1; ++j) {
        float sum = 0.0f;
        for (long p = 0; p < k; ++p) sum += a[p] * E::load1(b + p * ldb + j);
        c[j] = (bias != nullptr ? bias[j] : 0.0f) + sum;
    }
}

template <class E>
void gemv(long k, long m, const float* a, const typename E::Type* b, long ldb, bool bTransposed,
          const float* bias, float* c)
{
    const double work = static_cast<double>(k) * static_cast<double>(m);
    const long blocks = ceilDiv(m, kGemvBlock);
    const int threads = work >= kParallelWork && blocks > 1 && !omp_in_parallel()
                            ? static_cast<int>(larger(1, omp_get_max_threads()))
                            : 1;
#pragma omp parallel for num_threads(threads) schedule(dynamic, 1) if (threads > 1)
    for (long block = 0; block < blocks; ++block) {
        const long j0 = block * kGemvBlock;
        gemvBlock<E>(k, a, b, ldb, bTransposed, bias, c, j0, smaller(j0 + kGemvBlock, m));
    }
}

template <class Isa, class E>
void gemmWidening(long n, long k, long m, const float* a, long lda, const void* b, long ldb,
                  bool bTransposed, const float* bias, float* c, long ldc)
{
    const auto* elements = static_cast<const typename E::Type*>(b);
    if (n == 1)
        gemv<E>(k, m, a, elements, ldb, bTransposed, bias, c);
    else
        sgemmGoto<Isa, E>(n, k, m, a, lda, elements, ldb, bTransposed, bias, c, ldc);
}

// gemmWeights on the packed path Isa.
template <class Isa>
void gemmWeightsGoto(long n, long k, long m, const float* a, long lda, const void* b,
                     WeightFormat format, long ldb, bool bTransposed, const float* bias, float* c,
                     long ldc)
{
    switch (format) {
    case WeightFormat::F32:
        sgemmGoto<Isa>(n, k, m, a, lda, static_cast<const float*>(b), ldb, bTransposed, bias, c,
                       ldc);
        return;
    case WeightFormat::F16:
        gemmWidening<Isa, F16Elements>(n, k, m, a, lda, b, ldb, bTransposed, bias, c, ldc);
        return;
    case WeightFormat::BF16:
        gemmWidening<Isa, Bf16Elements>(n, k, m, a, lda, b, ldb, bTransposed, bias, c, ldc);
        return;
    }
}

}  // namespace
}  // namespace attn::kernels::detail
