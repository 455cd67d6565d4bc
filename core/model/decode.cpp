// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/model/decode.h"

#include <algorithm>
#include <cmath>
#include <exception>
#include <functional>
#include <new>
#include <string>

#include "core/model/causal_head.h"
#include "core/model/forward_internal.h"
#include "core/softmax.h"

namespace attn::model {

namespace {

bool hasMeanAblation(const std::vector<HeadEdit>& edits)
{
    return std::any_of(edits.begin(), edits.end(),
                       [](const HeadEdit& e) { return e.kind == HeadEditKind::AblateMean; });
}

attn::Status guardedStep(const std::function<attn::Status()>& body)
{
    try {
        return body();
    } catch (const std::bad_alloc&) {
        return attn::failure(attn::StatusCode::TooLong, "", "ids",
                             "out of memory for this many tokens");
    }
}

}  // namespace

attn::Status Decoding::start(const Model& model, std::span<const int> prompt,
                             std::vector<HeadEdit> edits, int topK, long poolAbove, long poolSide)
{
    *this = Decoding{};
    if (!model.loaded())
        return attn::failure(attn::StatusCode::FileOpen, "", "model", "no model loaded");
    if (model.config().family == Family::Bert || !model.hasLanguageHead())
        return attn::failure(attn::StatusCode::UnsupportedModel, "", "model",
                             model.config().modelType +
                                 " does not write: generating needs a causal model with a "
                                 "language-model head (GPT-2 or the Llama family)");
    // An edit may be at a position the text reaches only as it is written.
    if (attn::Status s = checkEdits(model, model.config().positions, edits); !s.ok()) return s;
    ForwardOptions base;
    base.keepTypingCache = true;
    base.topK = topK;
    // Only a decoder's run pools (forward_decoder.cpp); GPT-2 stops at 1,024 positions.
    if (model.config().family != Family::Decoder) poolAbove = 0;
    base.poolAbove = poolAbove;
    base.poolSide = poolSide;
    const ForwardOptions options =
        edits.empty() ? base : withEdits(base, edits, model.config().groupSize());
    ForwardResult run;
    if (attn::Status s = forward(model, prompt, options, run); !s.ok()) return s;
    model_ = &model;
    options_ = options;
    edits_ = std::move(edits);
    topK_ = topK;
    poolAbove_ = poolAbove;
    poolSide_ = std::max(1L, poolSide);
    wholeRuns_ = hasMeanAblation(edits_);
    if (wholeRuns_) {
        ids_ = run.ids;
        logits_ = run.logits.row(run.logits.rows() - 1).transpose();
        whole_ = std::move(run);
        return {};
    }
    adopt(run);
    return {};
}

void Decoding::adopt(const ForwardResult& run)
{
    ids_ = run.ids;
    layers_.assign(run.layers.size(), Layer{});
    for (std::size_t l = 0; l < run.layers.size(); ++l) {
        const LayerTrace& t = run.layers[l];
        Layer& layer = layers_[l];
        layer.hidden.assign(t.hidden);
        layer.projections.assign(t.projections);
        const long n = t.hidden.rows();
        layer.fresh.resize(t.isPooled() ? t.pooled.size() : t.attention.size());
        if (t.isPooled()) {
            layer.pooled = t.pooled;
            layer.firstSum.clear();
            for (const float share : t.firstShare)
                layer.firstSum.push_back(static_cast<double>(share) * static_cast<double>(n - 1));
            continue;
        }
        layer.maps.resize(t.attention.size());
        for (std::size_t h = 0; h < t.attention.size(); ++h) {
            const FloatMatrix& map = t.attention[h];
            std::vector<float>& packed = layer.maps[h];
            packed.clear();
            for (long i = 0; i < map.rows(); ++i)
                packed.insert(packed.end(), &map(i, 0), &map(i, 0) + i + 1);
        }
    }
    residual_.assign(run.residual);
    finalHidden_.assign(run.finalHidden);
    logits_ = run.logits.row(run.logits.rows() - 1).transpose();
}

void Decoding::truncate(long n)
{
    ids_.resize(static_cast<std::size_t>(n));
    for (Layer& layer : layers_) {  // the maps take a row only once every layer made one
        layer.hidden.truncate(n);
        layer.projections.truncate(n);
    }
    residual_.truncate(n);
    finalHidden_.truncate(n);
}

attn::Status Decoding::append(int id)
{
    if (model_ == nullptr)
        return attn::failure(attn::StatusCode::EmptyInput, "", "ids", "nothing was started");
    std::vector<int> next = ids_;
    next.push_back(id);
    if (attn::Status s = detail::checkIds(*model_, next); !s.ok()) return s;
    if (wholeRuns_) {
        ForwardResult run;
        if (attn::Status s = forward(*model_, next, options_, run); !s.ok()) return s;
        ids_ = std::move(next);
        logits_ = run.logits.row(run.logits.rows() - 1).transpose();
        whole_ = std::move(run);
        return {};
    }
    const long n = length();
    const Eigen::VectorXf before = logits_;
    const attn::Status s = guardedStep([&] { return appendRow(id); });
    if (s.ok()) return s;
    truncate(n);
    logits_ = before;
    // Without edits nothing but the text drove a value out of range (the weights ran the prompt).
    attn::Status named = s;
    if (named.code == attn::StatusCode::NonFinite && edits_.empty())
        named.cause = attn::Cause::Text;
    return named;
}

attn::Status Decoding::appendRow(int id)
{
    const ModelConfig& c = model_->config();
    const long n = length();  // the new token's position
    ids_.push_back(id);
    FloatMatrix x(1, c.width);
    if (c.family == Family::Decoder)
        model_->embeddingRow(id, x.data());
    else
        x.row(0) = model_->wordEmbeddings().row(id) + model_->positionEmbeddings().row(n);
    for (long li = 0; li < c.layers; ++li)
        if (attn::Status s = stepLayer(li, x); !s.ok()) return s;
    FloatMatrix normed, logits;
    if (c.family == Family::Decoder)
        detail::rmsNormRows(x, model_->embeddingOrFinalNorm(), c.layerNormEps, normed);
    else
        layerNorm(x, model_->embeddingOrFinalNorm(), c.layerNormEps, normed);
    if (!normed.allFinite())
        return detail::nonFinite(x.allFinite() ? -1 : c.layers - 1, -1,
                                 x.allFinite() ? "the final norm" : "its output");
    applyDense(normed, model_->outputLayer(), logits);
    std::copy_n(x.data(), c.width, residual_.append(c.width));
    std::copy_n(normed.data(), c.width, finalHidden_.append(c.width));
    logits_ = logits.row(0).transpose();
    commitRows();
    return {};
}

bool Decoding::pooled() const
{
    return !layers_.empty() && !layers_.front().pooled.empty();
}

// Every head's new row into its map, once every layer has made one: a failed token leaves the
// maps as they were.
void Decoding::commitRows()
{
    const long n = length();
    for (Layer& layer : layers_) {
        for (std::size_t h = 0; h < layer.fresh.size(); ++h) {
            const std::vector<float>& row = layer.fresh[h];
            if (layer.pooled.empty()) {
                layer.maps[h].insert(layer.maps[h].end(), row.begin(), row.end());
                continue;
            }
            PooledMap& p = layer.pooled[h];
            growPooled(p, n, poolSide_);
            poolRow(row.data(), 0, n, p.block, &p.cells((n - 1) / p.block, 0));
            if (n > 1) layer.firstSum[h] += static_cast<double>(row.front());
        }
    }
    if (!pooled() && poolAbove_ > 0 && n > poolAbove_) poolMaps();
}

// The text has passed poolAbove: every whole map is pooled, and from here on only its pooled
// cells are kept.
void Decoding::poolMaps()
{
    const long n = length();
    for (Layer& layer : layers_) {
        layer.pooled.clear();
        layer.firstSum.clear();
        for (std::vector<float>& packed : layer.maps) {
            FloatMatrix map = FloatMatrix::Zero(n, n);
            const float* row = packed.data();
            for (long i = 0; i < n; ++i, row += i) std::copy_n(row, i + 1, &map(i, 0));
            layer.pooled.push_back(poolMap(map, poolBlock(n, poolSide_)));
            layer.firstSum.push_back(static_cast<double>(firstShareOf(map)) *
                                     static_cast<double>(n - 1));
            std::vector<float>().swap(packed);
        }
        layer.maps.clear();
    }
}

attn::Status Decoding::stepLayer(long li, FloatMatrix& x)
{
    const ModelConfig& c = model_->config();
    const LayerWeights& L = model_->layers()[static_cast<std::size_t>(li)];
    Layer& layer = layers_[static_cast<std::size_t>(li)];
    const long n = length() - 1;  // the new row
    const long dh = c.headDim();
    if (!x.allFinite())
        return detail::nonFinite(li - 1, -1, li > 0 ? "its output" : "the embeddings");
    std::copy_n(x.data(), c.width, layer.hidden.append(c.width));
    FloatMatrix normed, row;
    if (c.family == Family::Decoder) {
        FloatMatrix q, k, v;
        detail::rmsNormRows(x, L.ln1, c.layerNormEps, normed);
        applyDense(normed, L.q, q);
        applyDense(normed, L.k, k);
        applyDense(normed, L.v, v);
        const RopeTable rope = ropeTable(c.rope, dh, n, 1);
        detail::normAndRotate(q, c.heads, dh, L.qNorm, c.layerNormEps, rope, 0);
        detail::normAndRotate(k, c.kvHeads, dh, L.kNorm, c.layerNormEps, rope, 0);
        row.resize(1, q.cols() + k.cols() + v.cols());
        row << q, k, v;
    } else {
        layerNorm(x, L.ln1, c.layerNormEps, normed);
        applyDense(normed, L.qkv, row);
    }
    std::copy_n(row.data(), row.cols(), layer.projections.append(row.cols()));

    FloatMatrix concat(1, c.heads * dh);
    if (attn::Status s = weighHeads(li, concat); !s.ok()) return s;
    if (c.family == Family::Decoder) {
        detail::attentionOutAndMlp(c, L, concat, x);
        return {};
    }
    FloatMatrix a, m, inner, out;
    applyDense(concat, L.attnOut, a);
    x += a;
    layerNorm(x, L.ln2, c.layerNormEps, m);
    detail::feedForward(m, L, c.activation, inner, out);
    x += out;
    return {};
}

// Every head's new row of layer `li` (its projections already appended): the map's row into
// the head's packed map, the output into `concat` (1 x h d_h), one head per thread when the
// rows are long enough to pay for the threads.
attn::Status Decoding::weighHeads(long li, FloatMatrix& concat)
{
    const ModelConfig& c = model_->config();
    Layer& layer = layers_[static_cast<std::size_t>(li)];
    const long n = length() - 1;
    const long rows = n + 1;
    const long h = c.heads;
    const long dh = c.headDim();
    const bool decoder = c.family == Family::Decoder;
    // Offsets of the query, key and value blocks in a kept row (GPT-2's fused c_attn: d each).
    const long kOffset = decoder ? h * dh : c.width;
    const long vOffset = decoder ? kOffset + c.kvHeads * dh : 2 * c.width;
    const long ld = layer.projections.data.cols();
    const float* kept = layer.projections.data.data();
    std::vector<HeadResultT<float>> hooked;
    if (options_.hook) {
        hooked.resize(static_cast<std::size_t>(h));
        const auto used = layer.projections.used();
        for (long j = 0; j < h; ++j) {
            const long g = decoder ? c.kvHeadOf(j) : j;
            HeadResultT<float>& hr = hooked[static_cast<std::size_t>(j)];
            hr.Q = used.middleCols(j * dh, dh);
            hr.K = used.middleCols(kOffset + g * dh, dh);
            hr.V = used.middleCols(vOffset + g * dh, dh);
        }
        if (attn::Status s = detail::hookHeads(options_, li, rows, dh, hooked); !s.ok()) return s;
    }
    const long window = decoder && c.slides(li) ? c.slidingWindow : 0;
    const long start = window > 0 ? std::max(0L, n - window + 1) : 0;
    const float divisor = c.scoreDivisor();
    std::vector<int> faults(static_cast<std::size_t>(h), 0);
    for (std::vector<float>& row : layer.fresh) row.resize(static_cast<std::size_t>(rows));
#pragma omp parallel for schedule(dynamic, 1) if (h * rows * dh >= kParallelCells)
    for (long j = 0; j < h; ++j) {
        const auto sj = static_cast<std::size_t>(j);
        const long g = decoder ? c.kvHeadOf(j) : j;
        detail::HeadRows in;
        if (options_.hook) {
            const HeadResultT<float>& hr = hooked[sj];
            in = {&hr.Q(n, 0), hr.K.data(), dh, hr.V.data(), dh};
        } else {
            in = {kept + n * ld + j * dh, kept + kOffset + g * dh, ld, kept + vOffset + g * dh, ld};
        }
        float* weights = layer.fresh[sj].data();
        faults[sj] =
            detail::weighRow(in, start, n, dh, divisor, nullptr, weights, &concat(0, j * dh));
    }
    for (long j = 0; j < h; ++j) {
        const int f = faults[static_cast<std::size_t>(j)];
        if (f != 0) return detail::nonFinite(li, j, f == 1 ? "the scores" : "the scaled scores");
        if (!options_.outputHook) continue;
        FloatMatrix output = concat.middleCols(j * dh, dh);
        options_.outputHook(static_cast<int>(li), static_cast<int>(j), output);
        if (output.rows() != 1 || output.cols() != dh)
            return attn::failure(attn::StatusCode::TensorShape, "",
                                 detail::layerField(li, j, "output"),
                                 "the output hook changed its shape");
        concat.middleCols(j * dh, dh) = output;
    }
    return {};
}

std::size_t Decoding::cacheBytes() const
{
    if (wholeRuns_) {
        std::size_t floats = cachedBytes(whole_) / sizeof(float);
        for (const LayerTrace& t : whole_.layers)
            for (const FloatMatrix& m : t.attention) floats += static_cast<std::size_t>(m.size());
        return floats * sizeof(float);
    }
    std::size_t floats =
        static_cast<std::size_t>(residual_.data.size() + finalHidden_.data.size() + logits_.size());
    for (const Layer& layer : layers_) {
        floats +=
            static_cast<std::size_t>(layer.hidden.data.size() + layer.projections.data.size());
        for (const std::vector<float>& map : layer.maps) floats += map.capacity();
        for (const PooledMap& p : layer.pooled) floats += static_cast<std::size_t>(p.cells.size());
    }
    return floats * sizeof(float);
}

void Decoding::result(ForwardResult& out) const
{
    if (wholeRuns_) {
        out = whole_;
        for (LayerTrace& t : out.layers) {  // kept for no one: forward()'s defaults keep none
            t.normed.resize(0, 0);
            t.projections.resize(0, 0);
        }
        return;
    }
    const long n = length();
    out = ForwardResult{};
    out.ids = ids_;
    out.layers.resize(layers_.size());
    for (std::size_t l = 0; l < layers_.size(); ++l) {
        const Layer& layer = layers_[l];
        LayerTrace& t = out.layers[l];
        t.hidden = layer.hidden.used();
        if (!layer.pooled.empty()) {
            t.pooled = layer.pooled;
            for (const double sum : layer.firstSum)
                t.firstShare.push_back(n > 1 ? static_cast<float>(sum / static_cast<double>(n - 1))
                                             : 0.0f);
            continue;
        }
        t.attention.resize(layer.maps.size());
        t.firstShare.resize(layer.maps.size());
        for (std::size_t h = 0; h < layer.maps.size(); ++h) {
            FloatMatrix& map = t.attention[h];
            map.setZero(n, n);
            const float* packed = layer.maps[h].data();
            for (long i = 0; i < n; ++i, packed += i) std::copy_n(packed, i + 1, &map(i, 0));
            t.firstShare[h] = firstShareOf(map);
        }
    }
    out.residual = residual_.used();
    out.finalHidden = finalHidden_.used();
    out.logitRows = {n - 1};
    out.logits = logits_.transpose();
    out.predictions = {Prediction{n - 1, topTokens(logits_, topK_)}};
}

}  // namespace attn::model
