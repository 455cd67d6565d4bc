// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/model/seq2seq_decode.h"

#include <algorithm>
#include <cmath>
#include <new>
#include <string>

#include "core/model/forward_internal.h"
#include "core/model/seq2seq_edit.h"
#include "core/model/seq2seq_internal.h"
#include "core/softmax.h"

namespace attn::model {

namespace {

using StridedRows = Eigen::Map<const FloatMatrix, 0, Eigen::OuterStride<>>;

bool runsWhole(const std::vector<HeadEdit>& edits)
{
    return std::any_of(edits.begin(), edits.end(), [](const HeadEdit& e) {
        return e.kind == HeadEditKind::AblateMean && e.attention != AttentionKind::Encoder;
    });
}

attn::Status decoderFault(long layer, long head, AttentionKind kind, const char* stage)
{
    attn::Status s = detail::nonFinite(layer, head, stage);
    s.subject =
        std::string(attentionKindName(kind)) + " " + detail::layerField(layer, head, "attention");
    return s;
}

void copyRow(const FloatMatrix& row, detail::GrowingRows& to)
{
    std::copy_n(row.data(), row.cols(), to.append(row.cols()));
}

}  // namespace

// One attention call of the new (last) query row: every query row so far and the keys and
// values it may see, each with its row stride; where the maps go.
struct Seq2SeqDecoding::Call {
    AttentionKind kind;
    long layer;
    const float* q;
    long ldq, queries;
    const float* k;
    long ldk;
    const float* v;
    long ldv, keys;
    Layer& into;
};

long Seq2SeqDecoding::positions() const
{
    return model_ != nullptr ? model_->config().positions : 0;
}

attn::Status Seq2SeqDecoding::start(const Seq2SeqModel& model, std::span<const int> source,
                                    std::vector<HeadEdit> edits, int topK)
{
    *this = Seq2SeqDecoding{};
    if (!model.loaded())
        return attn::failure(attn::StatusCode::FileOpen, "", "model", "no model loaded");
    const Seq2SeqConfig& c = model.config();
    if (attn::Status s = detail::checkSeq2SeqSide(c, source, "source"); !s.ok()) return s;
    if (attn::Status s =
            checkSeq2SeqEdits(model, static_cast<long>(source.size()), c.positions, edits);
        !s.ok())
        return s;
    Seq2SeqOptions base;
    base.topK = topK;
    base.lastOnly = true;
    const Seq2SeqOptions options = edits.empty() ? base : withSeq2SeqEdits(base, edits);
    Seq2SeqResult encoded;
    if (attn::Status s = encodeSeq2Seq(model, source, options, encoded); !s.ok()) return s;
    model_ = &model;
    options_ = options;
    edits_ = std::move(edits);
    topK_ = topK;
    wholeRuns_ = runsWhole(edits_);
    encoded_ = std::move(encoded);
    if (!wholeRuns_) {
        layers_.resize(model.decoder().layers.size());
        for (std::size_t l = 0; l < layers_.size(); ++l) {
            const Seq2SeqLayer& L = model.decoder().layers[l];
            applyDense(encoded_.encoderOutput, L.cross.k, layers_[l].crossK);
            applyDense(encoded_.encoderOutput, L.cross.v, layers_[l].crossV);
            layers_[l].maps.resize(static_cast<std::size_t>(c.heads));
            layers_[l].crossMaps.resize(static_cast<std::size_t>(c.heads));
        }
    }
    if (attn::Status s = append(c.decoderStartTokenId); !s.ok()) {
        *this = Seq2SeqDecoding{};
        return s;
    }
    return {};
}

attn::Status Seq2SeqDecoding::append(int id)
{
    if (model_ == nullptr)
        return attn::failure(attn::StatusCode::EmptyInput, "", "target", "nothing was started");
    std::vector<int> next = ids_;
    next.push_back(id);
    if (attn::Status s = detail::checkSeq2SeqSide(model_->config(), next, "target"); !s.ok())
        return s;
    const long n = length();
    const Eigen::VectorXf before = logits_;
    attn::Status s;
    try {
        if (wholeRuns_) {
            Seq2SeqResult run = encoded_;
            s = decodeSeq2Seq(*model_, next, options_, run);
            if (!s.ok()) return s;
            ids_ = std::move(next);
            logits_ = run.logits.row(run.logits.rows() - 1).transpose();
            encoded_ = std::move(run);
            return {};
        }
        s = appendRow(id);
    } catch (const std::bad_alloc&) {
        s = attn::failure(attn::StatusCode::TooLong, "", "target",
                          "out of memory for this many tokens");
    }
    if (!s.ok()) {
        truncate(n);
        logits_ = before;
    }
    return s;
}

void Seq2SeqDecoding::truncate(long n)
{
    ids_.resize(std::min(ids_.size(), static_cast<std::size_t>(n)));
    const auto cells = static_cast<std::size_t>(n * (n + 1) / 2);
    for (Layer& layer : layers_) {
        for (Rows* r : {&layer.hidden, &layer.self, &layer.crossInput, &layer.crossQ})
            r->truncate(n);
        for (std::vector<float>& map : layer.maps) map.resize(std::min(map.size(), cells));
        for (Rows& map : layer.crossMaps) map.truncate(n);
    }
    finalHidden_.truncate(n);
}

attn::Status Seq2SeqDecoding::appendRow(int id)
{
    const Seq2SeqConfig& c = model_->config();
    const long n = length();  // the new token's position
    ids_.push_back(id);
    FloatMatrix x;
    detail::embedSeq2Seq(*model_, model_->decoder(), std::span<const int>(&id, 1), n, x);
    for (long li = 0; li < c.decoderLayers; ++li) {
        if (!x.allFinite())
            return detail::nonFinite(li - 1, -1,
                                     li > 0 ? "the decoder layer's output" : "the embeddings");
        if (attn::Status s = stepLayer(li, x); !s.ok()) return s;
    }
    if (c.isT5()) {
        FloatMatrix normed;
        detail::rmsNormRows(x, model_->decoder().finalNorm, c.normEps, normed);
        x = std::move(normed);
    }
    FloatMatrix logits;
    detail::seq2seqLogits(*model_, x, logits);
    if (!logits.allFinite())
        return attn::failure(attn::StatusCode::NonFinite, "", "logits",
                             "the logits hold a value that is not finite");
    copyRow(x, finalHidden_);
    logits_ = logits.row(0).transpose();
    return {};
}

attn::Status Seq2SeqDecoding::stepLayer(long li, FloatMatrix& x)
{
    const Seq2SeqConfig& c = model_->config();
    const Seq2SeqLayer& L = model_->decoder().layers[static_cast<std::size_t>(li)];
    Layer& layer = layers_[static_cast<std::size_t>(li)];
    const bool t5 = c.isT5();
    const long d = c.heads * c.headDim;
    copyRow(x, layer.hidden);
    FloatMatrix normed, q, k, v, out, concat(1, d);
    if (t5) detail::rmsNormRows(x, L.selfNorm, c.normEps, normed);
    const FloatMatrix& selfIn = t5 ? normed : x;
    applyDense(selfIn, L.self.q, q);
    applyDense(selfIn, L.self.k, k);
    applyDense(selfIn, L.self.v, v);
    float* row = layer.self.append(3 * d);
    std::copy_n(q.data(), d, row);
    std::copy_n(k.data(), d, row + d);
    std::copy_n(v.data(), d, row + 2 * d);
    const float* kept = layer.self.data.data();
    const long ld = layer.self.data.cols();
    const long rows = layer.self.rows;
    const Call self{AttentionKind::Decoder, li, kept, ld,   rows, kept + d, ld,
                    kept + 2 * d,           ld, rows, layer};
    if (attn::Status s = attendRow(self, concat); !s.ok()) return s;
    applyDense(concat, L.self.out, out);
    x += out;
    if (!t5) {
        layerNorm(x, L.selfNorm, c.normEps, normed);
        x = normed;
    }
    if (t5) detail::rmsNormRows(x, L.crossNorm, c.normEps, normed);
    const FloatMatrix& crossIn = t5 ? normed : x;
    copyRow(crossIn, layer.crossInput);
    applyDense(crossIn, L.cross.q, q);
    copyRow(q, layer.crossQ);
    const long m = layer.crossK.rows();
    const Call cross{AttentionKind::Cross,
                     li,
                     layer.crossQ.data.data(),
                     d,
                     layer.crossQ.rows,
                     layer.crossK.data(),
                     d,
                     layer.crossV.data(),
                     d,
                     m,
                     layer};
    if (attn::Status s = attendRow(cross, concat); !s.ok()) return s;
    applyDense(concat, L.cross.out, out);
    x += out;
    if (t5) {
        detail::rmsNormRows(x, L.ffnNorm, c.normEps, normed);
        detail::seq2seqFeedForward(c, L, normed, out);
        x += out;
        return {};
    }
    layerNorm(x, L.crossNorm, c.normEps, normed);
    x = normed;
    detail::seq2seqFeedForward(c, L, x, out);
    x += out;
    layerNorm(x, L.ffnNorm, c.normEps, normed);
    x = std::move(normed);
    return {};
}

// Every head's whole Q, K and V of the call handed to the head hook (edits), in `hooked`.
attn::Status Seq2SeqDecoding::hookCall(const Call& call,
                                       std::vector<HeadResultT<float>>& hooked) const
{
    const long h = model_->config().heads;
    const long dh = model_->config().headDim;
    hooked.resize(static_cast<std::size_t>(h));
    const StridedRows Q(call.q, call.queries, h * dh, Eigen::OuterStride<>(call.ldq));
    const StridedRows K(call.k, call.keys, h * dh, Eigen::OuterStride<>(call.ldk));
    const StridedRows V(call.v, call.keys, h * dh, Eigen::OuterStride<>(call.ldv));
    for (long j = 0; j < h; ++j) {
        HeadResultT<float>& hr = hooked[static_cast<std::size_t>(j)];
        hr.Q = Q.middleCols(j * dh, dh);
        hr.K = K.middleCols(j * dh, dh);
        hr.V = V.middleCols(j * dh, dh);
        options_.hook(call.kind, static_cast<int>(call.layer), static_cast<int>(j), hr);
        if (hr.Q.rows() != call.queries || hr.K.rows() != call.keys || hr.V.rows() != call.keys ||
            hr.Q.cols() != dh || hr.K.cols() != dh || hr.V.cols() != dh)
            return attn::failure(attn::StatusCode::TensorShape, "",
                                 detail::layerField(call.layer, j, "Q/K/V"),
                                 "the head hook changed their shapes");
    }
    return {};
}

// Every head's weights for the call's last query row into its map and its output into
// `concat` (1 x h d_h), one head per thread when the rows are long enough to pay for them.
attn::Status Seq2SeqDecoding::attendRow(const Call& call, FloatMatrix& concat)
{
    const Seq2SeqConfig& c = model_->config();
    const long h = c.heads;
    const long dh = c.headDim;
    const long n = call.queries - 1;
    const bool self = call.kind == AttentionKind::Decoder;
    std::vector<HeadResultT<float>> hooked;
    if (options_.hook)
        if (attn::Status s = hookCall(call, hooked); !s.ok()) return s;
    std::vector<float*> weights(static_cast<std::size_t>(h));
    for (long j = 0; j < h; ++j) {
        const auto sj = static_cast<std::size_t>(j);
        if (self) {
            std::vector<float>& map = call.into.maps[sj];
            map.resize(map.size() + static_cast<std::size_t>(call.keys));
        } else {
            call.into.crossMaps[sj].append(call.keys);
        }
    }
    for (long j = 0; j < h; ++j) {
        const auto sj = static_cast<std::size_t>(j);
        weights[sj] = self ? call.into.maps[sj].data() + call.into.maps[sj].size() - call.keys
                           : &call.into.crossMaps[sj].data(n, 0);
    }
    // T5 adds each head's learned bias of the distance key - query; it does not divide.
    std::vector<float> bias;
    if (c.isT5() && self) {
        bias.resize(static_cast<std::size_t>(h * call.keys));
        const float* table = model_->decoder().relativeBias;
        for (long j = 0; j < h; ++j)
            for (long key = 0; key < call.keys; ++key)
                bias[static_cast<std::size_t>(j * call.keys + key)] =
                    table[relativeBucket(key - n, false, c.relativeBuckets, c.relativeMaxDistance) *
                              h +
                          j];
    }
    const float divisor = c.isT5() ? 1.0f : static_cast<float>(std::sqrt(static_cast<double>(dh)));
    std::vector<int> faults(static_cast<std::size_t>(h), 0);
#pragma omp parallel for schedule(dynamic, 1) if (h * call.keys * dh >= kParallelCells)
    for (long j = 0; j < h; ++j) {
        const auto sj = static_cast<std::size_t>(j);
        detail::HeadRows in;
        if (options_.hook) {
            const HeadResultT<float>& hr = hooked[sj];
            in = {&hr.Q(n, 0), hr.K.data(), dh, hr.V.data(), dh};
        } else {
            in = {call.q + n * call.ldq + j * dh, call.k + j * dh, call.ldk, call.v + j * dh,
                  call.ldv};
        }
        faults[sj] = detail::weighRow(in, 0, call.keys - 1, dh, divisor,
                                      bias.empty() ? nullptr : bias.data() + j * call.keys,
                                      weights[sj], &concat(0, j * dh));
    }
    for (long j = 0; j < h; ++j) {
        const int f = faults[static_cast<std::size_t>(j)];
        if (f != 0)
            return decoderFault(call.layer, j, call.kind,
                                f == 1 ? "the scores" : "the scaled scores");
        if (!options_.outputHook) continue;
        FloatMatrix output = concat.middleCols(j * dh, dh);
        options_.outputHook(call.kind, static_cast<int>(call.layer), static_cast<int>(j), output);
        if (output.rows() != 1 || output.cols() != dh)
            return attn::failure(attn::StatusCode::TensorShape, "",
                                 detail::layerField(call.layer, j, "output"),
                                 "the output hook changed its shape");
        concat.middleCols(j * dh, dh) = output;
    }
    return {};
}

std::size_t Seq2SeqDecoding::cacheBytes() const
{
    std::size_t floats = static_cast<std::size_t>(encoded_.encoderOutput.size() +
                                                  finalHidden_.data.size() + logits_.size());
    for (const LayerTrace& t : encoded_.encoder) {
        floats += static_cast<std::size_t>(t.hidden.size());
        for (const FloatMatrix& m : t.attention) floats += static_cast<std::size_t>(m.size());
    }
    for (const LayerTrace& t : encoded_.decoder) {
        floats += static_cast<std::size_t>(t.hidden.size());
        for (const FloatMatrix& m : t.attention) floats += static_cast<std::size_t>(m.size());
    }
    for (const std::vector<FloatMatrix>& heads : encoded_.cross)
        for (const FloatMatrix& m : heads) floats += static_cast<std::size_t>(m.size());
    for (const Layer& layer : layers_) {
        for (const Rows* r : {&layer.hidden, &layer.self, &layer.crossInput, &layer.crossQ})
            floats += static_cast<std::size_t>(r->data.size());
        floats += static_cast<std::size_t>(layer.crossK.size() + layer.crossV.size());
        for (const std::vector<float>& map : layer.maps) floats += map.capacity();
        for (const Rows& map : layer.crossMaps) floats += static_cast<std::size_t>(map.data.size());
    }
    return floats * sizeof(float);
}

void Seq2SeqDecoding::result(Seq2SeqResult& out) const
{
    out = encoded_;
    if (wholeRuns_) return;
    const long n = length();
    out.targetIds = ids_;
    out.decoder.assign(layers_.size(), LayerTrace{});
    out.cross.assign(layers_.size(), {});
    out.crossInputs.assign(layers_.size(), {});
    for (std::size_t l = 0; l < layers_.size(); ++l) {
        const Layer& layer = layers_[l];
        LayerTrace& t = out.decoder[l];
        t.hidden = layer.hidden.used();
        t.attention.resize(layer.maps.size());
        for (std::size_t h = 0; h < layer.maps.size(); ++h) {
            FloatMatrix& map = t.attention[h];
            map.setZero(n, n);
            const float* packed = layer.maps[h].data();
            for (long i = 0; i < n; ++i, packed += i) std::copy_n(packed, i + 1, &map(i, 0));
        }
        for (const Rows& map : layer.crossMaps) out.cross[l].push_back(map.used());
        out.crossInputs[l] = layer.crossInput.used();
    }
    out.finalHidden = finalHidden_.used();
    out.logits = logits_.transpose();
    out.predictions = {Prediction{n - 1, topTokens(logits_, topK_)}};
}

}  // namespace attn::model
