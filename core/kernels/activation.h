// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// GPT-2's activation, gelu_new: x <- 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))), in place,
// on the kernel path chosen at run time (gemm.h): AVX2 + FMA where the CPU has them, Eigen's
// vectorised tanh for the build's instruction set otherwise. Both evaluate tanh by the same
// rational approximation (Eigen's), so the two paths agree to a few ulp.

#include "core/kernels/gemm.h"

namespace attn::kernels {

void geluTanh(float* x, long count);
void geluTanh(GemmPath path, float* x, long count);

}  // namespace attn::kernels
