// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/kernels/activation.h"

#include <cmath>

#include <Eigen/Core>

#include "core/kernels/gemm_paths.h"

namespace attn::kernels {

namespace detail {

void geluTanhPortable(float* x, long count)
{
    Eigen::Map<Eigen::ArrayXf> a(x, count);
    const float c = static_cast<float>(std::sqrt(2.0 / M_PI));
    a = 0.5f * a * (1.0f + (c * (a + 0.044715f * a.cube())).tanh());
}

void expShiftedPortable(const float* x, float shift, float* out, long count)
{
    Eigen::Map<Eigen::ArrayXf>(out, count) =
        (Eigen::Map<const Eigen::ArrayXf>(x, count) - shift).exp();
}

void siluPortable(float* x, const float* times, long count)
{
    Eigen::Map<Eigen::ArrayXf> a(x, count);
    // One coefficient-wise expression: `times` may be `x` itself.
    if (times != nullptr)
        a = a / (1.0f + (-a).exp()) * Eigen::Map<const Eigen::ArrayXf>(times, count);
    else
        a = a / (1.0f + (-a).exp());
}

}  // namespace detail

void geluTanh(float* x, long count)
{
    geluTanh(gemmPath(), x, count);
}

void geluTanh(GemmPath path, float* x, long count)
{
    if (count <= 0) return;
    // The AVX-512 path's CPUs run the AVX2 code: GELU is 1 % of the pass (docs/PERFORMANCE.md).
    if (path == GemmPath::Avx2Fma || path == GemmPath::Avx512)
        detail::geluTanhAvx2Fma(x, count);
    else
        detail::geluTanhPortable(x, count);
}

void expShifted(const float* x, float shift, float* out, long count)
{
    expShifted(gemmPath(), x, shift, out, count);
}

void expShifted(GemmPath path, const float* x, float shift, float* out, long count)
{
    if (count <= 0) return;
    if (path == GemmPath::Avx2Fma || path == GemmPath::Avx512)
        detail::expShiftedAvx2Fma(x, shift, out, count);
    else
        detail::expShiftedPortable(x, shift, out, count);
}

void silu(float* x, const float* times, long count)
{
    silu(gemmPath(), x, times, count);
}

void silu(GemmPath path, float* x, const float* times, long count)
{
    if (count <= 0) return;
    if (path == GemmPath::Avx2Fma || path == GemmPath::Avx512)
        detail::siluAvx2Fma(x, times, count);
    else
        detail::siluPortable(x, times, count);
}

}  // namespace attn::kernels
