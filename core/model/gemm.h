#pragma once
// Single-precision matrix product for the model's dense layers (y = x W + b), a packed
// BLIS/Goto-style SGEMM with an AVX2+FMA register kernel. Built without AVX2 and FMA it is a
// plain Eigen product instead, with the same results up to float rounding.
//
// Shapes (all row-major; ld* are row strides in floats):
//   A     n x k                 the layer input, one token per row
//   B     k x m                 GPT-2's Conv1D weight [in, out]            (bTransposed false)
//         m x k                 nn.Linear / the tied decoder [out, in]     (bTransposed true)
//   bias  m, or nullptr
//   C     n x m                 C = A B (+ bias on every row); written, never read first
// Any n, k, m >= 1. C must not overlap A, B or bias.

namespace attn::model::gemm {

// True when the packed AVX2+FMA kernel is compiled in (else sgemm is Eigen's product).
[[nodiscard]] bool packedKernel();

// C = A B (+ bias), split over the OpenMP threads (omp_get_max_threads()) when large enough.
void sgemm(long n, long k, long m, const float* a, long lda, const float* b, long ldb,
           bool bTransposed, const float* bias, float* c, long ldc);

}  // namespace attn::model::gemm
