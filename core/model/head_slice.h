// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// One head of a real model taken out as the attention core's input, and the model run again
// with that head's result replaced: the workbench's side of a real head.
//
// Shapes (n tokens, d = width, d_h = the head's width):
//   X        n x d    what the layer's attention reads (GPT-2: ln_1 of the residual stream;
//                     BERT: the residual stream; decoders: RMSNorm_1 of it)
//   W_Q/K/V  d x d_h  the head's columns of the layer's projections (GPT-2's fused c_attn,
//                     BERT's query/key/value, stored [out, in] there, transposed here; a
//                     decoder's key and value columns are those of the query head's group)
//   b_Q/K/V  d_h      their biases (zero where the model has none)
// so that q_i = x_i W_Q + b_Q (and k, v alike) are the vectors the model's head scores with,
// and softmax(Q K^T / sqrt(d_h)) under the model's mask is the model's map for that head. A
// decoder's q and k are turned by position first (rope), and a sliding window masks more.
// Qwen3 normalises q and k per head after the projection: its X is [q | k | v] (n x 3 d_h)
// with W_Q, W_K, W_V the identity blocks that pick them out (handedOver).
//
// runWithHead() carries a head's weights P (n x n) and output P V (n x d_h), as the workbench
// computed them after its edits, into the model: it re-runs from that layer on, from the
// residual stream an unedited run kept, with the head's output replaced (the other heads and
// every later layer computed as usual), and records P as that head's map.

#include <optional>
#include <span>

#include "core/attention_input.h"
#include "core/model/forward.h"
#include "core/rope_params.h"

namespace attn::model {

struct HeadSlice {
    FloatMatrix X;
    FloatMatrix W_Q, W_K, W_V;
    Eigen::VectorXf b_Q, b_K, b_V;
    bool causal = false;       // GPT-2's and the decoders' mask; BERT attends both ways
    std::optional<Rope> rope;  // decoders: the rotation turning q and k by position
    BoolMatrix window;         // a sliding window's mask (n x n) where the layer slides; else empty
    bool handedOver = false;   // X is the head's [q | k | v] (qwen3's normalised q and k)
};

// Columns [c0, c0 + width) of y = x W + b as a d x width block, and their bias (zero where the
// layer has none).
void denseColumns(const Dense& dense, long c0, long width, FloatMatrix& w, Eigen::VectorXf& b);

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
