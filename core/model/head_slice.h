// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// One head of a real model taken out as the attention core's input, and the model run again
// with that head's result replaced: the workbench's side of a real head.
//
// Shapes (n tokens, d = width, d_h = d / heads):
//   X        n x d    what the layer's attention reads (GPT-2: ln_1 of the residual stream;
//                     BERT: the residual stream)
//   W_Q/K/V  d x d_h  the head's columns of the layer's projections (GPT-2's fused c_attn,
//                     BERT's query/key/value, stored [out, in] there, transposed here)
//   b_Q/K/V  d_h      their biases
// so that q_i = x_i W_Q + b_Q (and k, v alike) are the vectors the model's head scores with,
// and softmax(Q K^T / sqrt(d_h)) under the model's mask is the model's map for that head.
//
// runWithHead() carries a head's weights P (n x n) and output P V (n x d_h), as the workbench
// computed them after its edits, into the model: it re-runs from that layer on, from the
// residual stream an unedited run kept, with the head's output replaced (the other heads and
// every later layer computed as usual), and records P as that head's map.

#include <span>

#include "core/attention_input.h"
#include "core/model/forward.h"

namespace attn::model {

struct HeadSlice {
    FloatMatrix X;
    FloatMatrix W_Q, W_K, W_V;
    Eigen::VectorXf b_Q, b_K, b_V;
    bool causal = false;  // GPT-2's mask; BERT attends both ways
};

// Takes head `head` of layer `layer` (from 0) out of `result`, an unedited forward() of `model`.
attn::Status sliceHead(const Model& model, const ForwardResult& result, int layer, int head,
                       HeadSlice& out);

// The attention core's input for one slice: X, one head's W and b (in double), causal or self
// mode, scaling by sqrt(d_h) (or none where the checkpoint says so), no W_O, no edits.
AttentionInput headInput(const Model& model, const HeadSlice& slice);

struct HeadOverride {
    int layer = 0;
    int head = 0;
    FloatMatrix weights;  // n x n
    FloatMatrix output;   // n x d_h
};

// `after` := `before` (a complete forward() of the same ids) with layers from o.layer on run
// again under the override. Refuses a layer or head outside the model and matrices whose shapes
// do not fit the run, naming them; non-finite values are refused too.
attn::Status runWithHead(const Model& model, const ForwardResult& before, const HeadOverride& o,
                         const ForwardOptions& options, ForwardResult& after);

}  // namespace attn::model
