// SPDX-License-Identifier: GPL-3.0-or-later
// One layer of a Llama-family decoder (llama, mistral, qwen2, qwen3), written after Hugging
// Face's modeling_llama.py and its siblings:
//
//   a = RMSNorm_1(x)                                         (n x d)
//   Q = a W_q (+b), K = a W_k (+b), V = a W_v (+b)           (n x h d_h, n x kv d_h, n x kv d_h)
//   qwen3: each head's q and k rows through their RMSNorm (width d_h)
//   Q, K rotated by position (core/rope.h, the config's theta and scaling)
//   query head j attends with key/value head j / (h / kv): softmax(q k^T / sqrt(d_h)) under the
//   causal mask, or the sliding window where the layer slides
//   x += [O_0 .. O_h-1] W_o (+b)
//   m = RMSNorm_2(x);  x += (silu(m W_gate) * (m W_up)) W_down
//
// The kept projections of a layer are [Q | K | V] after normalisation and rotation: the rows of
// a prefix do not change when text is added after it, so typing reuses them.
#include <cmath>

#include "core/attend_projected.h"
#include "core/model/forward_internal.h"

namespace attn::model {

// Each head's block of `m` (width d_h each): RMSNorm with `norm` where it is set, then the
// rotation of rows as positions row0 ... Every head of a row in one pass and one parallel region
// for all rows: a region per head (Qwen3: 16 q heads of 128) cost more than the work, and so did
// a row's temporaries. The arithmetic is rmsNormRows' and applyRope's, element by element.
void detail::normAndRotate(Eigen::Ref<FloatMatrix> m, long headCount, long dh, const Norm& norm,
                           float eps, const RopeTable& rope, long row0)
{
    const long n = m.rows();
    const long half = dh / 2;
#pragma omp parallel for schedule(static) if (n * m.cols() >= 65536)
    for (long i = 0; i < n; ++i) {
        const double* cosines = &rope.cos(row0 + i, 0);
        const double* sines = &rope.sin(row0 + i, 0);
        for (long j = 0; j < headCount; ++j) {
            float* v = &m(i, j * dh);
            if (norm.gamma != nullptr) {
                const double inv =
                    1.0 / std::sqrt(rowSum(v, dh, 0.0, true) / static_cast<double>(dh) +
                                    static_cast<double>(eps));
                for (long t = 0; t < dh; ++t)
                    v[t] = static_cast<float>(static_cast<double>(v[t]) * inv) * norm.gamma[t];
            }
            for (long t = 0; t < half; ++t) {
                const double c = cosines[t];
                const double s = sines[t];
                const double a = v[t];
                const double b = v[t + half];
                v[t] = static_cast<float>(a * c - b * s);
                v[t + half] = static_cast<float>(b * c + a * s);
            }
        }
    }
}

void detail::attentionOutAndMlp(const ModelConfig& c, const LayerWeights& L,
                                const FloatMatrix& concat, Eigen::Ref<FloatMatrix> rows)
{
    FloatMatrix a, m, gate, up, out;
    applyDense(concat, L.attnOut, a);
    rows += a;
    rmsNormRows(rows, L.ln2, c.layerNormEps, m);
    applyDense(m, L.gate, gate);
    applyDense(m, L.mlpIn, up);
    swiglu(gate, up);
    applyDense(gate, L.mlpOut, out);
    rows += out;
}

namespace {

void releaseHeads(std::vector<HeadResultT<float>>& heads)
{
    for (HeadResultT<float>& hr : heads) {
        hr.Q.resize(0, 0);
        hr.K.resize(0, 0);
        hr.V.resize(0, 0);
        hr.output.resize(0, 0);
    }
}

// [q | k | v] as rows [p, n) of qkv, on both threads (as the heads' copies).
void joinRows(const FloatMatrix& q, const FloatMatrix& k, const FloatMatrix& v, long p,
              FloatMatrix& qkv)
{
    const long n = qkv.rows();
#pragma omp parallel for schedule(static) if (n * qkv.cols() >= 65536)
    for (long i = p; i < n; ++i) {
        qkv.row(i).head(q.cols()) = q.row(i - p);
        qkv.row(i).segment(q.cols(), k.cols()) = k.row(i - p);
        qkv.row(i).tail(v.cols()) = v.row(i - p);
    }
}

}  // namespace

attn::Status detail::runDecoderLayer(const Model& model, long li, const ForwardOptions& options,
                                     FloatMatrix& x, LayerTrace& trace,
                                     std::vector<HeadResultT<float>>& heads, const Reuse& reuse,
                                     const RopeTable& rope)
{
    const ModelConfig& c = model.config();
    const LayerWeights& L = model.layers()[static_cast<std::size_t>(li)];
    const long n = x.rows();
    const long dh = c.headDim();
    const long h = c.heads;
    const long kv = c.kvHeads;
    const long qWidth = h * dh;
    const long kvWidth = kv * dh;
    const long p = reuse.layers ? reuse.rows : 0;  // rows taken from the earlier run
    const long fresh = n - p;
    trace.hidden = x;
    trace.normed.resize(0, 0);
    trace.projections.resize(0, 0);

    FloatMatrix normed, q, k, v;
    rmsNormRows(x.bottomRows(fresh), L.ln1, c.layerNormEps, normed);
    applyDense(normed, L.q, q);
    applyDense(normed, L.k, k);
    applyDense(normed, L.v, v);
    normAndRotate(q, h, dh, L.qNorm, c.layerNormEps, rope, p);
    normAndRotate(k, kv, dh, L.kNorm, c.layerNormEps, rope, p);

    // Projected apart and joined by a copy: projecting into the joined matrix in place saved
    // 30 ms of a Qwen3-0.6B pass at 512 tokens, but moved glibc's allocations so that
    // SmolLM2-135M's peak at 512 tokens grew by 20 MiB, past its goal.
    FloatMatrix qkv(n, qWidth + 2 * kvWidth);
    if (p > 0) {
        const LayerTrace& before = (*reuse.layers)[static_cast<std::size_t>(li)];
        qkv.topRows(p) = before.projections.topRows(p);
        if (options.keepTypingCache) {
            trace.normed.resize(n, c.width);
            trace.normed.topRows(p) = before.normed.topRows(p);
            trace.normed.bottomRows(fresh) = normed;
        }
    } else if (options.keepTypingCache) {
        trace.normed = normed;
    }
    joinRows(q, k, v, p, qkv);
    const bool pooled = options.poolAbove > 0 && n > options.poolAbove;
    if (pooled) {
        // The joined copy is all that is read from here on (8,192 tokens of Qwen3: 128 MiB), and
        // it goes before the heads' copies are made. Not in a short run: freeing them here moves
        // glibc's mmap threshold before the maps are made, which leaves SmolLM2's 512-token run
        // 20 MiB larger.
        q.resize(0, 0);
        k.resize(0, 0);
        v.resize(0, 0);
    }
    if (options.keepTypingCache) trace.projections = qkv;

    const FloatMatrix* const from[3] = {&qkv, &qkv, &qkv};
    const long offset[3] = {0, qWidth, qWidth + kvWidth};
    copyHeads(c, from, offset, heads);
    if (attn::Status s = hookHeads(options, li, n, dh, heads); !s.ok()) return s;

    const long window = c.slides(li) && c.slidingWindow < n ? c.slidingWindow : 0;
    FloatMatrix concat(fresh, qWidth);
    if (attn::Status s = attendHeadsCausal(options, li, x, window, c.scoreDivisor(), pooled, fresh,
                                           heads, trace, concat);
        !s.ok())
        return s;
    if (pooled) {
        // A long run's peak is the MLP's scratch on top of what the layer still holds: let the
        // joined projections and the heads' copies go first (Qwen3 at 8,192 tokens: 320 MiB).
        qkv.resize(0, 0);
        releaseHeads(heads);
    }
    detail::attentionOutAndMlp(c, L, concat, x.bottomRows(fresh));
    return {};
}

}  // namespace attn::model
