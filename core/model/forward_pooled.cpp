// SPDX-License-Identifier: GPL-3.0-or-later
// A decoder's attention: every head weighed by attendCausal a block of rows at a time, its map
// kept whole or, in a long run (ForwardOptions::poolAbove), pooled; and the exact map of any head
// of a pooled run made again on demand from the layer's kept queries and keys.
#include <cmath>
#include <string>

#include "core/model/causal_head.h"
#include "core/model/forward_internal.h"

namespace attn::model {

attn::Status detail::attendHeadsCausal(const ForwardOptions& options, long li, const FloatMatrix& x,
                                       long window, bool pooled, long fresh,
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
        in.divisor = static_cast<float>(std::sqrt(static_cast<double>(in.dh)));
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

attn::Status exactMap(const Model& model, const ForwardResult& result, int layer, int head,
                      FloatMatrix& out)
{
    const ModelConfig& c = model.config();
    const std::string name =
        "layer " + std::to_string(layer + 1) + " head " + std::to_string(head + 1);
    if (layer < 0 || static_cast<std::size_t>(layer) >= result.layers.size() || head < 0 ||
        head >= c.heads)
        return attn::failure(attn::StatusCode::BadLayer, "", name,
                             "the run has " + std::to_string(result.layers.size()) + " layers of " +
                                 std::to_string(c.heads) + " heads");
    const LayerTrace& t = result.layers[static_cast<std::size_t>(layer)];
    if (static_cast<std::size_t>(head) < t.attention.size()) {
        out = t.attention[static_cast<std::size_t>(head)];
        return {};
    }
    const long n = static_cast<long>(result.ids.size());
    const long dh = c.headDim();
    const long qWidth = c.heads * dh;
    if (c.family != Family::Decoder || t.projections.rows() != n ||
        t.projections.cols() < qWidth + c.kvHeads * dh)
        return attn::failure(attn::StatusCode::BadLayer, "", name,
                             "the run kept neither its map nor its queries and keys");
    CausalHeadInput in;
    in.q = t.projections.data() + head * dh;
    in.ldq = t.projections.cols();
    in.k = t.projections.data() + qWidth + c.kvHeadOf(head) * dh;
    in.ldk = t.projections.cols();
    in.n = n;
    in.dh = dh;
    in.window = c.slides(layer) && c.slidingWindow < n ? c.slidingWindow : 0;
    in.divisor = static_cast<float>(std::sqrt(static_cast<double>(dh)));
    CausalHeadOutput want;
    want.weights = &out;
    return attendCausal(in, want);
}

bool headScore(const Model& model, const ForwardResult& result, int layer, int head, long query,
               long key, float& score)
{
    const ModelConfig& c = model.config();
    if (c.family != Family::Decoder || layer < 0 ||
        static_cast<std::size_t>(layer) >= result.layers.size() || head < 0 || head >= c.heads)
        return false;
    const FloatMatrix& p = result.layers[static_cast<std::size_t>(layer)].projections;
    const long dh = c.headDim();
    const long qWidth = c.heads * dh;
    if (query < 0 || key < 0 || query >= p.rows() || key >= p.rows() ||
        p.cols() < qWidth + c.kvHeads * dh)
        return false;
    const auto q = p.row(query).segment(head * dh, dh);
    const auto k = p.row(key).segment(qWidth + c.kvHeadOf(head) * dh, dh);
    score = q.dot(k) / static_cast<float>(std::sqrt(static_cast<double>(dh)));
    return true;
}

}  // namespace attn::model
