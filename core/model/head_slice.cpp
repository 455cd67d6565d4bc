// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/model/head_slice.h"

#include <memory>
#include <string>

#include "core/model/causal_head.h"
#include "core/model/forward_internal.h"

namespace attn::model {

void denseColumns(const Dense& dense, long c0, long width, FloatMatrix& w, Eigen::VectorXf& b)
{
    if (dense.outByIn)
        w = dense.storedRowsWidened(c0, width).transpose();
    else
        w = dense.storedRowsWidened(0, dense.in).middleCols(c0, width);
    if (dense.bias != nullptr)
        b = dense.b().segment(c0, width);
    else
        b = Eigen::VectorXf::Zero(width);
}

namespace {

std::string headName(int layer, int head)
{
    return "layer " + std::to_string(layer + 1) + " head " + std::to_string(head + 1);
}

attn::Status checkHead(const Model& model, const ForwardResult& result, int layer, int head)
{
    const ModelConfig& c = model.config();
    if (layer < 0 || layer >= c.layers || head < 0 || head >= c.heads)
        return attn::failure(attn::StatusCode::BadLayer, "", headName(layer, head),
                             "the model has " + std::to_string(c.layers) + " layers of " +
                                 std::to_string(c.heads) + " heads");
    const auto l = static_cast<std::size_t>(layer);
    if (result.layers.size() != static_cast<std::size_t>(c.layers) ||
        result.layers[l].hidden.rows() != static_cast<long>(result.ids.size()) ||
        result.ids.empty())
        return attn::failure(attn::StatusCode::BadLayer, "", headName(layer, head),
                             "the run has no cached input for this layer");
    return {};
}

// Query i sees keys i - window + 1 .. i (with the causal mask, the window's far edge).
BoolMatrix windowMask(long n, long window)
{
    BoolMatrix mask(n, n);
    for (long i = 0; i < n; ++i)
        for (long j = 0; j < n; ++j) mask(i, j) = i - j < window;
    return mask;
}

// Rows of `m` (n x d_h) through RMSNorm with `norm`'s gamma.
void normHeadRows(FloatMatrix& m, const Norm& norm, float eps)
{
    FloatMatrix normed;
    detail::rmsNormRows(m, norm, eps, normed);
    m.swap(normed);
}

// A decoder's head: query head `head` with the key/value head of its group, turned by the
// model's rotary positions, under its sliding window where the layer has one. Qwen3 normalises
// each head's q and k after the projection, which x W + b cannot express: its slice hands the
// head's q, k (normalised, not yet turned) and v over as X (n x 3 d_h), with projections that
// pick them out, so that the workbench still turns, scores and edits them as the model does.
attn::Status sliceDecoderHead(const Model& model, const ForwardResult& result, int layer, int head,
                              HeadSlice& out)
{
    const ModelConfig& c = model.config();
    const LayerWeights& L = model.layers()[static_cast<std::size_t>(layer)];
    const long dh = c.headDim();
    const long g = c.kvHeadOf(head);
    HeadSlice slice;
    slice.X = attentionInput(model, result, layer);
    denseColumns(L.q, head * dh, dh, slice.W_Q, slice.b_Q);
    denseColumns(L.k, g * dh, dh, slice.W_K, slice.b_K);
    denseColumns(L.v, g * dh, dh, slice.W_V, slice.b_V);
    slice.causal = true;
    slice.rope = c.rope;
    const long n = slice.X.rows();
    if (c.slides(layer) && c.slidingWindow < n) slice.window = windowMask(n, c.slidingWindow);
    if (c.qkNorm) {
        FloatMatrix q = (slice.X * slice.W_Q).rowwise() + slice.b_Q.transpose();
        FloatMatrix k = (slice.X * slice.W_K).rowwise() + slice.b_K.transpose();
        const FloatMatrix v = (slice.X * slice.W_V).rowwise() + slice.b_V.transpose();
        normHeadRows(q, L.qNorm, c.layerNormEps);
        normHeadRows(k, L.kNorm, c.layerNormEps);
        slice.X.resize(n, 3 * dh);
        slice.X << q, k, v;
        const FloatMatrix eye = FloatMatrix::Identity(dh, dh);
        for (FloatMatrix* w : {&slice.W_Q, &slice.W_K, &slice.W_V}) w->setZero(3 * dh, dh);
        slice.W_Q.topRows(dh) = eye;
        slice.W_K.middleRows(dh, dh) = eye;
        slice.W_V.bottomRows(dh) = eye;
        for (Eigen::VectorXf* b : {&slice.b_Q, &slice.b_K, &slice.b_V}) b->setZero(dh);
        slice.handedOver = true;
    }
    out = std::move(slice);
    return {};
}

}  // namespace

attn::Status sliceHead(const Model& model, const ForwardResult& result, int layer, int head,
                       HeadSlice& out)
{
    if (attn::Status s = checkHead(model, result, layer, head); !s.ok()) return s;
    const ModelConfig& c = model.config();
    if (c.family == Family::Decoder) return sliceDecoderHead(model, result, layer, head, out);
    const LayerWeights& L = model.layers()[static_cast<std::size_t>(layer)];
    const long d = c.width;
    const long dh = c.headDim();
    const long c0 = head * dh;
    HeadSlice slice;
    slice.X = attentionInput(model, result, layer);
    if (c.family == Family::Gpt2) {
        denseColumns(L.qkv, c0, dh, slice.W_Q, slice.b_Q);
        denseColumns(L.qkv, d + c0, dh, slice.W_K, slice.b_K);
        denseColumns(L.qkv, 2 * d + c0, dh, slice.W_V, slice.b_V);
        slice.causal = true;
    } else {
        denseColumns(L.q, c0, dh, slice.W_Q, slice.b_Q);
        denseColumns(L.k, c0, dh, slice.W_K, slice.b_K);
        denseColumns(L.v, c0, dh, slice.W_V, slice.b_V);
        slice.causal = false;
    }
    out = std::move(slice);
    return {};
}

AttentionInput headInput(const Model& model, const HeadSlice& slice)
{
    const ModelConfig& c = model.config();
    AttentionInput in;
    in.X = slice.X.cast<double>();
    HeadParams p;
    p.W_Q = slice.W_Q.cast<double>();
    p.W_K = slice.W_K.cast<double>();
    p.W_V = slice.W_V.cast<double>();
    p.b_Q = slice.b_Q.cast<double>();
    p.b_K = slice.b_K.cast<double>();
    p.b_V = slice.b_V.cast<double>();
    in.heads.push_back(std::move(p));
    in.mode = slice.causal ? Mode::Causal : Mode::Self;
    in.rope = slice.rope;
    if (slice.window.size() != 0) in.mask = slice.window;
    in.scaling = c.scalesScores() ? Scaling::SqrtDk : Scaling::None;
    in.score = ScoreFunction::Dot;
    return in;
}

attn::Status runWithHead(const Model& model, const ForwardResult& before, const HeadOverride& o,
                         const ForwardOptions& options, ForwardResult& after)
{
    if (attn::Status s = checkHead(model, before, o.layer, o.head); !s.ok()) return s;
    const long n = static_cast<long>(before.ids.size());
    const long dh = model.config().headDim();
    const std::string name = headName(o.layer, o.head);
    if (o.weights.rows() != n || o.weights.cols() != n)
        return attn::failure(attn::StatusCode::TensorShape, "", name + " weights",
                             "should be " + std::to_string(n) + " x " + std::to_string(n) +
                                 ", not " + std::to_string(o.weights.rows()) + " x " +
                                 std::to_string(o.weights.cols()));
    if (o.output.rows() != n || o.output.cols() != dh)
        return attn::failure(attn::StatusCode::TensorShape, "", name + " output",
                             "should be " + std::to_string(n) + " x " + std::to_string(dh) +
                                 ", not " + std::to_string(o.output.rows()) + " x " +
                                 std::to_string(o.output.cols()));
    if (!o.weights.allFinite() || !o.output.allFinite())
        return attn::failure(attn::StatusCode::NonFinite, "", name,
                             "the head's result is not finite");
    ForwardOptions replaced = options;
    const auto output = std::make_shared<const FloatMatrix>(o.output);
    replaced.outputHook = [output, layer = o.layer, head = o.head, earlier = options.outputHook](
                              int l, int h, FloatMatrix& out) {
        if (earlier) earlier(l, h, out);
        if (l == layer && h == head) out = *output;
    };
    ForwardResult run = before;
    if (attn::Status s = forwardFrom(model, o.layer, replaced, run); !s.ok()) return s;
    LayerTrace& t = run.layers[static_cast<std::size_t>(o.layer)];
    const auto h = static_cast<std::size_t>(o.head);
    if (t.isPooled())
        t.pooled[h] = poolMap(o.weights, t.pooled[h].block);
    else
        t.attention[h] = o.weights;
    if (h < t.firstShare.size()) t.firstShare[h] = firstShareOf(o.weights);
    after = std::move(run);
    return {};
}

}  // namespace attn::model
