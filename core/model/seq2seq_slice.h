// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// One cross-attention head of an encoder-decoder taken out as the attention core's input in
// cross mode: the workbench's "cross-attention source" fed by a real model.
//
// Shapes (n target and m source tokens, d = d_model, d_h = the head's width):
//   X        n x d    what the layer's cross-attention makes its queries from: the decoder's
//                     stream after the self-attention sub-layer (T5: through its RMSNorm)
//   Y        m x d    the encoder's final output, which every cross-attention reads
//   W_Q/K/V  d x d_h  the head's columns of the layer's cross q, k and v (stored [out, in],
//                     transposed here); b_Q/K/V their biases (zero for T5)
// so that softmax(Q K^T / sqrt(d_h)) with Q = X W_Q + b_Q and K = Y W_K + b_K is the model's
// cross map of that head (T5 does not divide by sqrt(d_h), and adds no position bias to
// cross-attention).

#include "core/attention_input.h"
#include "core/model/seq2seq_forward.h"

namespace attn::model {

struct CrossSlice {
    FloatMatrix X;
    FloatMatrix Y;
    FloatMatrix W_Q, W_K, W_V;
    Eigen::VectorXf b_Q, b_K, b_V;
    bool scaled = true;  // false for T5
};

// Takes cross head `head` of decoder layer `layer` (from 0) out of `result`, a run of `model`.
// BadLayer naming "cross layer L head H" when it is outside the model or the run kept no input
// for that layer.
attn::Status sliceCrossHead(const Seq2SeqModel& model, const Seq2SeqResult& result, int layer,
                            int head, CrossSlice& out);

// The attention core's input for a slice: X and Y, one head's W and b (in double), cross mode,
// scaling by sqrt(d_h) or none, no W_O, no edits.
AttentionInput crossHeadInput(const CrossSlice& slice);

}  // namespace attn::model
