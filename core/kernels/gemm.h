// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Single-precision matrix product for the dense layers (y = x W + b) and the long path's
// blocks, with the kernel chosen when the program runs, not when it is built: a packaged binary
// is built for the x86-64 baseline and must still use AVX2 and FMA on the CPUs that have them.
//
//   Avx2Fma    a packed BLIS/Goto-style SGEMM with a 6 x 16 register kernel (gemm_avx2.cpp,
//              compiled with -mavx2 -mfma whatever the rest of the build targets)
//   Portable   Eigen's product, split over threads by output columns (gemm_portable.cpp,
//              compiled for whatever the build targets)
//
// Shapes (all row-major; ld* are row strides in floats):
//   A     n x k                 the layer input, one token per row
//   B     k x m                 GPT-2's Conv1D weight [in, out]            (bTransposed false)
//         m x k                 nn.Linear / the tied decoder [out, in]     (bTransposed true)
//   bias  m, or nullptr
//   C     n x m                 C = A B (+ bias on every row); written, never read first
// Any n, k, m >= 1. C must not overlap A, B or bias. Both paths agree up to float rounding.

#include <vector>

namespace attn::kernels {

enum class GemmPath { Portable, Avx2Fma };

[[nodiscard]] const char* gemmPathName(GemmPath path);

// The paths this binary has and this CPU can run, the portable one first.
[[nodiscard]] std::vector<GemmPath> supportedGemmPaths();

// The path sgemm takes: the fastest supported one, unless the environment variable
// ATTNLAB_KERNELS=portable asks for the portable one (to compare them on one machine). Decided
// once, on the first call.
[[nodiscard]] GemmPath gemmPath();

// C = A B (+ bias) on gemmPath(), split over the OpenMP threads (omp_get_max_threads()) when
// large enough; inside a parallel region it runs on the calling thread.
void sgemm(long n, long k, long m, const float* a, long lda, const float* b, long ldb,
           bool bTransposed, const float* bias, float* c, long ldc);

// The same on a given path, which must be one of supportedGemmPaths() (tests, benchmarks).
void sgemm(GemmPath path, long n, long k, long m, const float* a, long lda, const float* b,
           long ldb, bool bTransposed, const float* bias, float* c, long ldc);

}  // namespace attn::kernels
