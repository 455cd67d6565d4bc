// SPDX-License-Identifier: GPL-3.0-or-later
// The Avx2Fma path of kernels::geluTanh (activation.h), compiled with -mavx2 -mfma; nothing
// from the standard library's templates is used here (see gemm_paths.h).
//
// tanh(u) is Eigen's rational approximation (generic_fast_tanh_float in Eigen 3.4, whose
// coefficients are used here): u clamped to +-7.9988 (where it rounds to +-1 in float), then
// u p(u^2) / q(u^2) with p of degree 6 and q of degree 3 in u^2; below |u| = 0.0004 tanh(u) = u.
// It is the same evaluation, FMA for FMA, as Eigen's AVX2 packet path, which the native build's
// Eigen code runs.

#include "core/kernels/gemm_paths.h"

#if defined(__AVX2__) && defined(__FMA__)
#include <immintrin.h>
#endif

namespace attn::kernels::detail {

#if defined(__AVX2__) && defined(__FMA__)

namespace {

constexpr float kSqrtTwoOverPi = 0.797884560802865355879892119868763737f;

__m256 tanh8(__m256 u)
{
    const __m256 clamp = _mm256_set1_ps(7.99881172180175781f);
    const __m256 x =
        _mm256_max_ps(_mm256_min_ps(u, clamp), _mm256_sub_ps(_mm256_setzero_ps(), clamp));
    const __m256 absU = _mm256_andnot_ps(_mm256_set1_ps(-0.0f), u);
    const __m256 tiny = _mm256_cmp_ps(absU, _mm256_set1_ps(0.0004f), _CMP_LT_OQ);
    const __m256 x2 = _mm256_mul_ps(x, x);
    __m256 p = _mm256_fmadd_ps(x2, _mm256_set1_ps(-2.76076847742355e-16f),
                               _mm256_set1_ps(2.00018790482477e-13f));
    p = _mm256_fmadd_ps(x2, p, _mm256_set1_ps(-8.60467152213735e-11f));
    p = _mm256_fmadd_ps(x2, p, _mm256_set1_ps(5.12229709037114e-08f));
    p = _mm256_fmadd_ps(x2, p, _mm256_set1_ps(1.48572235717979e-05f));
    p = _mm256_fmadd_ps(x2, p, _mm256_set1_ps(6.37261928875436e-04f));
    p = _mm256_fmadd_ps(x2, p, _mm256_set1_ps(4.89352455891786e-03f));
    p = _mm256_mul_ps(x, p);
    __m256 q = _mm256_fmadd_ps(x2, _mm256_set1_ps(1.19825839466702e-06f),
                               _mm256_set1_ps(1.18534705686654e-04f));
    q = _mm256_fmadd_ps(x2, q, _mm256_set1_ps(2.26843463243900e-03f));
    q = _mm256_fmadd_ps(x2, q, _mm256_set1_ps(4.89352518554385e-03f));
    return _mm256_blendv_ps(_mm256_div_ps(p, q), x, tiny);
}

__m256 gelu8(__m256 v)
{
    const __m256 cube = _mm256_mul_ps(_mm256_mul_ps(v, v), v);
    const __m256 inner = _mm256_mul_ps(_mm256_set1_ps(kSqrtTwoOverPi),
                                       _mm256_fmadd_ps(_mm256_set1_ps(0.044715f), cube, v));
    const __m256 half = _mm256_mul_ps(_mm256_set1_ps(0.5f), v);
    return _mm256_mul_ps(half, _mm256_add_ps(_mm256_set1_ps(1.0f), tanh8(inner)));
}

}  // namespace

void geluTanhAvx2Fma(float* x, long count)
{
    long i = 0;
    for (; i + 8 <= count; i += 8) _mm256_storeu_ps(x + i, gelu8(_mm256_loadu_ps(x + i)));
    if (i < count) {
        // The tail through a padded copy: the same arithmetic for every element.
        alignas(32) float tail[8] = {};
        for (long j = i; j < count; ++j) tail[j - i] = x[j];
        _mm256_store_ps(tail, gelu8(_mm256_load_ps(tail)));
        for (long j = i; j < count; ++j) x[j] = tail[j - i];
    }
}

#else

void geluTanhAvx2Fma(float* x, long count)
{
    geluTanhPortable(x, count);
}

#endif

}  // namespace attn::kernels::detail
