// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/model/seq2seq_forward.h"

#include <algorithm>
#include <cmath>
#include <exception>
#include <new>
#include <string>

#include "core/attend_projected.h"
#include "core/model/forward_internal.h"
#include "core/model/seq2seq_internal.h"

namespace attn::model {

namespace detail {

attn::Status checkSeq2SeqSide(const Seq2SeqConfig& c, std::span<const int> ids, const char* side)
{
    const std::string field = side;
    if (ids.empty())
        return attn::failure(attn::StatusCode::EmptyInput, "", field, "no tokens to run");
    if (static_cast<long>(ids.size()) > c.positions) {
        attn::Status s =
            attn::failure(attn::StatusCode::TooLong, "", field,
                          std::to_string(ids.size()) + " tokens exceed the model's " +
                              std::to_string(c.positions) + " positions (text is not truncated)");
        s.value = static_cast<long>(ids.size());
        s.limit = c.positions;
        return s;
    }
    for (std::size_t i = 0; i < ids.size(); ++i)
        if (ids[i] < 0 || ids[i] >= c.vocab) {
            attn::Status s = attn::failure(
                attn::StatusCode::TokenOutOfRange, "", field,
                "token " + std::to_string(i + 1) + " has the id " + std::to_string(ids[i]) +
                    ", outside the vocabulary of " + std::to_string(c.vocab));
            s.position = static_cast<long>(i);
            s.value = ids[i];
            s.limit = c.vocab;
            return s;
        }
    return {};
}

void embedSeq2Seq(const Seq2SeqModel& model, const Seq2SeqStack& stack, std::span<const int> ids,
                  long offset, FloatMatrix& x)
{
    const Seq2SeqConfig& c = model.config();
    const long n = static_cast<long>(ids.size());
    x.resize(n, c.width);
    for (long i = 0; i < n; ++i) model.embeddingRow(ids[static_cast<std::size_t>(i)], &x(i, 0));
    if (c.scaleEmbedding) x *= std::sqrt(static_cast<float>(c.width));
    if (c.family == Seq2SeqFamily::Bart) {
        const ConstRowMap table(stack.positions, c.positions + 2, c.width);
        x += table.middleRows(2 + offset, n);
        FloatMatrix normed;
        layerNorm(x, stack.embeddingNorm, c.normEps, normed);
        x = std::move(normed);
    } else if (c.family == Seq2SeqFamily::Marian) {
        x += model.sinusoids().middleRows(offset, n);
    }
}

void seq2seqFeedForward(const Seq2SeqConfig& c, const Seq2SeqLayer& L, const FloatMatrix& x,
                        FloatMatrix& y)
{
    FloatMatrix inner;
    applyDense(x, L.ffnIn, inner);
    if (c.gatedFfn) {
        FloatMatrix gate;
        applyDense(x, L.ffnGate, gate);
        activate(c.activation, gate);
        inner.array() *= gate.array();
    } else {
        activate(c.activation, inner);
    }
    applyDense(inner, L.ffnOut, y);
}

void seq2seqLogits(const Seq2SeqModel& model, FloatMatrix y, FloatMatrix& logits)
{
    const Seq2SeqConfig& c = model.config();
    // T5 with tied embeddings rescales the output before reusing the input table.
    if (c.isT5() && c.tieWordEmbeddings) y *= 1.0f / std::sqrt(static_cast<float>(c.width));
    applyDense(y, model.outputLayer(), logits);
    if (const float* bias = model.finalLogitsBias())
        logits.rowwise() += ConstVecMap(bias, c.vocab).transpose();
}

}  // namespace detail

namespace {

#define ATTN_TRY(expr)                                     \
    do {                                                   \
        if (attn::Status s_ = (expr); !s_.ok()) return s_; \
    } while (false)

// One stack's context for its layers.
struct Stack {
    AttentionKind kind;
    const Seq2SeqStack& weights;
    std::vector<FloatMatrix> bias;  // T5: each head's position bias for the self-attention
};

struct Pass {
    const Seq2SeqModel& model;
    const Seq2SeqOptions& options;
};

attn::Status headStatus(AttentionKind kind, long layer, long head, attn::Status s)
{
    s.layer = static_cast<int>(layer);
    s.head = static_cast<int>(head);
    s.subject =
        std::string(attentionKindName(kind)) + " " + detail::layerField(layer, head, "attention");
    return s;
}

// One attention block: queries from `x`, keys and values from `source`, every head by the
// core's head pass; the maps go to `maps`, the projected output to `y`.
attn::Status attend(const Pass& pass, AttentionKind kind, long layer, const Seq2SeqAttention& w,
                    const FloatMatrix& x, const FloatMatrix& source,
                    const std::vector<FloatMatrix>* bias, std::vector<FloatMatrix>& maps,
                    FloatMatrix& y)
{
    const Seq2SeqConfig& c = pass.model.config();
    const long h = c.heads;
    const long dh = c.headDim;
    FloatMatrix Q, K, V;
    applyDense(x, w.q, Q);
    applyDense(source, w.k, K);
    applyDense(source, w.v, V);
    std::vector<HeadResultT<float>> heads(static_cast<std::size_t>(h));
    for (long j = 0; j < h; ++j) {
        HeadResultT<float>& hr = heads[static_cast<std::size_t>(j)];
        hr.Q = Q.middleCols(j * dh, dh);
        hr.K = K.middleCols(j * dh, dh);
        hr.V = V.middleCols(j * dh, dh);
        if (pass.options.hook) {
            pass.options.hook(kind, static_cast<int>(layer), static_cast<int>(j), hr);
            if (hr.Q.rows() != x.rows() || hr.Q.cols() != dh || hr.K.rows() != source.rows() ||
                hr.K.cols() != dh || hr.V.rows() != source.rows() || hr.V.cols() != dh)
                return headStatus(kind, layer, j,
                                  attn::failure(attn::StatusCode::TensorShape, "", "Q/K/V",
                                                "the head hook changed their shapes"));
        }
    }
    const Mode mode = kind == AttentionKind::Decoder ? Mode::Causal
                      : kind == AttentionKind::Cross ? Mode::Cross
                                                     : Mode::Self;
    const Scaling scaling = c.isT5() ? Scaling::None : Scaling::SqrtDk;
    std::vector<attn::Status> statuses(static_cast<std::size_t>(h));
#pragma omp parallel for schedule(dynamic, 1)
    for (long j = 0; j < h; ++j) {
        const auto u = static_cast<std::size_t>(j);
        statuses[u] = bias != nullptr
                          ? attendProjectedBiased<float>(mode, scaling, (*bias)[u], heads[u])
                          : attendProjected<float>(mode, scaling, heads[u]);
    }
    FloatMatrix joined(x.rows(), h * dh);
    maps.resize(static_cast<std::size_t>(h));
    for (long j = 0; j < h; ++j) {
        const auto u = static_cast<std::size_t>(j);
        if (!statuses[u].ok()) return headStatus(kind, layer, j, statuses[u]);
        if (pass.options.outputHook)
            pass.options.outputHook(kind, static_cast<int>(layer), static_cast<int>(j),
                                    heads[u].output);
        joined.middleCols(j * dh, dh) = heads[u].output;
        maps[u] = std::move(heads[u].weights);
    }
    applyDense(joined, w.out, y);
    return {};
}

// One layer of either stack; `encoded` (decoder layers) is the encoder's output.
// `crossInput` (decoder layers) receives what the cross-attention's queries are made from.
attn::Status runLayer(const Pass& pass, const Stack& stack, long li, const FloatMatrix* encoded,
                      FloatMatrix& x, LayerTrace& trace, std::vector<FloatMatrix>* cross,
                      FloatMatrix* crossInput)
{
    const Seq2SeqConfig& c = pass.model.config();
    const Seq2SeqLayer& L = stack.weights.layers[static_cast<std::size_t>(li)];
    const std::vector<FloatMatrix>* bias = c.isT5() ? &stack.bias : nullptr;
    trace.hidden = x;
    FloatMatrix out, normed;
    if (c.isT5()) {
        detail::rmsNormRows(x, L.selfNorm, c.normEps, normed);
        ATTN_TRY(attend(pass, stack.kind, li, L.self, normed, normed, bias, trace.attention, out));
        x += out;
        if (encoded != nullptr) {
            detail::rmsNormRows(x, L.crossNorm, c.normEps, normed);
            *crossInput = normed;
            ATTN_TRY(attend(pass, AttentionKind::Cross, li, L.cross, normed, *encoded, nullptr,
                            *cross, out));
            x += out;
        }
        detail::rmsNormRows(x, L.ffnNorm, c.normEps, normed);
        detail::seq2seqFeedForward(c, L, normed, out);
        x += out;
        return {};
    }
    ATTN_TRY(attend(pass, stack.kind, li, L.self, x, x, nullptr, trace.attention, out));
    x += out;
    layerNorm(x, L.selfNorm, c.normEps, normed);
    x = normed;
    if (encoded != nullptr) {
        *crossInput = x;
        ATTN_TRY(
            attend(pass, AttentionKind::Cross, li, L.cross, x, *encoded, nullptr, *cross, out));
        x += out;
        layerNorm(x, L.crossNorm, c.normEps, normed);
        x = normed;
    }
    detail::seq2seqFeedForward(c, L, x, out);
    x += out;
    layerNorm(x, L.ffnNorm, c.normEps, normed);
    x = std::move(normed);
    return {};
}

attn::Status cancelled()
{
    return attn::failure(attn::StatusCode::Cancelled, "", "", "the run was cancelled");
}

// Runs a stack's layers from its embeddings; T5's stacks end in their RMSNorm.
attn::Status runStack(const Pass& pass, Stack& stack, std::span<const int> ids,
                      const FloatMatrix* encoded, int done, int total,
                      std::vector<LayerTrace>& traces, std::vector<std::vector<FloatMatrix>>* cross,
                      std::vector<FloatMatrix>* crossInputs, FloatMatrix& x)
{
    const Seq2SeqConfig& c = pass.model.config();
    detail::embedSeq2Seq(pass.model, stack.weights, ids, 0, x);
    const long n = x.rows();
    if (c.isT5())
        for (long j = 0; j < c.heads; ++j)
            stack.bias.push_back(relativePositionBias(c, stack.weights.relativeBias, n, n,
                                                      stack.kind == AttentionKind::Encoder, j));
    const long layers = static_cast<long>(stack.weights.layers.size());
    traces.assign(static_cast<std::size_t>(layers), LayerTrace());
    if (cross != nullptr) cross->assign(static_cast<std::size_t>(layers), {});
    if (crossInputs != nullptr) crossInputs->assign(static_cast<std::size_t>(layers), {});
    for (long li = 0; li < layers; ++li) {
        if (pass.options.progress && !pass.options.progress(done + static_cast<int>(li), total))
            return cancelled();
        const auto l = static_cast<std::size_t>(li);
        ATTN_TRY(runLayer(pass, stack, li, encoded, x, traces[l],
                          cross != nullptr ? &(*cross)[l] : nullptr,
                          crossInputs != nullptr ? &(*crossInputs)[l] : nullptr));
    }
    if (c.isT5()) {
        FloatMatrix normed;
        detail::rmsNormRows(x, stack.weights.finalNorm, c.normEps, normed);
        x = std::move(normed);
    }
    return {};
}

void logitsOf(const Seq2SeqModel& model, const Seq2SeqOptions& options, Seq2SeqResult& r)
{
    detail::seq2seqLogits(
        model, options.lastOnly ? FloatMatrix(r.finalHidden.bottomRows(1)) : r.finalHidden,
        r.logits);
    r.predictions.clear();
    for (long i = 0; i < r.logits.rows(); ++i) {
        Prediction p;
        p.position = options.lastOnly ? r.finalHidden.rows() - 1 : i;
        p.top = topTokens(r.logits.row(i).transpose(), options.topK);
        r.predictions.push_back(std::move(p));
    }
}

}  // namespace

FloatMatrix relativePositionBias(const Seq2SeqConfig& config, const float* table, long queries,
                                 long keys, bool bidirectional, long head)
{
    FloatMatrix bias(queries, keys);
    for (long i = 0; i < queries; ++i)
        for (long j = 0; j < keys; ++j) {
            const long bucket = relativeBucket(j - i, bidirectional, config.relativeBuckets,
                                               config.relativeMaxDistance);
            bias(i, j) = table[bucket * config.heads + head];
        }
    return bias;
}

attn::Status encodeSeq2Seq(const Seq2SeqModel& model, std::span<const int> source,
                           const Seq2SeqOptions& options, Seq2SeqResult& result)
{
    if (!model.loaded())
        return attn::failure(attn::StatusCode::BadLayer, "", "model", "no model is open");
    const Seq2SeqConfig& c = model.config();
    ATTN_TRY(detail::checkSeq2SeqSide(c, source, "source"));
    try {
        const Pass pass{model, options};
        result.sourceIds.assign(source.begin(), source.end());
        const int total = static_cast<int>(c.encoderLayers + c.decoderLayers);
        Stack encoder{AttentionKind::Encoder, model.encoder(), {}};
        return runStack(pass, encoder, source, nullptr, 0, total, result.encoder, nullptr, nullptr,
                        result.encoderOutput);
    } catch (const std::bad_alloc&) {
        return attn::failure(attn::StatusCode::TooLarge, "", "", "not enough memory for the run");
    }
}

attn::Status decodeSeq2Seq(const Seq2SeqModel& model, std::span<const int> target,
                           const Seq2SeqOptions& options, Seq2SeqResult& result)
{
    if (!model.loaded())
        return attn::failure(attn::StatusCode::BadLayer, "", "model", "no model is open");
    const Seq2SeqConfig& c = model.config();
    if (result.encoderOutput.rows() != static_cast<long>(result.sourceIds.size()) ||
        result.encoderOutput.cols() != c.width || result.sourceIds.empty())
        return attn::failure(attn::StatusCode::BadLayer, "", "source",
                             "the source has not been encoded by this model");
    ATTN_TRY(detail::checkSeq2SeqSide(c, target, "target"));
    try {
        const Pass pass{model, options};
        result.targetIds.assign(target.begin(), target.end());
        const int total = static_cast<int>(c.encoderLayers + c.decoderLayers);
        Stack decoder{AttentionKind::Decoder, model.decoder(), {}};
        ATTN_TRY(runStack(pass, decoder, target, &result.encoderOutput,
                          static_cast<int>(c.encoderLayers), total, result.decoder, &result.cross,
                          &result.crossInputs, result.finalHidden));
        if (options.progress && !options.progress(total, total)) return cancelled();
        logitsOf(model, options, result);
        if (!result.logits.allFinite())
            return attn::failure(attn::StatusCode::NonFinite, "", "logits",
                                 "the logits hold a value that is not finite");
        return {};
    } catch (const std::bad_alloc&) {
        return attn::failure(attn::StatusCode::TooLarge, "", "", "not enough memory for the run");
    }
}

attn::Status forwardSeq2Seq(const Seq2SeqModel& model, std::span<const int> source,
                            std::span<const int> target, const Seq2SeqOptions& options,
                            Seq2SeqResult& result)
{
    if (model.loaded()) ATTN_TRY(detail::checkSeq2SeqSide(model.config(), target, "target"));
    ATTN_TRY(encodeSeq2Seq(model, source, options, result));
    return decodeSeq2Seq(model, target, options, result);
}

attn::Status translateGreedy(const Seq2SeqModel& model, std::span<const int> source, long maxTokens,
                             const Seq2SeqOptions& base, std::vector<int>& tokens,
                             Seq2SeqResult& result)
{
    tokens.clear();
    const ProgressCallback progress = base.progress;
    Seq2SeqOptions options = base;
    options.progress = {};
    options.topK = 1;
    options.lastOnly = true;
    ATTN_TRY(encodeSeq2Seq(model, source, options, result));
    const Seq2SeqConfig& c = model.config();
    const long limit = std::min(maxTokens, c.positions - 1);
    std::vector<int> input{c.decoderStartTokenId};
    for (long step = 0; step < limit; ++step) {
        if (progress && !progress(static_cast<int>(step), static_cast<int>(limit)))
            return cancelled();
        ATTN_TRY(decodeSeq2Seq(model, input, options, result));
        const int next = result.predictions.back().top.front().id;
        tokens.push_back(next);
        if (next == c.eosTokenId) break;
        input.push_back(next);
    }
    return {};
}

}  // namespace attn::model
