// SPDX-License-Identifier: GPL-3.0-or-later
// The stages of attn::model::forward's layer, run one by one through the same building blocks
// (forward.h, causal_head.h, rope.h), each timed on its own. The sum is a little above a
// whole forward pass's time: the pass overlaps nothing, but every stage here also pays for its
// own start of the OpenMP threads.
//
// GPT-2:
//   layernorm   ln_1 and ln_2 of every layer and the final norm
//   dense       c_attn, attn.c_proj, mlp.c_fc, mlp.c_proj (kernels::sgemm)
//   attention   every head's scores over the keys it may see, softmax and output (attendCausal,
//               one head a thread), with the copies of its Q, K and V slices
//   gelu        the MLP's activation
//   residual    the two residual additions and the heads' concatenation
//   logits      the last position's row times the tied embedding (50257 x 768)
//
// Llama-family decoders (forward_decoder.cpp's layer):
//   rmsnorm     input_layernorm and post_attention_layernorm of every layer, the final norm
//   qkv_proj    q_proj, k_proj, v_proj (kernels::sgemm)
//   rope        Qwen3's per-head q_norm / k_norm and the rotation of every q and k head (with
//               the run's table of angles)
//   attention   every query head's scores, mask, softmax and output (one head a thread; a
//               group's query heads read the same key and value columns)
//   o_proj      the attention output projection
//   mlp_proj    gate_proj, up_proj, down_proj
//   swiglu      silu(gate) * up
//   copies      the layer input kept for re-runs, [Q | K | V] joined, the heads' Q/K/V slices
//               and outputs copied in and out, and the two residual additions
//   logits      the last position's row times the tied embedding (V x d)
#include "bench/model_parts.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "core/kernels/gemm.h"
#include "core/model/causal_head.h"
#include "core/model/forward.h"
#include "core/model/forward_internal.h"
#include "core/rope.h"

namespace attn::bench {

namespace {

using Clock = std::chrono::steady_clock;
using model::FloatMatrix;

class Timer {
public:
    explicit Timer(double& total) : total_(total), start_(Clock::now()) {}
    ~Timer() { total_ += std::chrono::duration<double, std::milli>(Clock::now() - start_).count(); }
    Timer(const Timer&) = delete;
    Timer& operator=(const Timer&) = delete;

private:
    double& total_;
    Clock::time_point start_;
};

void print(const std::map<std::string, std::vector<double>>& parts, long n)
{
    std::string fields;
    double total = 0.0;
    for (auto [name, v] : parts) {
        std::sort(v.begin(), v.end());
        const double median = v[v.size() / 2];
        total += median;
        char buf[96];
        std::snprintf(buf, sizeof buf, ", \"%s_ms\": %.3f", name.c_str(), median);
        fields += buf;
    }
    std::printf(
        "RESULT {\"what\": \"parts\", \"tokens\": %ld, \"gemm_path\": \"%s\", "
        "\"sum_ms\": %.3f%s}\n",
        n, kernels::gemmPathName(kernels::gemmPath()), total, fields.c_str());
    std::fflush(stdout);
}

// A decoder layer's Q, K and V, timed as the projections and the rotation.
void projectAndRotate(std::map<std::string, double>& t, const model::ModelConfig& c,
                      const model::LayerWeights& L, const FloatMatrix& normed,
                      const RopeTable& rope, FloatMatrix& q, FloatMatrix& k, FloatMatrix& v)
{
    {
        Timer _(t["qkv_proj"]);
        model::applyDense(normed, L.q, q);
        model::applyDense(normed, L.k, k);
        model::applyDense(normed, L.v, v);
    }
    {
        Timer _(t["rope"]);
        model::detail::normAndRotate(q, c.heads, c.headDim(), L.qNorm, c.layerNormEps, rope, 0);
        model::detail::normAndRotate(k, c.kvHeads, c.headDim(), L.kNorm, c.layerNormEps, rope, 0);
    }
}

// Each head's Q, K and V copied out of the joined projections, as forward_decoder.cpp does.
void splitHeads(const model::ModelConfig& c, const FloatMatrix& qkv,
                std::vector<HeadResultT<float>>& heads)
{
    const long dh = c.headDim(), qWidth = c.heads * dh, kvWidth = c.kvHeads * dh;
    for (long j = 0; j < c.heads; ++j) {
        auto& hr = heads[static_cast<std::size_t>(j)];
        const long g = c.kvHeadOf(j);
        hr.Q = qkv.middleCols(j * dh, dh);
        hr.K = qkv.middleCols(qWidth + g * dh, dh);
        hr.V = qkv.middleCols(qWidth + kvWidth + g * dh, dh);
    }
}

// Every head's map and output, as forward_pooled.cpp's attendHeadsCausal weighs GPT-2's and a
// decoder's heads (one head a thread).
void weighCausalHeads(std::vector<HeadResultT<float>>& heads, long n, long dh)
{
#pragma omp parallel for schedule(dynamic, 1)
    for (long j = 0; j < static_cast<long>(heads.size()); ++j) {
        auto& hr = heads[static_cast<std::size_t>(j)];
        model::CausalHeadInput in;
        in.q = hr.Q.data();
        in.ldq = dh;
        in.k = hr.K.data();
        in.ldk = dh;
        in.v = hr.V.data();
        in.ldv = dh;
        in.n = n;
        in.dh = dh;
        in.dv = dh;
        in.divisor = static_cast<float>(std::sqrt(static_cast<double>(dh)));
        model::CausalHeadOutput want;
        want.weights = &hr.weights;
        want.output = &hr.output;
        (void)model::attendCausal(in, want);
    }
}

// A decoder layer's gated MLP, timed as its projections and its SwiGLU.
void gatedMlp(std::map<std::string, double>& t, const model::LayerWeights& L,
              const FloatMatrix& normed, FloatMatrix& gate, FloatMatrix& up, FloatMatrix& out)
{
    {
        Timer _(t["mlp_proj"]);
        model::applyDense(normed, L.gate, gate);
        model::applyDense(normed, L.mlpIn, up);
    }
    {
        Timer _(t["swiglu"]);
        model::swiglu(gate, up);
    }
    {
        Timer _(t["mlp_proj"]);
        model::applyDense(gate, L.mlpOut, out);
    }
}

// The final norm and the last position's logits.
void decoderLogits(std::map<std::string, double>& t, const model::Model& m,
                   const FloatMatrix& hidden, FloatMatrix& normed)
{
    {
        Timer _(t["rmsnorm"]);
        model::detail::rmsNormRows(hidden, m.embeddingOrFinalNorm(), m.config().layerNormEps,
                                   normed);
    }
    {
        Timer _(t["logits"]);
        const model::Dense& head = m.outputLayer();
        FloatMatrix last = normed.bottomRows(1), logits;
        model::applyDense(last, head, logits);
    }
}

void printDecoderParts(const model::Model& m, long n, int reps)
{
    const model::ModelConfig& c = m.config();
    const long d = c.width, h = c.heads, dh = c.headDim();
    const long qWidth = h * dh, kvWidth = c.kvHeads * dh;
    std::map<std::string, std::vector<double>> parts;
    FloatMatrix x(n, d);
    for (long i = 0; i < n; ++i) m.embeddingRow(i * 7919 % c.vocab, &x(i, 0));
    for (int rep = 0; rep <= reps; ++rep) {  // rep 0 warms up
        std::map<std::string, double> t;
        FloatMatrix hidden = x, kept, normed, q, k, v, qkv, concat(n, qWidth), a, gate, up, out;
        std::vector<HeadResultT<float>> heads(static_cast<std::size_t>(h));
        // Every layer's maps stay alive, as forward keeps them: each layer's heads write fresh
        // buffers, as they do there.
        std::vector<std::vector<FloatMatrix>> maps(m.layers().size());
        std::size_t li = 0;
        RopeTable rope;
        {
            Timer _(t["rope"]);
            rope = ropeTable(c.rope, dh, 0, n);
        }
        for (const model::LayerWeights& L : m.layers()) {
            {
                Timer _(t["copies"]);
                kept = hidden;
            }
            {
                Timer _(t["rmsnorm"]);
                model::detail::rmsNormRows(hidden, L.ln1, c.layerNormEps, normed);
            }
            projectAndRotate(t, c, L, normed, rope, q, k, v);
            {
                Timer _(t["copies"]);
                qkv.resize(n, qWidth + 2 * kvWidth);
                qkv << q, k, v;
                splitHeads(c, qkv, heads);
            }
            {
                Timer _(t["attention"]);
                weighCausalHeads(heads, n, dh);
            }
            {
                Timer _(t["copies"]);
                for (long j = 0; j < h; ++j) {
                    const auto sj = static_cast<std::size_t>(j);
                    concat.middleCols(j * dh, dh) = heads[sj].output;
                    maps[li].push_back(std::move(heads[sj].weights));
                }
                ++li;
            }
            {
                Timer _(t["o_proj"]);
                model::applyDense(concat, L.attnOut, a);
            }
            {
                Timer _(t["copies"]);
                hidden += a;
            }
            {
                Timer _(t["rmsnorm"]);
                model::detail::rmsNormRows(hidden, L.ln2, c.layerNormEps, normed);
            }
            gatedMlp(t, L, normed, gate, up, out);
            {
                Timer _(t["copies"]);
                hidden += out;
            }
        }
        decoderLogits(t, m, hidden, normed);
        if (rep > 0)
            for (const auto& [name, ms] : t) parts[name].push_back(ms);
    }
    print(parts, n);
}

}  // namespace

namespace {

// A GPT-2 layer's MLP, timed as its dense products and its GELU.
void geluMlp(std::map<std::string, double>& t, const model::ModelConfig& c,
             const model::LayerWeights& L, const FloatMatrix& normed, FloatMatrix& inner,
             FloatMatrix& out)
{
    {
        Timer _(t["dense"]);
        model::applyDense(normed, L.mlpIn, inner);
    }
    {
        Timer _(t["gelu"]);
        model::activate(c.activation, inner);
    }
    {
        Timer _(t["dense"]);
        model::applyDense(inner, L.mlpOut, out);
    }
}

// GPT-2's final norm and the last position's logits.
void gpt2Logits(std::map<std::string, double>& t, const model::Model& m, const FloatMatrix& hidden)
{
    FloatMatrix last;
    {
        Timer _(t["layernorm"]);
        model::layerNorm(hidden.bottomRows(1), m.embeddingOrFinalNorm(), m.config().layerNormEps,
                         last);
    }
    {
        Timer _(t["logits"]);
        const model::Dense& decoder = m.outputLayer();
        FloatMatrix logits;
        model::applyDense(last, decoder, logits);
    }
}

}  // namespace

void printParts(const model::Model& m, long n, int reps)
{
    if (m.config().family == model::Family::Decoder) {
        printDecoderParts(m, n, reps);
        return;
    }
    const model::ModelConfig& c = m.config();
    const long d = c.width, h = c.heads, dh = c.headDim();
    std::map<std::string, std::vector<double>> parts;
    FloatMatrix x = FloatMatrix::Random(n, d) * 0.5f;
    for (int rep = 0; rep <= reps; ++rep) {  // rep 0 warms up
        std::map<std::string, double> t;
        FloatMatrix normed, qkv, concat(n, d), a, inner, out;
        std::vector<HeadResultT<float>> heads(static_cast<std::size_t>(h));
        FloatMatrix hidden = x;
        for (const model::LayerWeights& L : m.layers()) {
            {
                Timer _(t["layernorm"]);
                model::layerNorm(hidden, L.ln1, c.layerNormEps, normed);
            }
            {
                Timer _(t["dense"]);
                model::applyDense(normed, L.qkv, qkv);
            }
            {
                Timer _(t["attention"]);
                for (long j = 0; j < h; ++j) {
                    auto& hr = heads[static_cast<std::size_t>(j)];
                    hr.Q = qkv.middleCols(j * dh, dh);
                    hr.K = qkv.middleCols(d + j * dh, dh);
                    hr.V = qkv.middleCols(2 * d + j * dh, dh);
                }
                weighCausalHeads(heads, n, dh);
            }
            {
                Timer _(t["residual"]);
                for (long j = 0; j < h; ++j)
                    concat.middleCols(j * dh, dh) = heads[static_cast<std::size_t>(j)].output;
            }
            {
                Timer _(t["dense"]);
                model::applyDense(concat, L.attnOut, a);
            }
            {
                Timer _(t["residual"]);
                hidden += a;
            }
            {
                Timer _(t["layernorm"]);
                model::layerNorm(hidden, L.ln2, c.layerNormEps, normed);
            }
            geluMlp(t, c, L, normed, inner, out);
            {
                Timer _(t["residual"]);
                hidden += out;
            }
        }
        gpt2Logits(t, m, hidden);
        if (rep > 0)
            for (const auto& [name, ms] : t) parts[name].push_back(ms);
    }
    print(parts, n);
}

}  // namespace attn::bench
