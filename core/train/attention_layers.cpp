// SPDX-License-Identifier: GPL-3.0-or-later
// The attention passes of gpt2_layers.h: multi-head attention of queries over keys and values
// that may come from another sequence (cross-attention), causal or not, with padded keys. The
// (sequence, head) pairs run on threads over a fixed partition, each pair on its own slices, so
// the result does not depend on the thread count. The rows go in blocks of kBlock queries: a
// causal block sees only the keys before its end, so its products skip much of the masked half.
#include <algorithm>
#include <cmath>
#include <omp.h>

#include <Eigen/Core>

#include "core/train/gpt2_layers.h"
#include "core/train/layers_internal.h"

namespace attn::gpt2 {

namespace {

using namespace layers_detail;

// Smaller blocks skip more of a causal mask but cost more in per-product overhead at T = 64.
constexpr long kBlock = 32;

// One row of the attention's softmax: p[0..i] = softmax(scale z[0..i]), p[i+1..T) = 0. The
// vectorised version exponentiates whole vector registers (up to `width`, the keys the row's
// block computed): the masked lanes get the row's max first (a harmless exp(0)) and are zeroed
// after, so that no row ends in a scalar tail of exps.
template <typename S>
void softmaxRow(S* p, S* z, long i, long width, long T, S scale)
{
    if constexpr (kVectorised<S>) {
        const long len = std::min(width, (i + kLine<S>) / kLine<S> * kLine<S>);
        Array<S> zs(z, len);
        const S max = zs.head(i + 1).maxCoeff();
        zs.tail(len - i - 1) = max;
        Array<S> e(p, len);
        e = ((zs - max) * scale).exp();
        Array<S>(p + i + 1, T - i - 1).setZero();
        e *= S(1) / e.sum();
    } else {
        const auto zi = ConstArray<S>(z, i + 1) * scale;
        const S max = zi.maxCoeff();
        Array<S> e(p, i + 1);
        e = (zi - max).exp();
        e *= S(1) / e.sum();
        Array<S>(p + i + 1, T - i - 1).setZero();
    }
}

// The softmax's backward on one row, in place: d[0..i] = p (d - p . d) scale over the keys
// j <= i, d[i+1..width) = 0 (masked cells pass nothing back). The vectorised version works on
// whole registers: p is exactly 0 on the masked lanes, so they add nothing to p . d.
template <typename S>
void softmaxBackwardRow(S* d, const S* p, long i, long width, S scale)
{
    const long len = kVectorised<S> ? std::min(width, (i + kLine<S>) / kLine<S> * kLine<S>) : i + 1;
    const ConstArray<S> pi(p, len);
    Array<S> di(d, len);
    const S dot = (pi * di).sum();
    di = pi * (di - dot) * scale;
    Array<S>(d + i + 1, width - i - 1).setZero();
}

// The keys query row i of sequence b may see: [0, last] (last = the row itself when causal,
// capped by the sequence's keys).
struct Keys {
    long count = 0;  // keys of the sequence
    bool causal = false;
    [[nodiscard]] long last(long i) const { return causal ? std::min(i, count - 1) : count - 1; }
    // The keys a block of rows ending before `end` computes scores for.
    [[nodiscard]] long columns(long end) const { return causal ? std::min(end, count) : count; }
};

Keys keysOf(const AttentionDims& d, long b)
{
    return {d.keyLengths != nullptr ? d.keyLengths[b] : d.Tk, d.causal};
}

}  // namespace

template <typename S>
void attentionForward(S* out, S* att, const S* q, const S* k, const S* v, const AttentionDims& d,
                      S* scratch, int threads)
{
    const long hs = d.C / d.H;
    const S scale = S(1) / std::sqrt(static_cast<S>(hs));
    const Eigen::OuterStride<> qStride(d.qStride);
    const Eigen::OuterStride<> kvStride(d.kvStride);
    const Eigen::OuterStride<> outStride(d.C);
    const long Tq = d.Tq, Tk = d.Tk;
#pragma omp parallel for schedule(static) num_threads(threads)
    for (long bh = 0; bh < d.B * d.H; ++bh) {
        const long b = bh / d.H;
        const long h = bh % d.H;
        const Keys keys = keysOf(d, b);
        const ConstStrided<S> qs(q + b * Tq * d.qStride + h * hs, Tq, hs, qStride);
        const ConstStrided<S> ks(k + b * Tk * d.kvStride + h * hs, Tk, hs, kvStride);
        const ConstStrided<S> vs(v + b * Tk * d.kvStride + h * hs, Tk, hs, kvStride);
        Strided<S> y(out + b * Tq * d.C + h * hs, Tq, hs, outStride);
        Map<S> scores(
            scratch + static_cast<std::size_t>(omp_get_thread_num()) * scratchStride<S>(Tq, Tk), Tq,
            Tk);
        Map<S> p(att + bh * Tq * Tk, Tq, Tk);
        for (long i0 = 0; i0 < Tq; i0 += kBlock) {
            const long rows = std::min(kBlock, Tq - i0);
            const long cols = keys.columns(i0 + rows);
            scores.block(i0, 0, rows, cols).noalias() =
                qs.middleRows(i0, rows) * ks.topRows(cols).transpose();
            // Softmax over the keys the row may see; the masked cells get an exact 0.
            for (long i = i0; i < i0 + rows; ++i)
                softmaxRow(p.row(i).data(), scores.row(i).data(), keys.last(i), cols, Tk, scale);
            y.middleRows(i0, rows).noalias() = p.block(i0, 0, rows, cols) * vs.topRows(cols);
        }
    }
}

// The steps of core/train/gradients.h's dot-product head (2-5: through P V, the softmax, the
// constant scale and Q K^T), by the same row blocks. That code works on one AttentionInput and
// allocates its result per head; here every head of every sequence reads and writes its slices
// of the batch's arrays in place.
template <typename S>
void attentionBackward(S* dq, S* dk, S* dv, const S* dout, const S* q, const S* k, const S* v,
                       const S* att, const AttentionDims& d, S* scratch, int threads)
{
    const long hs = d.C / d.H;
    const S scale = S(1) / std::sqrt(static_cast<S>(hs));
    const Eigen::OuterStride<> qStride(d.qStride);
    const Eigen::OuterStride<> kvStride(d.kvStride);
    const Eigen::OuterStride<> outStride(d.C);
    const long Tq = d.Tq, Tk = d.Tk;
#pragma omp parallel for schedule(static) num_threads(threads)
    for (long bh = 0; bh < d.B * d.H; ++bh) {
        const long b = bh / d.H;
        const long h = bh % d.H;
        const Keys keys = keysOf(d, b);
        const long qAt = b * Tq * d.qStride + h * hs;
        const long kvAt = b * Tk * d.kvStride + h * hs;
        const ConstStrided<S> qs(q + qAt, Tq, hs, qStride);
        const ConstStrided<S> ks(k + kvAt, Tk, hs, kvStride);
        const ConstStrided<S> vs(v + kvAt, Tk, hs, kvStride);
        Strided<S> dqs(dq + qAt, Tq, hs, qStride);
        Strided<S> dks(dk + kvAt, Tk, hs, kvStride);
        Strided<S> dvs(dv + kvAt, Tk, hs, kvStride);
        const ConstStrided<S> dy(dout + b * Tq * d.C + h * hs, Tq, hs, outStride);
        const ConstMap<S> p(att + bh * Tq * Tk, Tq, Tk);
        Map<S> g(
            scratch + static_cast<std::size_t>(omp_get_thread_num()) * scratchStride<S>(Tq, Tk), Tq,
            Tk);
        for (long i0 = 0; i0 < Tq; i0 += kBlock) {
            const long rows = std::min(kBlock, Tq - i0);
            const long cols = keys.columns(i0 + rows);
            const auto pBlock = p.block(i0, 0, rows, cols);
            auto gBlock = g.block(i0, 0, rows, cols);
            // out = P V: dP = dout V^T, dV = P^T dout.
            gBlock.noalias() = dy.middleRows(i0, rows) * vs.topRows(cols).transpose();
            dvs.topRows(cols).noalias() += pBlock.transpose() * dy.middleRows(i0, rows);
            // Softmax: dZ = P .* (dP - rowsum(P .* dP)), then the constant scale; in place.
            // Masked cells pass nothing back.
            for (long i = i0; i < i0 + rows; ++i)
                softmaxBackwardRow(g.row(i).data(), p.row(i).data(), keys.last(i), cols, scale);
            // scores = Q K^T: dQ = dZ K, dK = dZ^T Q.
            dqs.middleRows(i0, rows).noalias() += gBlock * ks.topRows(cols);
            dks.topRows(cols).noalias() += gBlock.transpose() * qs.middleRows(i0, rows);
        }
    }
}

template <typename S>
void attentionForward(S* out, S* att, const S* qkv, long B, long T, long C, long H, S* scratch,
                      int threads)
{
    const AttentionDims d{B, T, T, C, H, 3 * C, 3 * C, true, nullptr};
    attentionForward(out, att, qkv, qkv + C, qkv + 2 * C, d, scratch, threads);
}

template <typename S>
void attentionBackward(S* dqkv, const S* dout, const S* qkv, const S* att, long B, long T, long C,
                       long H, S* scratch, int threads)
{
    const AttentionDims d{B, T, T, C, H, 3 * C, 3 * C, true, nullptr};
    attentionBackward(dqkv, dqkv + C, dqkv + 2 * C, dout, qkv, qkv + C, qkv + 2 * C, att, d,
                      scratch, threads);
}

#define ATTNLAB_ATTENTION_LAYERS(S)                                                                \
    template void attentionForward(S*, S*, const S*, const S*, const S*, const AttentionDims&, S*, \
                                   int);                                                           \
    template void attentionBackward(S*, S*, S*, const S*, const S*, const S*, const S*, const S*,  \
                                    const AttentionDims&, S*, int);                                \
    template void attentionForward(S*, S*, const S*, long, long, long, long, S*, int);             \
    template void attentionBackward(S*, const S*, const S*, const S*, long, long, long, long, S*,  \
                                    int);
ATTNLAB_ATTENTION_LAYERS(double)
ATTNLAB_ATTENTION_LAYERS(float)
#undef ATTNLAB_ATTENTION_LAYERS

}  // namespace attn::gpt2
