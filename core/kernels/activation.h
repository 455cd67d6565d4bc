// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Element-wise functions on the kernel path chosen at run time (gemm.h): AVX2 + FMA where the
// CPU has them, Eigen's vectorised functions for the build's instruction set otherwise. Both
// evaluate by the same approximation (Eigen's), so the two paths agree to a few ulp.
//   geluTanh     GPT-2's activation, gelu_new: x <- 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715
//                x^3))), in place
//   expShifted   out <- exp(x - shift), a softmax row's exponentials (the portable build's Eigen
//                evaluates them 4 lanes at a time, 4 % of a GPT-2 pass at 512 tokens)
//   silu         x <- x / (1 + exp(-x)), times `times` element by element where it is given:
//                SwiGLU's silu(gate) * up in one pass (a scalar std::exp per element was 3 % of
//                a Qwen3-0.6B pass at 512 tokens)

#include "core/kernels/gemm.h"

namespace attn::kernels {

void geluTanh(float* x, long count);
void geluTanh(GemmPath path, float* x, long count);

// `out` may be `x`.
void expShifted(const float* x, float shift, float* out, long count);
void expShifted(GemmPath path, const float* x, float shift, float* out, long count);

// `times` may be null (plain SiLU) or `x`.
void silu(float* x, const float* times, long count);
void silu(GemmPath path, float* x, const float* times, long count);

}  // namespace attn::kernels
