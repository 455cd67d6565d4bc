// SPDX-License-Identifier: GPL-3.0-or-later
// The dense layers of gpt2_layers.h on core/kernels' run-time kernels (float only). A portable
// build's Eigen multiplies with SSE2; these take the packed AVX-512 or AVX2 product of the CPU
// at hand. The kernels write their result, so what the layers add (the gradients, which
// collect several contributions) goes through a scratch of this thread first.
#include <algorithm>
#include <vector>

#include <Eigen/Core>

#include "core/kernels/gemm.h"
#include "core/train/gpt2_layers.h"
#include "core/train/layers_internal.h"

namespace attn::gpt2 {

namespace {

using namespace layers_detail;

// A scratch of at least n floats, kept per thread between calls.
float* denseScratch(int which, std::size_t n)
{
    thread_local std::vector<float> buffers[2];
    std::vector<float>& b = buffers[which];
    if (b.size() < n) b.resize(n);
    return b.data();
}

}  // namespace

void matmulForwardKernels(float* out, const float* inp, const float* weight, const float* bias,
                          long N, long C, long OC)
{
    kernels::sgemm(N, C, OC, inp, C, weight, OC, false, bias, out, OC);
}

void matmulBackwardKernels(float* dinp, float* dweight, float* dbias, const float* dout,
                           const float* inp, const float* weight, long N, long C, long OC)
{
    // dinp += dout W^T: W [C, OC] is the transposed operand's [m, k].
    float* product = denseScratch(0, static_cast<std::size_t>(N * std::max(C, OC) + C * OC));
    kernels::sgemm(N, OC, C, dout, OC, weight, OC, true, nullptr, product, C);
    Array<float>(dinp, N * C) += ConstArray<float>(product, N * C);
    // dW += inp^T dout, with inp^T made row-major first.
    float* transposed = denseScratch(1, static_cast<std::size_t>(C * N));
    Map<float>(transposed, C, N).noalias() = ConstMap<float>(inp, N, C).transpose();
    kernels::sgemm(C, N, OC, transposed, N, dout, OC, false, nullptr, product, OC);
    Array<float>(dweight, C * OC) += ConstArray<float>(product, C * OC);
    if (dbias != nullptr) Row<float>(dbias, OC) += ConstMap<float>(dout, N, OC).colwise().sum();
}

}  // namespace attn::gpt2
