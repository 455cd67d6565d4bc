// SPDX-License-Identifier: GPL-3.0-or-later
// GPT-2's layer kinds, forward and backward (gpt2_layers.h). The products are Eigen's on maps
// of the caller's arrays: single-threaded (EIGEN_DONT_PARALLELIZE) and so the same sums in the
// same order on every run. The attention passes split the (sequence, head) pairs over threads,
// each pair on its own slices, which keeps them deterministic too.
//
// Float has vectorised versions of the element-wise and per-row loops (LayerNorm, the
// attention's softmax, gelu): their sums run in Eigen's order rather than left to right, and
// gelu uses Eigen's vectorised tanh. The double versions keep their scalar loops, so that the
// double path computes what it always did, bit for bit (the recorded runs and reference tests).
#include "core/train/gpt2_layers.h"

#include <algorithm>
#include <cmath>
#include <omp.h>
#include <type_traits>

#include <Eigen/Core>

#include "core/train/layers_internal.h"

namespace attn::gpt2 {

namespace {

using namespace layers_detail;

// sqrt(2 / pi), the constant of the tanh approximation.
constexpr double kGeluScale = 0.7978845608028654;
constexpr double kGeluCubic = 0.044715;
// The dense layers split their products into this many parts, whatever the thread count: the
// parts, and so every sum, are the same on one thread or many.
constexpr long kParts = 4;

struct Part {
    long begin = 0;
    long count = 0;
};

// Part k of n rows (or columns), in steps of 8 so that every part starts 64-byte aligned.
Part part(long n, long k)
{
    const long step = ((n + kParts - 1) / kParts + 7) / 8 * 8;
    const long begin = std::min(n, k * step);
    return {begin, std::min(n, begin + step) - begin};
}

void layernormForwardVectorised(float* out, float* mean, float* rstd, const float* inp,
                                const float* weight, const float* bias, long N, long C)
{
    const ConstArray<float> w(weight, C);
    const ConstArray<float> b(bias, C);
    const auto inverseC = 1.0F / static_cast<float>(C);
    for (long n = 0; n < N; ++n) {
        const ConstArray<float> x(inp + n * C, C);
        const float m = x.sum() * inverseC;
        const float v = (x - m).square().sum() * inverseC;
        const float s = 1.0F / std::sqrt(v + static_cast<float>(kLayerNormEps));
        Array<float>(out + n * C, C) = (x - m) * s * w + b;
        mean[n] = m;
        rstd[n] = s;
    }
}

void layernormBackwardVectorised(float* dinp, float* dweight, float* dbias, const float* dout,
                                 const float* inp, const float* weight, const float* mean,
                                 const float* rstd, long N, long C)
{
    const ConstArray<float> w(weight, C);
    Array<float> dw(dweight, C);
    Array<float> db(dbias, C);
    const auto inverseC = 1.0F / static_cast<float>(C);
    for (long n = 0; n < N; ++n) {
        const ConstArray<float> d(dout + n * C, C);
        const float s = rstd[n];
        const auto xhat = (ConstArray<float>(inp + n * C, C) - mean[n]) * s;
        const auto dxhat = d * w;
        // As in the scalar version: dx = rstd (dxhat - mean(dxhat) - xhat mean(dxhat xhat)).
        const float dnormMean = dxhat.sum() * inverseC;
        const float dnormNormMean = (dxhat * xhat).sum() * inverseC;
        db += d;
        dw += xhat * d;
        Array<float>(dinp + n * C, C) += s * (dxhat - dnormMean - xhat * dnormNormMean);
    }
}

}  // namespace

template <typename S>
void encoderForward(S* out, const int* tokens, const S* wte, const S* wpe, long B, long T, long C,
                    std::type_identity_t<S> scale)
{
    for (long b = 0; b < B; ++b) {
        for (long t = 0; t < T; ++t) {
            const long n = b * T + t;
            const S* w = wte + static_cast<long>(tokens[n]) * C;
            const S* p = wpe + t * C;
            S* o = out + n * C;
            for (long c = 0; c < C; ++c) o[c] = w[c] * scale + p[c];
        }
    }
}

template <typename S>
void encoderBackward(S* dwte, Optional<S> dwpe, const S* dout, const int* tokens, long B, long T,
                     long C, std::type_identity_t<S> scale)
{
    for (long b = 0; b < B; ++b) {
        for (long t = 0; t < T; ++t) {
            const long n = b * T + t;
            S* dw = dwte + static_cast<long>(tokens[n]) * C;
            const S* d = dout + n * C;
            for (long c = 0; c < C; ++c) dw[c] += d[c] * scale;
            if (dwpe == nullptr) continue;
            S* dp = dwpe + t * C;
            for (long c = 0; c < C; ++c) dp[c] += d[c];
        }
    }
}

template <typename S>
void layernormForward(S* out, S* mean, S* rstd, const S* inp, const S* weight, const S* bias,
                      long N, long C)
{
    if constexpr (kVectorised<S>) {
        layernormForwardVectorised(out, mean, rstd, inp, weight, bias, N, C);
        return;
    }
    const S eps = static_cast<S>(kLayerNormEps);
    for (long n = 0; n < N; ++n) {
        const S* x = inp + n * C;
        S m = 0;
        for (long c = 0; c < C; ++c) m += x[c];
        m /= static_cast<S>(C);
        S v = 0;
        for (long c = 0; c < C; ++c) v += (x[c] - m) * (x[c] - m);
        v /= static_cast<S>(C);
        const S s = S(1) / std::sqrt(v + eps);
        S* o = out + n * C;
        for (long c = 0; c < C; ++c) o[c] = (x[c] - m) * s * weight[c] + bias[c];
        mean[n] = m;
        rstd[n] = s;
    }
}

template <typename S>
void layernormBackward(S* dinp, S* dweight, S* dbias, const S* dout, const S* inp, const S* weight,
                       const S* mean, const S* rstd, long N, long C)
{
    if constexpr (kVectorised<S>) {
        layernormBackwardVectorised(dinp, dweight, dbias, dout, inp, weight, mean, rstd, N, C);
        return;
    }
    for (long n = 0; n < N; ++n) {
        const S* x = inp + n * C;
        const S* d = dout + n * C;
        const S m = mean[n];
        const S s = rstd[n];
        // With xhat = (x - mean) rstd and dxhat = dout * weight:
        // dx = rstd (dxhat - mean(dxhat) - xhat mean(dxhat xhat)).
        S dnormMean = 0;
        S dnormNormMean = 0;
        for (long c = 0; c < C; ++c) {
            const S xhat = (x[c] - m) * s;
            const S dxhat = d[c] * weight[c];
            dnormMean += dxhat;
            dnormNormMean += dxhat * xhat;
        }
        dnormMean /= static_cast<S>(C);
        dnormNormMean /= static_cast<S>(C);
        S* dx = dinp + n * C;
        for (long c = 0; c < C; ++c) {
            const S xhat = (x[c] - m) * s;
            const S dxhat = d[c] * weight[c];
            dbias[c] += d[c];
            dweight[c] += xhat * d[c];
            dx[c] += s * (dxhat - dnormMean - xhat * dnormNormMean);
        }
    }
}

template <typename S>
void matmulForward(S* out, const S* inp, const S* weight, Optional<const S> bias, long N, long C,
                   long OC, int threads)
{
    const ConstMap<S> w(weight, C, OC);
#pragma omp parallel for schedule(static) num_threads(threads)
    for (long k = 0; k < kParts; ++k) {
        const Part rows = part(N, k);
        if (rows.count == 0) continue;
        Map<S> y(out + rows.begin * OC, rows.count, OC);
        y.noalias() = ConstMap<S>(inp + rows.begin * C, rows.count, C) * w;
        if (bias != nullptr) y.rowwise() += ConstRow<S>(bias, OC);
    }
}

template <typename S>
void matmulBackward(S* dinp, S* dweight, Optional<S> dbias, const S* dout, const S* inp,
                    const S* weight, long N, long C, long OC, int threads)
{
    const ConstMap<S> dy(dout, N, OC);
    const ConstMap<S> x(inp, N, C);
    // Parts 0..kParts-1: row blocks of dinp; then column blocks of dweight and dbias (each a
    // whole sum over the N rows).
#pragma omp parallel for schedule(static) num_threads(threads)
    for (long k = 0; k < 2 * kParts; ++k) {
        if (k < kParts) {
            const Part rows = part(N, k);
            if (rows.count == 0) continue;
            Map<S>(dinp + rows.begin * C, rows.count, C).noalias() +=
                dy.middleRows(rows.begin, rows.count) * ConstMap<S>(weight, C, OC).transpose();
        } else {
            const Part cols = part(OC, k - kParts);
            if (cols.count == 0) continue;
            const auto dyCols = dy.middleCols(cols.begin, cols.count);
            Map<S>(dweight, C, OC).middleCols(cols.begin, cols.count).noalias() +=
                x.transpose() * dyCols;
            if (dbias != nullptr) Row<S>(dbias + cols.begin, cols.count) += dyCols.colwise().sum();
        }
    }
}

template <typename S>
void geluForward(S* out, const S* inp, long count)
{
    if constexpr (kVectorised<S>) {
        const ConstArray<S> x(inp, count);
        Array<S>(out, count) =
            S(0.5) * x * (S(1) + (S(kGeluScale) * (x + S(kGeluCubic) * x.cube())).tanh());
        return;
    }
    const S scale = static_cast<S>(kGeluScale);
    const S cubic = static_cast<S>(kGeluCubic);
    for (long i = 0; i < count; ++i) {
        const S x = inp[i];
        out[i] = S(0.5) * x * (S(1) + std::tanh(scale * (x + cubic * x * x * x)));
    }
}

template <typename S>
void geluBackward(S* dinp, const S* inp, const S* dout, long count)
{
    if constexpr (kVectorised<S>) {
        const ConstArray<S> x(inp, count);
        const auto t = (S(kGeluScale) * (x + S(kGeluCubic) * x.cube())).tanh();
        const auto dt =
            (S(1) - t.square()) * S(kGeluScale) * (S(1) + S(3 * kGeluCubic) * x.square());
        Array<S>(dinp, count) +=
            (S(0.5) * (S(1) + t) + S(0.5) * x * dt) * ConstArray<S>(dout, count);
        return;
    }
    const S scale = static_cast<S>(kGeluScale);
    const S cubic = static_cast<S>(kGeluCubic);
    for (long i = 0; i < count; ++i) {
        const S x = inp[i];
        const S t = std::tanh(scale * (x + cubic * x * x * x));
        const S dt = (S(1) - t * t) * scale * (S(1) + S(3) * cubic * x * x);
        dinp[i] += (S(0.5) * (S(1) + t) + S(0.5) * x * dt) * dout[i];
    }
}

template <typename S>
void siluForward(S* out, const S* inp, long count)
{
    const ConstArray<S> x(inp, count);
    Array<S>(out, count) = x / (S(1) + (-x).exp());
}

template <typename S>
void siluBackward(S* dinp, const S* inp, const S* dout, long count)
{
    const ConstArray<S> x(inp, count);
    const auto sigmoid = S(1) / (S(1) + (-x).exp());
    Array<S>(dinp, count) += sigmoid * (S(1) + x * (S(1) - sigmoid)) * ConstArray<S>(dout, count);
}

template <typename S>
void residualForward(S* out, const S* a, const S* b, long count)
{
    for (long i = 0; i < count; ++i) out[i] = a[i] + b[i];
}

template <typename S>
void residualBackward(S* da, S* db, const S* dout, long count)
{
    for (long i = 0; i < count; ++i) {
        da[i] += dout[i];
        db[i] += dout[i];
    }
}

template <typename S>
void unembedForward(S* logits, const S* inp, const S* wte, long N, long C, long V,
                    Optional<const S> bias)
{
    Map<S> z(logits, N, V);
    z.noalias() = ConstMap<S>(inp, N, C) * ConstMap<S>(wte, V, C).transpose();
    if (bias != nullptr) z.rowwise() += ConstRow<S>(bias, V);
}

template <typename S>
void unembedBackward(S* dinp, S* dwte, const S* dlogits, const S* inp, const S* wte, long N, long C,
                     long V, Optional<S> dbias)
{
    const ConstMap<S> dy(dlogits, N, V);
    Map<S>(dinp, N, C).noalias() += dy * ConstMap<S>(wte, V, C);
    Map<S>(dwte, V, C).noalias() += dy.transpose() * ConstMap<S>(inp, N, C);
    if (dbias != nullptr) Row<S>(dbias, V) += dy.colwise().sum();
}

template <typename S>
double crossEntropyForward(S* probs, const S* logits, const int* targets, long N, long V)
{
    double total = 0.0;
    long counted = 0;
    for (long n = 0; n < N; ++n) {
        const ConstRow<S> z(logits + n * V, V);
        auto p = Row<S>(probs + n * V, V).array();
        const S max = z.maxCoeff();
        p = (z.array() - max).exp();
        const S sum = p.sum();
        p *= S(1) / sum;
        if (targets[n] < 0) continue;
        ++counted;
        // -log softmax(z)[target], as log-sum-exp: no log of a probability that underflowed.
        total += std::log(static_cast<double>(sum)) + static_cast<double>(max) -
                 static_cast<double>(z[targets[n]]);
    }
    return counted == 0 ? 0.0 : total / static_cast<double>(counted);
}

template <typename S>
void crossEntropyBackward(S* dlogits, const S* probs, const int* targets, long N, long V)
{
    const long counted = std::count_if(targets, targets + N, [](int t) { return t >= 0; });
    const S inv = counted == 0 ? S(0) : S(1) / static_cast<S>(counted);
    for (long n = 0; n < N; ++n) {
        const S* p = probs + n * V;
        S* d = dlogits + n * V;
        if (targets[n] < 0) {
            std::fill(d, d + V, S(0));
            continue;
        }
        for (long v = 0; v < V; ++v) d[v] = p[v] * inv;
        d[targets[n]] -= inv;
    }
}

// The two scalar types the trainer runs in.
#define ATTNLAB_GPT2_LAYERS(S)                                                                     \
    template void encoderForward(S*, const int*, const S*, const S*, long, long, long, S);         \
    template void encoderBackward(S*, Optional<S>, const S*, const int*, long, long, long, S);     \
    template void layernormForward(S*, S*, S*, const S*, const S*, const S*, long, long);          \
    template void layernormBackward(S*, S*, S*, const S*, const S*, const S*, const S*, const S*,  \
                                    long, long);                                                   \
    template void matmulForward(S*, const S*, const S*, Optional<const S>, long, long, long, int); \
    template void matmulBackward(S*, S*, Optional<S>, const S*, const S*, const S*, long, long,    \
                                 long, int);                                                       \
    template void geluForward(S*, const S*, long);                                                 \
    template void geluBackward(S*, const S*, const S*, long);                                      \
    template void siluForward(S*, const S*, long);                                                 \
    template void siluBackward(S*, const S*, const S*, long);                                      \
    template void residualForward(S*, const S*, const S*, long);                                   \
    template void residualBackward(S*, S*, const S*, long);                                        \
    template void unembedForward(S*, const S*, const S*, long, long, long, Optional<const S>);     \
    template void unembedBackward(S*, S*, const S*, const S*, const S*, long, long, long,          \
                                  Optional<S>);                                                    \
    template double crossEntropyForward(S*, const S*, const int*, long, long);                     \
    template void crossEntropyBackward(S*, const S*, const int*, long, long);
ATTNLAB_GPT2_LAYERS(double)
ATTNLAB_GPT2_LAYERS(float)
#undef ATTNLAB_GPT2_LAYERS

}  // namespace attn::gpt2
