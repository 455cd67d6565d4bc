// SPDX-License-Identifier: GPL-3.0-or-later
// The translator's sub-layers (marian_layers.h): GPT-2's layer kinds called in Marian's order.
#include "core/train/marian_layers.h"

namespace attn::marian::detail {

using namespace gpt2;

template <typename S>
void attentionSublayerForward(const PassArrays<S>& p, const AttentionOffsets& w,
                              const AttentionActs& a, const S* x, gpt2::Optional<const S> memory,
                              const AttentionDims& dims)
{
    const long C = p.C;
    const long Nq = dims.B * dims.Tq;
    S* A = p.A;
    const S* q = A + a.q;
    const S* k = q + C;
    if (memory == nullptr) {
        denseForward(p, A + a.q, x, p.P + w.qw, p.P + w.qb, Nq, C, 3 * C);
    } else {
        denseForward(p, A + a.q, x, p.P + w.qw, p.P + w.qb, Nq, C, C);
        denseForward(p, A + a.kv, memory, p.P + w.kvw, p.P + w.kvb, dims.B * dims.Tk, C, 2 * C);
        k = A + a.kv;
    }
    attentionForward(A + a.atty, A + a.att, q, k, k + C, dims, p.scratch, p.threads);
    denseForward(p, A + a.proj, A + a.atty, p.P + w.ow, p.P + w.ob, Nq, C, C);
    residualForward(A + a.res, x, A + a.proj, Nq * C);
    layernormForward(A + a.ln, A + a.mean, A + a.rstd, A + a.res, p.P + w.lnw, p.P + w.lnb, Nq, C);
}

template <typename S>
void attentionSublayerBackward(const PassArrays<S>& p, const AttentionOffsets& w,
                               const AttentionActs& a, const AttentionActs& da, const S* x, S* dx,
                               gpt2::Optional<const S> memory, gpt2::Optional<S> dmemory,
                               const AttentionDims& dims)
{
    const long C = p.C;
    const long Nq = dims.B * dims.Tq;
    const S* A = p.A;
    S* D = p.D;
    layernormBackward(D + da.res, p.G + w.lnw, p.G + w.lnb, D + da.ln, A + a.res, p.P + w.lnw,
                      A + a.mean, A + a.rstd, Nq, C);
    residualBackward(dx, D + da.proj, D + da.res, Nq * C);
    denseBackward(p, D + da.atty, p.G + w.ow, p.G + w.ob, D + da.proj, A + a.atty, p.P + w.ow, Nq,
                  C, C);
    const S* q = A + a.q;
    if (memory == nullptr) {
        attentionBackward(D + da.q, D + da.q + C, D + da.q + 2 * C, D + da.atty, q, q + C,
                          q + 2 * C, A + a.att, dims, p.scratch, p.threads);
        denseBackward(p, dx, p.G + w.qw, p.G + w.qb, D + da.q, x, p.P + w.qw, Nq, C, 3 * C);
        return;
    }
    const S* kv = A + a.kv;
    attentionBackward(D + da.q, D + da.kv, D + da.kv + C, D + da.atty, q, kv, kv + C, A + a.att,
                      dims, p.scratch, p.threads);
    denseBackward(p, dx, p.G + w.qw, p.G + w.qb, D + da.q, x, p.P + w.qw, Nq, C, C);
    denseBackward(p, dmemory, p.G + w.kvw, p.G + w.kvb, D + da.kv, memory, p.P + w.kvw,
                  dims.B * dims.Tk, C, 2 * C);
}

template <typename S>
void ffnSublayerForward(const PassArrays<S>& p, const FfnOffsets& w, const FfnActs& a, const S* x,
                        long N)
{
    const long C = p.C;
    const long F = p.F;
    S* A = p.A;
    denseForward(p, A + a.fc1, x, p.P + w.fc1w, p.P + w.fc1b, N, C, F);
    if (p.activation == FfnActivation::Silu)
        siluForward(A + a.act, A + a.fc1, N * F);
    else
        geluForward(A + a.act, A + a.fc1, N * F);
    denseForward(p, A + a.fc2, A + a.act, p.P + w.fc2w, p.P + w.fc2b, N, F, C);
    residualForward(A + a.res, x, A + a.fc2, N * C);
    layernormForward(A + a.ln, A + a.mean, A + a.rstd, A + a.res, p.P + w.lnw, p.P + w.lnb, N, C);
}

template <typename S>
void ffnSublayerBackward(const PassArrays<S>& p, const FfnOffsets& w, const FfnActs& a,
                         const FfnActs& da, const S* x, S* dx, long N)
{
    const long C = p.C;
    const long F = p.F;
    const S* A = p.A;
    S* D = p.D;
    layernormBackward(D + da.res, p.G + w.lnw, p.G + w.lnb, D + da.ln, A + a.res, p.P + w.lnw,
                      A + a.mean, A + a.rstd, N, C);
    residualBackward(dx, D + da.fc2, D + da.res, N * C);
    denseBackward(p, D + da.act, p.G + w.fc2w, p.G + w.fc2b, D + da.fc2, A + a.act, p.P + w.fc2w, N,
                  F, C);
    if (p.activation == FfnActivation::Silu)
        siluBackward(D + da.fc1, A + a.fc1, D + da.act, N * F);
    else
        geluBackward(D + da.fc1, A + a.fc1, D + da.act, N * F);
    denseBackward(p, dx, p.G + w.fc1w, p.G + w.fc1b, D + da.fc1, x, p.P + w.fc1w, N, C, F);
}

#define ATTNLAB_MARIAN_LAYERS(S)                                                                   \
    template void attentionSublayerForward(const PassArrays<S>&, const AttentionOffsets&,          \
                                           const AttentionActs&, const S*, Optional<const S>,      \
                                           const AttentionDims&);                                  \
    template void attentionSublayerBackward(                                                       \
        const PassArrays<S>&, const AttentionOffsets&, const AttentionActs&, const AttentionActs&, \
        const S*, S*, Optional<const S>, Optional<S>, const AttentionDims&);                       \
    template void ffnSublayerForward(const PassArrays<S>&, const FfnOffsets&, const FfnActs&,      \
                                     const S*, long);                                              \
    template void ffnSublayerBackward(const PassArrays<S>&, const FfnOffsets&, const FfnActs&,     \
                                      const FfnActs&, const S*, S*, long);
ATTNLAB_MARIAN_LAYERS(double)
ATTNLAB_MARIAN_LAYERS(float)
#undef ATTNLAB_MARIAN_LAYERS

}  // namespace attn::marian::detail
