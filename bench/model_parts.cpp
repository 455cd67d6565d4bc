// SPDX-License-Identifier: GPL-3.0-or-later
// The stages of attn::model::forward's GPT-2 layer, run one by one through the same building
// blocks (forward.h, attend_projected.h), each timed on its own. The sum is a little above a
// whole forward pass's time: the pass overlaps nothing, but every stage here also pays for its
// own start of the OpenMP threads.
//
//   layernorm   ln_1 and ln_2 of every layer and the final norm
//   dense       c_attn, attn.c_proj, mlp.c_fc, mlp.c_proj (kernels::sgemm)
//   attention   every head's scores, mask, softmax and output (one head a thread)
//   gelu        the MLP's activation
//   residual    the two residual additions and the heads' concatenation
//   logits      the last position's row times the tied embedding (50257 x 768)
#include "bench/model_parts.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "core/attend_projected.h"
#include "core/kernels/gemm.h"
#include "core/model/forward.h"

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

}  // namespace

void printParts(const model::Model& m, long n, int reps)
{
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
#pragma omp parallel for schedule(dynamic, 1)
                for (long j = 0; j < h; ++j)
                    (void)attendProjected<float>(Mode::Causal, Scaling::SqrtDk,
                                                 heads[static_cast<std::size_t>(j)]);
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
            {
                Timer _(t["residual"]);
                hidden += out;
            }
        }
        FloatMatrix last;
        {
            Timer _(t["layernorm"]);
            model::layerNorm(hidden.bottomRows(1), m.embeddingOrFinalNorm(), c.layerNormEps, last);
        }
        {
            Timer _(t["logits"]);
            model::Dense decoder;
            decoder.weight = m.outputEmbeddings().data();
            decoder.in = d;
            decoder.out = c.vocab;
            decoder.outByIn = true;
            FloatMatrix logits;
            model::applyDense(last, decoder, logits);
        }
        if (rep > 0)
            for (const auto& [name, ms] : t) parts[name].push_back(ms);
    }
    std::string fields;
    double total = 0.0;
    for (auto& [name, v] : parts) {
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

}  // namespace attn::bench
