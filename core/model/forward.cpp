// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/model/forward.h"

#include <algorithm>
#include <cmath>
#include <exception>
#include <new>
#include <numeric>
#include <omp.h>
#include <string>

#include "core/attend_projected.h"
#include "core/kernels/gemm.h"
#include "core/model/causal_head.h"
#include "core/model/forward_internal.h"

namespace attn::model {

std::string detail::layerField(long layer, long head, const char* what)
{
    std::string s = "layer " + std::to_string(layer + 1);
    if (head >= 0) s += " head " + std::to_string(head + 1);
    return s + " " + what;
}

attn::Status detail::nonFinite(long layer, long head, std::string stage)
{
    attn::Status s;
    s.code = attn::StatusCode::NonFinite;
    s.layer = static_cast<int>(layer);
    s.head = static_cast<int>(head);
    s.stage = std::move(stage);
    return s;
}

namespace {

using detail::checkIds;
using detail::embed;
using detail::layerField;
using detail::nonFinite;
using detail::predictionPositions;
using detail::Reuse;

// The first stage of a head that holds a value that is not finite: its projections, else the
// stage the head pass stopped at ("heads[0].scores").
std::string stageOf(const HeadResultT<float>& hr, const Status& status)
{
    if (!hr.Q.allFinite()) return "the query vectors Q";
    if (!hr.K.allFinite()) return "the key vectors K";
    if (!hr.V.allFinite()) return "the value vectors V";
    const std::string stage = status.field.substr(status.field.rfind('.') + 1);
    return stage == "scaled" ? "the scaled scores" : "the " + stage;
}

// Names what made a run's values non-finite: a weight tensor that holds NaN or Inf, else the
// text (finite weights, but this input drives a value beyond float range). A run with hooks
// changed its heads, so with finite weights it names no cause (runEdited() names the edit).
attn::Status blame(const Model& model, const ForwardOptions& options, attn::Status s)
{
    if (s.code != attn::StatusCode::NonFinite || s.cause != attn::Cause::Unknown ||
        (s.layer < 0 && s.stage.empty()))
        return s;
    if (!options.hook && !options.outputHook) s.cause = attn::Cause::Text;
    for (const SafetensorsFile& file : model.shards())
        for (const TensorInfo& t : file.tensors()) {
            const auto count = static_cast<long>(t.elementCount());
            const bool finite =
                t.data != nullptr
                    ? kernels::weightsFinite(kernels::WeightFormat::F32, t.data, count)
                : t.raw != nullptr && t.dtype == "BF16"
                    ? kernels::weightsFinite(kernels::WeightFormat::BF16, t.raw, count)
                : t.raw != nullptr && t.dtype == "F16"
                    ? kernels::weightsFinite(kernels::WeightFormat::F16, t.raw, count)
                    : true;
            if (!finite) {
                s.cause = attn::Cause::Weights;
                s.field = t.name;
                s.file = file.path();
                return s;
            }
        }
    return s;
}

}  // namespace

attn::Status detail::hookHeads(const ForwardOptions& options, long li, long n, long dh,
                               std::vector<HeadResultT<float>>& heads)
{
    if (!options.hook) return {};
    for (std::size_t j = 0; j < heads.size(); ++j) {
        HeadResultT<float>& hr = heads[j];
        options.hook(static_cast<int>(li), static_cast<int>(j), hr);
        if (hr.Q.rows() != n || hr.Q.cols() != dh || hr.K.rows() != n || hr.K.cols() != dh ||
            hr.V.rows() != n || hr.V.cols() != dh)
            return attn::failure(attn::StatusCode::TensorShape, "",
                                 layerField(li, static_cast<long>(j), "Q/K/V"),
                                 "the head hook changed their shapes");
    }
    return {};
}

// Attention, one head per thread: the core's head pass (scores, mask, scaling, softmax with
// exact zeros, output).
attn::Status detail::attendHeads(const ForwardOptions& options, long li, const FloatMatrix& x,
                                 long fresh, std::vector<HeadResultT<float>>& heads,
                                 LayerTrace& trace, FloatMatrix& concat)
{
    const long h = static_cast<long>(heads.size());
    std::vector<Status> statuses(static_cast<std::size_t>(h));
#pragma omp parallel for schedule(dynamic, 1)
    for (long j = 0; j < h; ++j)
        statuses[static_cast<std::size_t>(j)] =
            attendProjected<float>(Mode::Self, Scaling::SqrtDk, heads[static_cast<std::size_t>(j)]);
    if (attn::Status s = finishHeads(options, li, x, statuses, fresh, heads, concat); !s.ok())
        return s;
    trace.pooled.clear();
    trace.attention.resize(static_cast<std::size_t>(h));
    trace.firstShare.assign(static_cast<std::size_t>(h), 0.0f);
    for (long j = 0; j < h; ++j) {
        const auto sj = static_cast<std::size_t>(j);
        trace.attention[sj].swap(heads[sj].weights);  // the head reuses the old buffer
        trace.firstShare[sj] = firstShareOf(trace.attention[sj]);
    }
    return {};
}

attn::Status detail::finishHeads(const ForwardOptions& options, long li, const FloatMatrix& x,
                                 const std::vector<Status>& statuses, long fresh,
                                 std::vector<HeadResultT<float>>& heads, FloatMatrix& concat)
{
    const long h = static_cast<long>(heads.size());
    const long n = x.rows();
    for (long j = 0; j < h; ++j) {
        const auto sj = static_cast<std::size_t>(j);
        const long dh = heads[sj].V.cols();
        if (statuses[sj].code == StatusCode::NonFinite) {
            // An input that is not finite came from below: the layer before (its feed-forward
            // block overflowed) or the embeddings.
            if (!x.allFinite()) return nonFinite(li - 1, -1, li ? "its output" : "the embeddings");
            return nonFinite(li, j, stageOf(heads[sj], statuses[sj]));
        }
        if (!statuses[sj].ok())
            return attn::failure(attn::StatusCode::TensorShape, "", layerField(li, j, "attention"),
                                 describe(statuses[sj]));
        if (options.outputHook) {
            options.outputHook(static_cast<int>(li), static_cast<int>(j), heads[sj].output);
            if (heads[sj].output.rows() != n || heads[sj].output.cols() != dh)
                return attn::failure(attn::StatusCode::TensorShape, "", layerField(li, j, "output"),
                                     "the output hook changed its shape");
        }
        concat.middleCols(j * dh, dh) = heads[sj].output.bottomRows(fresh);
    }
    return {};
}

void detail::feedForward(const FloatMatrix& x, const LayerWeights& L, Activation activation,
                         FloatMatrix& inner, FloatMatrix& out)
{
    applyDense(x, L.mlpIn, inner);
    activate(activation, inner);
    applyDense(inner, L.mlpOut, out);
}

namespace {

// The heads' Q, K and V of layer `li` from x. GPT-2's fused c_attn holds [Q | K | V], each d
// wide, heads side by side (the heads copy their slices of it: no copy of the three first);
// BERT's are separate. With `reuse`, the first reuse.rows rows come from the earlier run.
void projectHeads(const Model& model, long li, const ForwardOptions& options, const FloatMatrix& x,
                  LayerTrace& trace, std::vector<HeadResultT<float>>& heads, const Reuse& reuse)
{
    const ModelConfig& c = model.config();
    const LayerWeights& L = model.layers()[static_cast<std::size_t>(li)];
    const bool gpt2 = c.family == Family::Gpt2;
    const long n = x.rows();
    const long d = c.width;
    FloatMatrix qkv, k, v;
    const FloatMatrix* from[3] = {&qkv, &qkv, &qkv};
    long offset[3] = {0, d, 2 * d};
    const long p = reuse.layers ? reuse.rows : 0;  // rows taken from the earlier run
    const long fresh = n - p;
    trace.normed.resize(0, 0);
    trace.projections.resize(0, 0);
    if (gpt2 && p > 0) {
        const LayerTrace& before = (*reuse.layers)[static_cast<std::size_t>(li)];
        FloatMatrix normed, projected;
        layerNorm(x.bottomRows(fresh), L.ln1, c.layerNormEps, normed);
        applyDense(normed, L.qkv, projected);
        if (options.keepTypingCache) {
            trace.normed.resize(n, d);
            trace.normed.topRows(p) = before.normed.topRows(p);
            trace.normed.bottomRows(fresh) = normed;
        }
        qkv.resize(n, 3 * d);
        qkv.topRows(p) = before.projections.topRows(p);
        qkv.bottomRows(fresh) = projected;
    } else if (gpt2) {
        FloatMatrix normed;
        layerNorm(x, L.ln1, c.layerNormEps, normed);
        applyDense(normed, L.qkv, qkv);
        if (options.keepTypingCache) trace.normed = std::move(normed);
    } else {
        applyDense(x, L.q, qkv);
        applyDense(x, L.k, k);
        applyDense(x, L.v, v);
        from[1] = &k;
        from[2] = &v;
        offset[1] = offset[2] = 0;
    }
    if (gpt2 && options.keepTypingCache) trace.projections = qkv;
    detail::copyHeads(c, from, offset, heads);
}

// One layer: reads x (the residual stream entering layer `li`), records it, its attention
// input and every head's weights in `trace`, and leaves the layer's output in x. With `reuse`,
// x's first reuse.rows rows must be the earlier run's (they are then left stale in the output)
// and their projections are taken from it.
attn::Status runLayer(const Model& model, long li, const ForwardOptions& options, FloatMatrix& x,
                      LayerTrace& trace, std::vector<HeadResultT<float>>& heads, const Reuse& reuse,
                      const RopeTable& rope)
{
    const ModelConfig& c = model.config();
    if (c.family == Family::Decoder)
        return detail::runDecoderLayer(model, li, options, x, trace, heads, reuse, rope);
    const LayerWeights& L = model.layers()[static_cast<std::size_t>(li)];
    const bool gpt2 = c.family == Family::Gpt2;
    const long n = x.rows();
    const long d = c.width;
    const long dh = c.headDim();
    trace.hidden = x;

    const long p = reuse.layers ? reuse.rows : 0;  // rows taken from the earlier run
    const long fresh = n - p;
    projectHeads(model, li, options, x, trace, heads, reuse);
    if (attn::Status s = detail::hookHeads(options, li, n, dh, heads); !s.ok()) return s;

    FloatMatrix concat(fresh, d);
    // GPT-2's heads are causal, scored only where a row may look (attendCausal, as a decoder's);
    // BERT's see every token, through the core's head pass.
    const attn::Status s = gpt2 ? detail::attendHeadsCausal(options, li, x, 0, c.scoreDivisor(),
                                                            false, fresh, heads, trace, concat)
                                : detail::attendHeads(options, li, x, fresh, heads, trace, concat);
    if (!s.ok()) return s;

    FloatMatrix a, inner, out;
    applyDense(concat, L.attnOut, a);
    if (gpt2) {
        // Row-wise from here on: only the fresh rows (all of them without reuse).
        auto rows = x.bottomRows(fresh);
        rows += a;
        FloatMatrix m;
        layerNorm(rows, L.ln2, c.layerNormEps, m);
        detail::feedForward(m, L, c.activation, inner, out);
        rows += out;
    } else {
        a += x;
        FloatMatrix x1;
        layerNorm(a, L.ln1, c.layerNormEps, x1);
        detail::feedForward(x1, L, c.activation, inner, out);
        out += x1;
        layerNorm(out, L.ln2, c.layerNormEps, x);
    }
    return {};
}

attn::Status finish(const Model& model, const ForwardOptions& options, const FloatMatrix& x,
                    ForwardResult& r)
{
    const ModelConfig& c = model.config();
    std::vector<long> predict;
    if (attn::Status s = predictionPositions(model, r.ids, options, predict); !s.ok()) return s;
    if (c.family == Family::Gpt2)
        layerNorm(x, model.embeddingOrFinalNorm(), c.layerNormEps, r.finalHidden);
    else if (c.family == Family::Decoder)
        detail::rmsNormRows(x, model.embeddingOrFinalNorm(), c.layerNormEps, r.finalHidden);
    else
        r.finalHidden = x;
    if (!r.finalHidden.allFinite()) {
        // The first layer whose output (the next layer's input) is not finite: its
        // feed-forward block or LayerNorm overflowed, since its heads were checked.
        for (std::size_t l = 1; l < r.layers.size(); ++l)
            if (r.layers[l].hidden.size() != 0 && !r.layers[l].hidden.allFinite())
                return nonFinite(static_cast<long>(l) - 1, -1, "its output");
        if (!x.allFinite()) return nonFinite(c.layers - 1, -1, "its output");
        return nonFinite(-1, -1,
                         c.family == Family::Decoder ? "the final RMSNorm" : "the final LayerNorm");
    }

    r.logitRows.clear();
    if (model.hasLanguageHead()) {
        if (options.allLogits) {
            r.logitRows.resize(r.ids.size());
            std::iota(r.logitRows.begin(), r.logitRows.end(), 0L);
        } else {
            r.logitRows = predict;
        }
    }
    FloatMatrix rows(static_cast<long>(r.logitRows.size()), c.width);
    for (std::size_t i = 0; i < r.logitRows.size(); ++i)
        rows.row(static_cast<long>(i)) = r.finalHidden.row(r.logitRows[i]);
    Dense decoder = model.outputLayer();
    if (c.family == Family::Bert && model.mlm().present) {
        const MlmHead& head = model.mlm();
        FloatMatrix t, normed;
        applyDense(rows, head.transform, t);
        activate(c.activation, t);
        layerNorm(t, head.norm, c.layerNormEps, normed);
        decoder.bias = head.bias;
        applyDense(normed, decoder, r.logits);
    } else {
        applyDense(rows, decoder, r.logits);
    }

    r.predictions.clear();
    for (long p : predict) {
        const auto it = std::lower_bound(r.logitRows.begin(), r.logitRows.end(), p);
        const long row = it - r.logitRows.begin();
        r.predictions.push_back({p, topTokens(r.logits.row(row).transpose(), options.topK)});
    }
    return {};
}

attn::Status runLayers(const Model& model, long start, const ForwardOptions& options, FloatMatrix x,
                       ForwardResult& r, const Reuse& reuse = {})
{
    std::vector<HeadResultT<float>> heads;
    const ModelConfig& c = model.config();
    const long layers = c.layers;
    // Every position's rotation angles, once for all layers and heads.
    const RopeTable rope =
        c.family == Family::Decoder ? ropeTable(c.rope, c.headDim(), 0, x.rows()) : RopeTable{};
    const auto keepGoing = [&](long done) {
        return !options.progress ||
               options.progress(static_cast<int>(done), static_cast<int>(layers));
    };
    for (long li = start; li < layers; ++li) {
        if (!keepGoing(li))
            return attn::failure(attn::StatusCode::Cancelled, "", "forward",
                                 "cancelled before layer " + std::to_string(li + 1));
        if (reuse.layers)
            x.topRows(reuse.rows) =
                (*reuse.layers)[static_cast<std::size_t>(li)].hidden.topRows(reuse.rows);
        if (attn::Status s = runLayer(model, li, options, x, r.layers[static_cast<std::size_t>(li)],
                                      heads, reuse, rope);
            !s.ok())
            return s;
    }
    if (!keepGoing(layers))
        return attn::failure(attn::StatusCode::Cancelled, "", "forward",
                             "cancelled before the output");
    if (reuse.layers) x.topRows(reuse.rows) = reuse.previousResidual->topRows(reuse.rows);
    r.residual = x;
    return finish(model, options, x, r);
}

attn::Status guarded(const std::function<attn::Status()>& body)
{
    try {
        return body();
    } catch (const std::bad_alloc&) {
        return attn::failure(attn::StatusCode::TooLong, "", "ids",
                             "out of memory for this many tokens");
    } catch (const std::exception& e) {
        return attn::failure(attn::StatusCode::NonFinite, "", "forward", e.what());
    }
}

}  // namespace

FloatMatrix attentionInput(const Model& model, const ForwardResult& result, int layer)
{
    const LayerTrace& t = result.layers.at(static_cast<std::size_t>(layer));
    const Family family = model.config().family;
    if (family == Family::Bert) return t.hidden;
    if (t.normed.rows() == t.hidden.rows() && t.normed.size() != 0) return t.normed;
    FloatMatrix normed;
    const Norm& ln1 = model.layers()[static_cast<std::size_t>(layer)].ln1;
    if (family == Family::Decoder)
        detail::rmsNormRows(t.hidden, ln1, model.config().layerNormEps, normed);
    else
        layerNorm(t.hidden, ln1, model.config().layerNormEps, normed);
    return normed;
}

std::size_t cachedBytes(const ForwardResult& r)
{
    std::size_t floats =
        static_cast<std::size_t>(r.residual.size() + r.finalHidden.size() + r.logits.size());
    for (const LayerTrace& t : r.layers) {
        floats +=
            static_cast<std::size_t>(t.hidden.size() + t.normed.size() + t.projections.size());
        for (const PooledMap& p : t.pooled) floats += static_cast<std::size_t>(p.cells.size());
    }
    return floats * sizeof(float);
}

attn::Status forward(const Model& model, std::span<const int> ids, const ForwardOptions& options,
                     ForwardResult& result)
{
    if (!model.loaded())
        return attn::failure(attn::StatusCode::FileOpen, "", "model", "no model loaded");
    if (attn::Status s = checkIds(model, ids); !s.ok()) return s;
    return blame(model, options, guarded([&] {
                     result.ids.assign(ids.begin(), ids.end());
                     result.layers.resize(static_cast<std::size_t>(model.config().layers));
                     FloatMatrix x;
                     embed(model, result.ids, x);
                     return runLayers(model, 0, options, std::move(x), result);
                 }));
}

attn::Status forwardReusing(const Model& model, std::span<const int> ids,
                            const ForwardOptions& options, const ForwardResult& previous,
                            ForwardResult& result)
{
    if (!model.loaded())
        return attn::failure(attn::StatusCode::FileOpen, "", "model", "no model loaded");
    const ModelConfig& c = model.config();
    const long n = static_cast<long>(ids.size());
    long same = 0;
    while (same < n && same < static_cast<long>(previous.ids.size()) &&
           ids[static_cast<std::size_t>(same)] == previous.ids[static_cast<std::size_t>(same)])
        ++same;
    same = std::min(same, n - 1);  // at least the last row is computed
    const long before = static_cast<long>(previous.ids.size());
    // The width of a layer's kept [Q | K | V]: GPT-2 3d; a decoder's query heads and its key
    // and value heads.
    const long kept =
        c.family == Family::Decoder ? (c.heads + 2 * c.kvHeads) * c.headDim() : 3 * c.width;
    bool usable = c.family != Family::Bert && !options.hook && !options.outputHook && same > 0 &&
                  &previous != &result &&
                  previous.layers.size() == static_cast<std::size_t>(c.layers) &&
                  previous.residual.rows() == before;
    for (std::size_t l = 0; usable && l < previous.layers.size(); ++l) {
        const LayerTrace& t = previous.layers[l];
        usable = t.hidden.rows() == before && t.normed.rows() == before &&
                 t.projections.rows() == before && t.projections.cols() == kept;
    }
    if (!usable) return forward(model, ids, options, result);
    if (attn::Status s = checkIds(model, ids); !s.ok()) return s;
    return blame(model, options, guarded([&] {
                     result.ids.assign(ids.begin(), ids.end());
                     result.layers.resize(static_cast<std::size_t>(c.layers));
                     FloatMatrix x;
                     embed(model, result.ids, x);
                     Reuse reuse;
                     reuse.rows = same;
                     reuse.layers = &previous.layers;
                     reuse.previousResidual = &previous.residual;
                     return runLayers(model, 0, options, std::move(x), result, reuse);
                 }));
}

attn::Status forwardFrom(const Model& model, int startLayer, const ForwardOptions& options,
                         ForwardResult& result)
{
    if (!model.loaded())
        return attn::failure(attn::StatusCode::FileOpen, "", "model", "no model loaded");
    const ModelConfig& c = model.config();
    if (startLayer < 0 || startLayer >= c.layers ||
        result.layers.size() != static_cast<std::size_t>(c.layers))
        return attn::failure(attn::StatusCode::BadLayer, "", "startLayer",
                             "layer " + std::to_string(startLayer + 1) +
                                 " is not a cached layer of this model's " +
                                 std::to_string(c.layers));
    const FloatMatrix& cached = result.layers[static_cast<std::size_t>(startLayer)].hidden;
    if (cached.rows() != static_cast<long>(result.ids.size()) || cached.cols() != c.width ||
        result.ids.empty())
        return attn::failure(attn::StatusCode::BadLayer, "", "startLayer",
                             "no cached input for layer " + std::to_string(startLayer + 1));
    if (attn::Status s = checkIds(model, result.ids); !s.ok()) return s;
    return guarded([&] { return runLayers(model, startLayer, options, cached, result); });
}

}  // namespace attn::model
