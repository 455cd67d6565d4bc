// SPDX-License-Identifier: GPL-3.0-or-later
// A decoder's attention: every head weighed by attendCausal a block of rows at a time, its map
// kept whole or, in a long run (ForwardOptions::poolAbove), pooled; and the exact map of any head
// of a pooled run made again on demand from the layer's kept input.
#include <cmath>
#include <string>

#include "core/model/causal_head.h"
#include "core/model/forward_internal.h"

namespace attn::model {

attn::Status detail::attendHeadsCausal(const ForwardOptions& options, long li, const FloatMatrix& x,
                                       long window, float divisor, bool pooled, long fresh,
                                       std::vector<HeadResultT<float>>& heads, LayerTrace& trace,
                                       FloatMatrix& concat)
{
    const long h = static_cast<long>(heads.size());
    const long n = x.rows();
    if (pooled) {
        trace.attention.clear();
        trace.pooled.assign(static_cast<std::size_t>(h), PooledMap());
    } else {
        trace.pooled.clear();
    }
    trace.firstShare.assign(static_cast<std::size_t>(h), 0.0f);
    std::vector<Status> statuses(static_cast<std::size_t>(h));
    // One head per thread, as attendHeads; each head's blocks then run on its thread.
#pragma omp parallel for schedule(dynamic, 1)
    for (long j = 0; j < h; ++j) {
        const auto sj = static_cast<std::size_t>(j);
        HeadResultT<float>& hr = heads[sj];
        CausalHeadInput in;
        in.q = hr.Q.data();
        in.ldq = hr.Q.cols();
        in.k = hr.K.data();
        in.ldk = hr.K.cols();
        in.v = hr.V.data();
        in.ldv = hr.V.cols();
        in.n = n;
        in.dh = hr.Q.cols();
        in.dv = hr.V.cols();
        in.window = window;
        in.divisor = divisor;
        CausalHeadOutput out;
        if (pooled) {
            out.pooled = &trace.pooled[sj];
            out.side = options.poolSide;
            hr.weights.resize(0, 0);  // a whole map from an earlier, shorter run
        } else {
            out.weights = &hr.weights;
        }
        out.output = &hr.output;
        out.firstShare = &trace.firstShare[sj];
        statuses[sj] = attendCausal(in, out);
    }
    if (attn::Status s = finishHeads(options, li, x, statuses, fresh, heads, concat); !s.ok())
        return s;
    if (!pooled) {
        trace.attention.resize(static_cast<std::size_t>(h));
        for (long j = 0; j < h; ++j)  // the head reuses the old buffer in the next layer
            trace.attention[static_cast<std::size_t>(j)].swap(
                heads[static_cast<std::size_t>(j)].weights);
    }
    return {};
}

namespace {

std::string headText(int layer, int head)
{
    return "layer " + std::to_string(layer + 1) + " head " + std::to_string(head + 1);
}

// Head `head`'s turned query and key rows of layer `layer`, as the run made them, for the rows
// of `hidden` (the layer's input at positions first, first + 1, ...): RMSNorm, the head's
// columns of q_proj and its key/value head's of k_proj (and of v_proj with `values`), the
// q/k norms, the rotation.
void headVectors(const Model& model, int layer, int head, const FloatMatrix& hidden, long first,
                 bool values, HeadResultT<float>& hr)
{
    const ModelConfig& c = model.config();
    const LayerWeights& L = model.layers()[static_cast<std::size_t>(layer)];
    const long dh = c.headDim();
    const long g = c.kvHeadOf(head);
    FloatMatrix normed;
    detail::rmsNormRows(hidden, L.ln1, c.layerNormEps, normed);
    applyDense(normed, L.q.outputRange(head * dh, dh), hr.Q);
    applyDense(normed, L.k.outputRange(g * dh, dh), hr.K);
    if (values)
        applyDense(normed, L.v.outputRange(g * dh, dh), hr.V);
    else
        hr.V.resize(0, 0);
    const RopeTable rope = ropeTable(c.rope, dh, first, hidden.rows());
    detail::normAndRotate(hr.Q, 1, dh, L.qNorm, c.layerNormEps, rope, 0);
    detail::normAndRotate(hr.K, 1, dh, L.kNorm, c.layerNormEps, rope, 0);
}

bool decoderHead(const Model& model, const ForwardResult& result, int layer, int head)
{
    const ModelConfig& c = model.config();
    return c.family == Family::Decoder && layer >= 0 &&
           static_cast<std::size_t>(layer) < result.layers.size() && head >= 0 && head < c.heads &&
           result.layers[static_cast<std::size_t>(layer)].hidden.rows() ==
               static_cast<long>(result.ids.size());
}

}  // namespace

namespace {

attn::Status outsideRun(const ModelConfig& c, const ForwardResult& result, int layer, int head)
{
    return attn::failure(attn::StatusCode::BadLayer, "", headText(layer, head),
                         "the run has " + std::to_string(result.layers.size()) + " layers of " +
                             std::to_string(c.heads) + " heads");
}

attn::Status notKept(int layer, int head)
{
    return attn::failure(attn::StatusCode::BadLayer, "", headText(layer, head),
                         "the run kept neither its map nor its layer's input");
}

// The hook's edits of one head's vectors, then its map by attendCausal from `hr`.
attn::Status attendExact(const ModelConfig& c, int layer, int head, long n, HeadResultT<float>& hr,
                         const HeadHook& hook, FloatMatrix& out)
{
    const long dh = c.headDim();
    if (hook) {
        hook(layer, head, hr);
        if (hr.Q.rows() != n || hr.Q.cols() != dh || hr.K.rows() != n || hr.K.cols() != dh)
            return attn::failure(attn::StatusCode::TensorShape, "", headText(layer, head),
                                 "the head hook changed the shape of Q or K");
    }
    CausalHeadInput in;
    in.q = hr.Q.data();
    in.ldq = dh;
    in.k = hr.K.data();
    in.ldk = dh;
    in.n = n;
    in.dh = dh;
    in.window = c.slides(layer) && c.slidingWindow < n ? c.slidingWindow : 0;
    in.divisor = c.scoreDivisor();
    CausalHeadOutput want;
    want.weights = &out;
    return attendCausal(in, want);
}

}  // namespace

attn::Status exactMap(const Model& model, const ForwardResult& result, int layer, int head,
                      FloatMatrix& out, const HeadHook& hook)
{
    const ModelConfig& c = model.config();
    if (layer < 0 || static_cast<std::size_t>(layer) >= result.layers.size() || head < 0 ||
        head >= c.heads)
        return outsideRun(c, result, layer, head);
    const LayerTrace& t = result.layers[static_cast<std::size_t>(layer)];
    if (static_cast<std::size_t>(head) < t.attention.size()) {
        out = t.attention[static_cast<std::size_t>(head)];
        return {};
    }
    if (!decoderHead(model, result, layer, head)) return notKept(layer, head);
    HeadResultT<float> hr;
    headVectors(model, layer, head, t.hidden, 0, static_cast<bool>(hook), hr);
    return attendExact(c, layer, head, static_cast<long>(result.ids.size()), hr, hook, out);
}

attn::Status layerVectors(const Model& model, const ForwardResult& result, int layer, bool values,
                          LayerVectors& out)
{
    const ModelConfig& c = model.config();
    if (layer < 0 || static_cast<std::size_t>(layer) >= result.layers.size())
        return outsideRun(c, result, layer, 0);
    if (!decoderHead(model, result, layer, 0)) return notKept(layer, 0);
    const LayerWeights& L = model.layers()[static_cast<std::size_t>(layer)];
    const FloatMatrix& hidden = result.layers[static_cast<std::size_t>(layer)].hidden;
    const long dh = c.headDim();
    FloatMatrix normed;
    detail::rmsNormRows(hidden, L.ln1, c.layerNormEps, normed);
    applyDense(normed, L.q, out.Q);
    applyDense(normed, L.k, out.K);
    if (values)
        applyDense(normed, L.v, out.V);
    else
        out.V.resize(0, 0);
    const RopeTable rope = ropeTable(c.rope, dh, 0, hidden.rows());
    detail::normAndRotate(out.Q, c.heads, dh, L.qNorm, c.layerNormEps, rope, 0);
    detail::normAndRotate(out.K, c.kvHeads, dh, L.kNorm, c.layerNormEps, rope, 0);
    out.layer = layer;
    return {};
}

attn::Status exactMap(const Model& model, const ForwardResult& result, const LayerVectors& vectors,
                      int head, FloatMatrix& out, const HeadHook& hook)
{
    const ModelConfig& c = model.config();
    const int layer = vectors.layer;
    if (layer < 0 || static_cast<std::size_t>(layer) >= result.layers.size() || head < 0 ||
        head >= c.heads)
        return outsideRun(c, result, layer, head);
    const long n = static_cast<long>(result.ids.size());
    const long dh = c.headDim();
    const long g = c.kvHeadOf(head);
    if (vectors.Q.rows() != n || vectors.Q.cols() != c.heads * dh || vectors.K.rows() != n ||
        vectors.K.cols() != c.kvHeads * dh || (hook && vectors.V.rows() != n))
        return attn::failure(attn::StatusCode::TensorShape, "", headText(layer, head),
                             "the layer's vectors are not of this run");
    HeadResultT<float> hr;
    hr.Q = vectors.Q.middleCols(head * dh, dh);
    hr.K = vectors.K.middleCols(g * dh, dh);
    if (hook) hr.V = vectors.V.middleCols(g * dh, dh);
    return attendExact(c, layer, head, n, hr, hook, out);
}

bool headScore(const Model& model, const ForwardResult& result, int layer, int head, long query,
               long key, float& score)
{
    const long n = static_cast<long>(result.ids.size());
    if (!decoderHead(model, result, layer, head) || query < 0 || key < 0 || query >= n || key >= n)
        return false;
    const FloatMatrix& hidden = result.layers[static_cast<std::size_t>(layer)].hidden;
    HeadResultT<float> atQuery, atKey;
    headVectors(model, layer, head, hidden.row(query), query, false, atQuery);
    headVectors(model, layer, head, hidden.row(key), key, false, atKey);
    score = atQuery.Q.row(0).dot(atKey.K.row(0)) / model.config().scoreDivisor();
    return true;
}

}  // namespace attn::model
