// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Single-precision matrix product for the dense layers (y = x W + b) and the long path's
// blocks, with the kernel chosen when the program runs, not when it is built: a packaged binary
// is built for the x86-64 baseline and must still use AVX2, FMA and AVX-512 on the CPUs that
// have them.
//
//   Avx512     the packed BLIS/Goto-style SGEMM (gemm_goto.h) with an 8 x 48 zmm register kernel
//              (gemm_avx512.cpp, compiled with -mavx512f/vl/bw/dq -mfma whatever the build
//              targets); chosen where the CPU has all of those
//   Avx2Fma    the same driver with a 6 x 16 ymm kernel (gemm_avx2.cpp, -mavx2 -mfma)
//   Portable   Eigen's product, split over threads by output columns (gemm_portable.cpp,
//              compiled for whatever the build targets)
//
// Shapes (all row-major; ld* are row strides in floats):
//   A     n x k                 the layer input, one token per row
//   B     k x m                 GPT-2's Conv1D weight [in, out]            (bTransposed false)
//         m x k                 nn.Linear / the tied decoder [out, in]     (bTransposed true)
//   bias  m, or nullptr
//   C     n x m                 C = A B (+ bias on every row); written, never read first
// Any n, k, m >= 1. C must not overlap A, B or bias. All paths agree up to float rounding.

#include <vector>

#include "core/kernels/weight_format.h"

namespace attn::kernels {

enum class GemmPath { Portable, Avx2Fma, Avx512 };

[[nodiscard]] const char* gemmPathName(GemmPath path);

// The paths this binary has and this CPU can run, the portable one first, the fastest last.
[[nodiscard]] std::vector<GemmPath> supportedGemmPaths();

// The path sgemm takes: the fastest supported one, unless the environment variable
// ATTNLAB_KERNELS asks for a slower one to compare against on one machine: "portable", or
// "avx2" (where the CPU has it). Decided once, on the first call.
[[nodiscard]] GemmPath gemmPath();

// The path gemmPath() takes when ATTNLAB_KERNELS is `request` (nullptr: not set); a request for
// a path the CPU cannot run, or an unknown one, gives the fastest supported path.
[[nodiscard]] GemmPath gemmPathFor(const char* request);

// C = A B (+ bias) on gemmPath(), split over the OpenMP threads (omp_get_max_threads()) when
// large enough; inside a parallel region it runs on the calling thread.
void sgemm(long n, long k, long m, const float* a, long lda, const float* b, long ldb,
           bool bTransposed, const float* bias, float* c, long ldc);

// The same on a given path, which must be one of supportedGemmPaths() (tests, benchmarks).
void sgemm(GemmPath path, long n, long k, long m, const float* a, long lda, const float* b,
           long ldb, bool bTransposed, const float* bias, float* c, long ldc);

// C = A B (+ bias) with B's elements stored in `format` (weight_format.h), as a memory-mapped
// checkpoint holds them: shapes, strides (ldb counts elements, not bytes) and threads as sgemm.
// No copy of B is made: the packed paths widen B to float while they pack it, which they do
// anyway; the portable path widens at most 256 of B's columns (rows when transposed) at a time,
// per thread, and multiplies them with Eigen. One row of A (n = 1, a token typed) is a
// matrix-vector product that widens B as it reads it, once. b must be aligned to its element
// size. F32 is sgemm itself; F16 and BF16 agree with sgemm on a widened copy of B bit for bit on
// the packed paths for n > 1, and up to float rounding otherwise.
void gemmWeights(long n, long k, long m, const float* a, long lda, const void* b,
                 WeightFormat format, long ldb, bool bTransposed, const float* bias, float* c,
                 long ldc);

// The same on a given path, which must be one of supportedGemmPaths() (tests, benchmarks).
void gemmWeights(GemmPath path, long n, long k, long m, const float* a, long lda, const void* b,
                 WeightFormat format, long ldb, bool bTransposed, const float* bias, float* c,
                 long ldc);

// rows x cols elements of a matrix stored in `format` (row stride ld elements) as dense floats
// (row stride cols), exactly: what a caller needs of a few rows of kept half-precision weights,
// an embedding row or a head's slice of a projection. src must be aligned to its element size.
void widenWeights(WeightFormat format, const void* src, long ld, long rows, long cols, float* dst);

// Whether all `count` elements at `src` are finite (no NaN, no Inf), read in their format.
[[nodiscard]] bool weightsFinite(WeightFormat format, const void* src, long count);

}  // namespace attn::kernels
