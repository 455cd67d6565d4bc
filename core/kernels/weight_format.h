// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// How a weight matrix's elements are stored, for kernels::gemmWeights (gemm.h). A header of its
// own so that the instruction-set units (gemm_paths.h) can name it without including gemm.h's
// standard-library headers.

namespace attn::kernels {

// Raw little-endian elements, as a checkpoint stores them:
//   F32    IEEE single
//   F16    IEEE half (1 sign, 5 exponent, 10 mantissa bits)
//   BF16   bfloat16, the top 16 bits of an IEEE single
// Widening F16 and BF16 to float is exact (every finite value, Inf and NaN stay what they are).
enum class WeightFormat { F32, F16, BF16 };

}  // namespace attn::kernels
