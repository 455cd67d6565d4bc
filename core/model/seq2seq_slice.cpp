// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/model/seq2seq_slice.h"

#include <string>

#include "core/model/head_slice.h"

namespace attn::model {

attn::Status sliceCrossHead(const Seq2SeqModel& model, const Seq2SeqResult& result, int layer,
                            int head, CrossSlice& out)
{
    const Seq2SeqConfig& c = model.config();
    const std::string name =
        "cross layer " + std::to_string(layer + 1) + " head " + std::to_string(head + 1);
    if (!model.loaded() || layer < 0 || layer >= c.decoderLayers || head < 0 || head >= c.heads)
        return attn::failure(attn::StatusCode::BadLayer, "", name,
                             "the model has " + std::to_string(c.decoderLayers) +
                                 " decoder layers of " + std::to_string(c.heads) + " heads");
    const auto l = static_cast<std::size_t>(layer);
    if (result.crossInputs.size() <= l ||
        result.crossInputs[l].rows() != static_cast<long>(result.targetIds.size()) ||
        result.encoderOutput.rows() != static_cast<long>(result.sourceIds.size()) ||
        result.targetIds.empty() || result.sourceIds.empty())
        return attn::failure(attn::StatusCode::BadLayer, "", name,
                             "the run kept no input for this layer");
    const Seq2SeqAttention& w = model.decoder().layers[l].cross;
    const long dh = c.headDim;
    CrossSlice slice;
    slice.X = result.crossInputs[l];
    slice.Y = result.encoderOutput;
    denseColumns(w.q, head * dh, dh, slice.W_Q, slice.b_Q);
    denseColumns(w.k, head * dh, dh, slice.W_K, slice.b_K);
    denseColumns(w.v, head * dh, dh, slice.W_V, slice.b_V);
    slice.scaled = !c.isT5();
    out = std::move(slice);
    return {};
}

AttentionInput crossHeadInput(const CrossSlice& slice)
{
    AttentionInput in;
    in.X = slice.X.cast<double>();
    in.Y = slice.Y.cast<double>();
    HeadParams p;
    p.W_Q = slice.W_Q.cast<double>();
    p.W_K = slice.W_K.cast<double>();
    p.W_V = slice.W_V.cast<double>();
    p.b_Q = slice.b_Q.cast<double>();
    p.b_K = slice.b_K.cast<double>();
    p.b_V = slice.b_V.cast<double>();
    in.heads.push_back(std::move(p));
    in.mode = Mode::Cross;
    in.scaling = slice.scaled ? Scaling::SqrtDk : Scaling::None;
    in.score = ScoreFunction::Dot;
    return in;
}

}  // namespace attn::model
