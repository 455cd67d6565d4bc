// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The translator's two sub-layer kinds, one forward and one backward each, built from GPT-2's
// layer kinds (gpt2_layers.h). Both are post-LN: out = LN(x + f(x)).
//
//   attention   self:  qkv = x Wqkv + b; y = attention(Q, K, V)
//               cross: q = x Wq + b; kv = memory Wkv + b; y = attention(q, K, V from kv)
//               f(x) = y Wo + b
//   ffn         f(x) = act(x W1 + b1) W2 + b2, act SiLU or the tanh GELU
//
// x is the sub-layer's input (the embedded sequence or the previous sub-layer's LayerNorm), dx
// its gradient; the backward functions read the gradient of the sub-layer's LayerNorm output
// from the gradient layout and add into dx (and, for cross-attention, into dmemory).

#include <type_traits>

#include "core/train/gpt2_layers.h"
#include "core/train/marian_train.h"

namespace attn::marian::detail {

// The arrays of one pass in scalar S: parameters P and their gradients G, activations A and
// their gradients D (laid out by `acts` and `grads`), the attention's scratch.
template <typename S>
struct PassArrays {
    const S* P = nullptr;
    S* G = nullptr;
    S* A = nullptr;
    S* D = nullptr;
    S* scratch = nullptr;
    long C = 0;
    long F = 0;
    FfnActivation activation = FfnActivation::Silu;
    int threads = 1;
};

// The dense layers of a pass: float on core/kernels' product, double on Eigen's (the path the
// gradient checks hold to 1e-12).
template <typename S>
void denseForward(const PassArrays<S>& p, S* out, const S* inp, const S* weight, const S* bias,
                  long N, long C, long OC)
{
    if constexpr (std::is_same_v<S, float>)
        gpt2::matmulForwardKernels(out, inp, weight, bias, N, C, OC);
    else
        gpt2::matmulForward(out, inp, weight, bias, N, C, OC, p.threads);
}
template <typename S>
void denseBackward(const PassArrays<S>& p, S* dinp, S* dweight, S* dbias, const S* dout,
                   const S* inp, const S* weight, long N, long C, long OC)
{
    if constexpr (std::is_same_v<S, float>)
        gpt2::matmulBackwardKernels(dinp, dweight, dbias, dout, inp, weight, N, C, OC);
    else
        gpt2::matmulBackward(dinp, dweight, dbias, dout, inp, weight, N, C, OC, p.threads);
}

// memory: null for self-attention; the encoder's output (dims.B * dims.Tk rows) for cross.
template <typename S>
void attentionSublayerForward(const PassArrays<S>& p, const AttentionOffsets& w,
                              const AttentionActs& a, const S* x, gpt2::Optional<const S> memory,
                              const gpt2::AttentionDims& dims);
template <typename S>
void attentionSublayerBackward(const PassArrays<S>& p, const AttentionOffsets& w,
                               const AttentionActs& a, const AttentionActs& da, const S* x, S* dx,
                               gpt2::Optional<const S> memory, gpt2::Optional<S> dmemory,
                               const gpt2::AttentionDims& dims);

// N rows.
template <typename S>
void ffnSublayerForward(const PassArrays<S>& p, const FfnOffsets& w, const FfnActs& a, const S* x,
                        long N);
template <typename S>
void ffnSublayerBackward(const PassArrays<S>& p, const FfnOffsets& w, const FfnActs& a,
                         const FfnActs& da, const S* x, S* dx, long N);

}  // namespace attn::marian::detail
