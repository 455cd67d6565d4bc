// SPDX-License-Identifier: GPL-3.0-or-later
// GPT-2's layer kinds, forward and backward (gpt2_layers.h). The products are Eigen's on maps
// of the caller's arrays: single-threaded (EIGEN_DONT_PARALLELIZE) and so the same sums in the
// same order on every run. The attention passes split the (sequence, head) pairs over threads,
// each pair on its own slices, which keeps them deterministic too.
#include "core/train/gpt2_layers.h"

#include <algorithm>
#include <cmath>
#include <omp.h>

#include <Eigen/Core>

namespace attn::gpt2 {

namespace {

using RowMat = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using Map = Eigen::Map<RowMat>;
using ConstMap = Eigen::Map<const RowMat>;
using Strided = Eigen::Map<RowMat, 0, Eigen::OuterStride<>>;
using ConstStrided = Eigen::Map<const RowMat, 0, Eigen::OuterStride<>>;
using ConstRow = Eigen::Map<const Eigen::RowVectorXd>;
using Row = Eigen::Map<Eigen::RowVectorXd>;

// sqrt(2 / pi), the constant of the tanh approximation.
constexpr double kGeluScale = 0.7978845608028654;
constexpr double kGeluCubic = 0.044715;
// Attention works on blocks of this many query rows: the rows [i0, i0 + 32) see only the keys
// before i0 + 32, so the products skip much of the masked half of the scores (smaller blocks
// skip more but cost more in per-product overhead at T = 64).
constexpr long kCausalBlock = 32;

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

}  // namespace

void encoderForward(double* out, const int* tokens, const double* wte, const double* wpe, long B,
                    long T, long C)
{
    for (long b = 0; b < B; ++b) {
        for (long t = 0; t < T; ++t) {
            const long n = b * T + t;
            const double* w = wte + static_cast<long>(tokens[n]) * C;
            const double* p = wpe + t * C;
            double* o = out + n * C;
            for (long c = 0; c < C; ++c) o[c] = w[c] + p[c];
        }
    }
}

void encoderBackward(double* dwte, double* dwpe, const double* dout, const int* tokens, long B,
                     long T, long C)
{
    for (long b = 0; b < B; ++b) {
        for (long t = 0; t < T; ++t) {
            const long n = b * T + t;
            double* dw = dwte + static_cast<long>(tokens[n]) * C;
            double* dp = dwpe + t * C;
            const double* d = dout + n * C;
            for (long c = 0; c < C; ++c) {
                dw[c] += d[c];
                dp[c] += d[c];
            }
        }
    }
}

void layernormForward(double* out, double* mean, double* rstd, const double* inp,
                      const double* weight, const double* bias, long N, long C)
{
    for (long n = 0; n < N; ++n) {
        const double* x = inp + n * C;
        double m = 0.0;
        for (long c = 0; c < C; ++c) m += x[c];
        m /= static_cast<double>(C);
        double v = 0.0;
        for (long c = 0; c < C; ++c) v += (x[c] - m) * (x[c] - m);
        v /= static_cast<double>(C);
        const double s = 1.0 / std::sqrt(v + kLayerNormEps);
        double* o = out + n * C;
        for (long c = 0; c < C; ++c) o[c] = (x[c] - m) * s * weight[c] + bias[c];
        mean[n] = m;
        rstd[n] = s;
    }
}

void layernormBackward(double* dinp, double* dweight, double* dbias, const double* dout,
                       const double* inp, const double* weight, const double* mean,
                       const double* rstd, long N, long C)
{
    for (long n = 0; n < N; ++n) {
        const double* x = inp + n * C;
        const double* d = dout + n * C;
        const double m = mean[n];
        const double s = rstd[n];
        // With xhat = (x - mean) rstd and dxhat = dout * weight:
        // dx = rstd (dxhat - mean(dxhat) - xhat mean(dxhat xhat)).
        double dnormMean = 0.0;
        double dnormNormMean = 0.0;
        for (long c = 0; c < C; ++c) {
            const double xhat = (x[c] - m) * s;
            const double dxhat = d[c] * weight[c];
            dnormMean += dxhat;
            dnormNormMean += dxhat * xhat;
        }
        dnormMean /= static_cast<double>(C);
        dnormNormMean /= static_cast<double>(C);
        double* dx = dinp + n * C;
        for (long c = 0; c < C; ++c) {
            const double xhat = (x[c] - m) * s;
            const double dxhat = d[c] * weight[c];
            dbias[c] += d[c];
            dweight[c] += xhat * d[c];
            dx[c] += s * (dxhat - dnormMean - xhat * dnormNormMean);
        }
    }
}

void matmulForward(double* out, const double* inp, const double* weight, const double* bias, long N,
                   long C, long OC, int threads)
{
    const ConstMap w(weight, C, OC);
#pragma omp parallel for schedule(static) num_threads(threads)
    for (long k = 0; k < kParts; ++k) {
        const Part rows = part(N, k);
        if (rows.count == 0) continue;
        Map y(out + rows.begin * OC, rows.count, OC);
        y.noalias() = ConstMap(inp + rows.begin * C, rows.count, C) * w;
        if (bias != nullptr) y.rowwise() += ConstRow(bias, OC);
    }
}

void matmulBackward(double* dinp, double* dweight, double* dbias, const double* dout,
                    const double* inp, const double* weight, long N, long C, long OC, int threads)
{
    const ConstMap dy(dout, N, OC);
    const ConstMap x(inp, N, C);
    // Parts 0..kParts-1: row blocks of dinp; then column blocks of dweight and dbias (each a
    // whole sum over the N rows).
#pragma omp parallel for schedule(static) num_threads(threads)
    for (long k = 0; k < 2 * kParts; ++k) {
        if (k < kParts) {
            const Part rows = part(N, k);
            if (rows.count == 0) continue;
            Map(dinp + rows.begin * C, rows.count, C).noalias() +=
                dy.middleRows(rows.begin, rows.count) * ConstMap(weight, C, OC).transpose();
        } else {
            const Part cols = part(OC, k - kParts);
            if (cols.count == 0) continue;
            const auto dyCols = dy.middleCols(cols.begin, cols.count);
            Map(dweight, C, OC).middleCols(cols.begin, cols.count).noalias() +=
                x.transpose() * dyCols;
            if (dbias != nullptr) Row(dbias + cols.begin, cols.count) += dyCols.colwise().sum();
        }
    }
}

void attentionForward(double* out, double* att, const double* qkv, long B, long T, long C, long H,
                      double* scratch, int threads)
{
    const long hs = C / H;
    const double scale = 1.0 / std::sqrt(static_cast<double>(hs));
    const Eigen::OuterStride<> qkvStride(3 * C);
    const Eigen::OuterStride<> outStride(C);
#pragma omp parallel for schedule(static) num_threads(threads)
    for (long bh = 0; bh < B * H; ++bh) {
        const long b = bh / H;
        const long h = bh % H;
        const double* base = qkv + b * T * 3 * C + h * hs;
        const ConstStrided q(base, T, hs, qkvStride);
        const ConstStrided k(base + C, T, hs, qkvStride);
        const ConstStrided v(base + 2 * C, T, hs, qkvStride);
        Strided y(out + b * T * C + h * hs, T, hs, outStride);
        Map scores(scratch + static_cast<std::size_t>(omp_get_thread_num()) * scratchStride(T), T,
                   T);
        Map p(att + bh * T * T, T, T);
        for (long i0 = 0; i0 < T; i0 += kCausalBlock) {
            const long rows = std::min(kCausalBlock, T - i0);
            const long cols = i0 + rows;  // the keys these rows may see
            scores.block(i0, 0, rows, cols).noalias() =
                q.middleRows(i0, rows) * k.topRows(cols).transpose();
            for (long i = i0; i < cols; ++i) {
                // Softmax over the keys j <= i; the masked cells get an exact 0.
                const auto z = scores.row(i).head(i + 1).array() * scale;
                const double max = z.maxCoeff();
                auto e = p.row(i).head(i + 1).array();
                e = (z - max).exp();
                e *= 1.0 / e.sum();
                p.row(i).tail(T - i - 1).setZero();
            }
            y.middleRows(i0, rows).noalias() = p.block(i0, 0, rows, cols) * v.topRows(cols);
        }
    }
}

// The steps of core/train/gradients.h's dot-product head (2-5: through P V, the softmax, the
// constant scale and Q K^T), by the same causal row blocks. That code works on one
// AttentionInput and allocates its result per head; here every head of every sequence reads and
// writes its slices of the batch's arrays in place.
void attentionBackward(double* dqkv, const double* dout, const double* qkv, const double* att,
                       long B, long T, long C, long H, double* scratch, int threads)
{
    const long hs = C / H;
    const double scale = 1.0 / std::sqrt(static_cast<double>(hs));
    const Eigen::OuterStride<> qkvStride(3 * C);
    const Eigen::OuterStride<> outStride(C);
#pragma omp parallel for schedule(static) num_threads(threads)
    for (long bh = 0; bh < B * H; ++bh) {
        const long b = bh / H;
        const long h = bh % H;
        const double* base = qkv + b * T * 3 * C + h * hs;
        double* dbase = dqkv + b * T * 3 * C + h * hs;
        const ConstStrided q(base, T, hs, qkvStride);
        const ConstStrided k(base + C, T, hs, qkvStride);
        const ConstStrided v(base + 2 * C, T, hs, qkvStride);
        Strided dq(dbase, T, hs, qkvStride);
        Strided dk(dbase + C, T, hs, qkvStride);
        Strided dv(dbase + 2 * C, T, hs, qkvStride);
        const ConstStrided dy(dout + b * T * C + h * hs, T, hs, outStride);
        const ConstMap p(att + bh * T * T, T, T);
        Map d(scratch + static_cast<std::size_t>(omp_get_thread_num()) * scratchStride(T), T, T);
        for (long i0 = 0; i0 < T; i0 += kCausalBlock) {
            const long rows = std::min(kCausalBlock, T - i0);
            const long cols = i0 + rows;
            const auto pBlock = p.block(i0, 0, rows, cols);
            auto dBlock = d.block(i0, 0, rows, cols);
            // out = P V: dP = dout V^T, dV = P^T dout.
            dBlock.noalias() = dy.middleRows(i0, rows) * v.topRows(cols).transpose();
            dv.topRows(cols).noalias() += pBlock.transpose() * dy.middleRows(i0, rows);
            // Softmax: dZ = P .* (dP - rowsum(P .* dP)), then the constant scale; in place.
            // Masked cells pass nothing back.
            for (long i = i0; i < cols; ++i) {
                const auto pi = p.row(i).head(i + 1).array();
                auto di = d.row(i).head(i + 1).array();
                const double dot = (pi * di).sum();
                di = pi * (di - dot) * scale;
                d.row(i).segment(i + 1, cols - i - 1).setZero();
            }
            // scores = Q K^T: dQ = dZ K, dK = dZ^T Q.
            dq.middleRows(i0, rows).noalias() += dBlock * k.topRows(cols);
            dk.topRows(cols).noalias() += dBlock.transpose() * q.middleRows(i0, rows);
        }
    }
}

void geluForward(double* out, const double* inp, long count)
{
    for (long i = 0; i < count; ++i) {
        const double x = inp[i];
        out[i] = 0.5 * x * (1.0 + std::tanh(kGeluScale * (x + kGeluCubic * x * x * x)));
    }
}

void geluBackward(double* dinp, const double* inp, const double* dout, long count)
{
    for (long i = 0; i < count; ++i) {
        const double x = inp[i];
        const double t = std::tanh(kGeluScale * (x + kGeluCubic * x * x * x));
        const double dt = (1.0 - t * t) * kGeluScale * (1.0 + 3.0 * kGeluCubic * x * x);
        dinp[i] += (0.5 * (1.0 + t) + 0.5 * x * dt) * dout[i];
    }
}

void residualForward(double* out, const double* a, const double* b, long count)
{
    for (long i = 0; i < count; ++i) out[i] = a[i] + b[i];
}

void residualBackward(double* da, double* db, const double* dout, long count)
{
    for (long i = 0; i < count; ++i) {
        da[i] += dout[i];
        db[i] += dout[i];
    }
}

void unembedForward(double* logits, const double* inp, const double* wte, long N, long C, long V)
{
    Map(logits, N, V).noalias() = ConstMap(inp, N, C) * ConstMap(wte, V, C).transpose();
}

void unembedBackward(double* dinp, double* dwte, const double* dlogits, const double* inp,
                     const double* wte, long N, long C, long V)
{
    const ConstMap dy(dlogits, N, V);
    Map(dinp, N, C).noalias() += dy * ConstMap(wte, V, C);
    Map(dwte, V, C).noalias() += dy.transpose() * ConstMap(inp, N, C);
}

double crossEntropyForward(double* probs, const double* logits, const int* targets, long N, long V)
{
    double total = 0.0;
    for (long n = 0; n < N; ++n) {
        const ConstRow z(logits + n * V, V);
        auto p = Row(probs + n * V, V).array();
        const double max = z.maxCoeff();
        p = (z.array() - max).exp();
        const double sum = p.sum();
        p *= 1.0 / sum;
        // -log softmax(z)[target], as log-sum-exp: no log of a probability that underflowed.
        total += std::log(sum) + max - z[targets[n]];
    }
    return total / static_cast<double>(N);
}

void crossEntropyBackward(double* dlogits, const double* probs, const int* targets, long N, long V)
{
    const double inv = 1.0 / static_cast<double>(N);
    for (long n = 0; n < N; ++n) {
        const double* p = probs + n * V;
        double* d = dlogits + n * V;
        for (long v = 0; v < V; ++v) d[v] = p[v] * inv;
        d[targets[n]] -= inv;
    }
}

}  // namespace attn::gpt2
