// SPDX-License-Identifier: GPL-3.0-or-later
// The Avx2Fma path of kernels::geluTanh and expShifted (activation.h), compiled with -mavx2
// -mfma; nothing from the standard library's templates is used here (see gemm_paths.h).
//
// tanh(u) is Eigen's rational approximation (generic_fast_tanh_float in Eigen 3.4, whose
// coefficients are used here): u clamped to +-7.9988 (where it rounds to +-1 in float), then
// u p(u^2) / q(u^2) with p of degree 6 and q of degree 3 in u^2; below |u| = 0.0004 tanh(u) = u.
// It is the same evaluation, FMA for FMA, as Eigen's AVX2 packet path, which the native build's
// Eigen code runs.
//
// exp(x) is Eigen's pexp_float (Cephes): x clamped to +-88.723, m = floor(x log2(e) + 1/2),
// r = x - m ln 2 in two FMAs, exp(r) by a polynomial of degree 6, then 2^m applied as four
// exact power-of-two factors (Eigen's pldexp_generic), and the largest of that and x (so that
// +Inf stays +Inf and NaN stays NaN).

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

__m256 exp8(__m256 in)
{
    const __m256 x =
        _mm256_max_ps(_mm256_min_ps(in, _mm256_set1_ps(88.723f)), _mm256_set1_ps(-88.723f));
    const __m256 m = _mm256_round_ps(
        _mm256_fmadd_ps(x, _mm256_set1_ps(1.44269504088896341f), _mm256_set1_ps(0.5f)),
        _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC);
    __m256 r = _mm256_fmadd_ps(m, _mm256_set1_ps(-0.693359375f), x);
    r = _mm256_fmadd_ps(m, _mm256_set1_ps(2.12194440e-4f), r);
    const __m256 r2 = _mm256_mul_ps(r, r);
    const __m256 r3 = _mm256_mul_ps(r2, r);
    __m256 y =
        _mm256_fmadd_ps(_mm256_set1_ps(1.9875691500e-4f), r, _mm256_set1_ps(1.3981999507e-3f));
    __m256 y1 =
        _mm256_fmadd_ps(_mm256_set1_ps(4.1665795894e-2f), r, _mm256_set1_ps(1.6666665459e-1f));
    const __m256 y2 = _mm256_add_ps(r, _mm256_set1_ps(1.0f));
    y = _mm256_fmadd_ps(y, r, _mm256_set1_ps(8.3334519073e-3f));
    y1 = _mm256_fmadd_ps(y1, r, _mm256_set1_ps(5.0000001201e-1f));
    y = _mm256_fmadd_ps(y, r3, y1);
    y = _mm256_fmadd_ps(y, r2, y2);
    // 2^m as 2^b 2^b 2^b 2^(m - 3b) with b = floor(m / 4): every factor a normal float.
    const __m256i e = _mm256_cvttps_epi32(m);
    const __m256i b = _mm256_srai_epi32(e, 2);
    const __m256i bias = _mm256_set1_epi32(127);
    const __m256 c = _mm256_castsi256_ps(_mm256_slli_epi32(_mm256_add_epi32(b, bias), 23));
    __m256 out = _mm256_mul_ps(_mm256_mul_ps(_mm256_mul_ps(y, c), c), c);
    const __m256i rest = _mm256_sub_epi32(_mm256_sub_epi32(_mm256_sub_epi32(e, b), b), b);
    out = _mm256_mul_ps(out,
                        _mm256_castsi256_ps(_mm256_slli_epi32(_mm256_add_epi32(rest, bias), 23)));
    return _mm256_max_ps(out, in);
}

}  // namespace

void expShiftedAvx2Fma(const float* x, float shift, float* out, long count)
{
    const __m256 s = _mm256_set1_ps(shift);
    long i = 0;
    for (; i + 8 <= count; i += 8)
        _mm256_storeu_ps(out + i, exp8(_mm256_sub_ps(_mm256_loadu_ps(x + i), s)));
    if (i < count) {
        alignas(32) float tail[8] = {};
        for (long j = i; j < count; ++j) tail[j - i] = x[j];
        _mm256_store_ps(tail, exp8(_mm256_sub_ps(_mm256_load_ps(tail), s)));
        for (long j = i; j < count; ++j) out[j] = tail[j - i];
    }
}

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

void siluAvx2Fma(float* x, const float* times, long count)
{
    const __m256 one = _mm256_set1_ps(1.0f);
    const auto silu8 = [&](__m256 v, __m256 t) {
        const __m256 e = exp8(_mm256_sub_ps(_mm256_setzero_ps(), v));
        return _mm256_mul_ps(_mm256_div_ps(v, _mm256_add_ps(one, e)), t);
    };
    long i = 0;
    for (; i + 8 <= count; i += 8)
        _mm256_storeu_ps(x + i,
                         silu8(_mm256_loadu_ps(x + i), times ? _mm256_loadu_ps(times + i) : one));
    if (i < count) {
        alignas(32) float tail[8] = {};
        alignas(32) float tailTimes[8] = {1, 1, 1, 1, 1, 1, 1, 1};
        for (long j = i; j < count; ++j) {
            tail[j - i] = x[j];
            if (times) tailTimes[j - i] = times[j];
        }
        _mm256_store_ps(tail, silu8(_mm256_load_ps(tail), _mm256_load_ps(tailTimes)));
        for (long j = i; j < count; ++j) x[j] = tail[j - i];
    }
}

#else

void siluAvx2Fma(float* x, const float* times, long count)
{
    siluPortable(x, times, count);
}

void geluTanhAvx2Fma(float* x, long count)
{
    geluTanhPortable(x, count);
}

void expShiftedAvx2Fma(const float* x, float shift, float* out, long count)
{
    expShiftedPortable(x, shift, out, count);
}

#endif

}  // namespace attn::kernels::detail
