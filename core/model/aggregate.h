// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Views of a run's attention that summarise several heads or layers. Each says what it is:
//   headAverage(layer)   the mean of the layer's heads' weights, entry by entry (rows still
//                        sum to 1).
//   attentionRollout     Abnar & Zuidema (2020), "Quantifying Attention Flow in Transformers":
//                        each layer's head average with the residual connection added as the
//                        identity, Â_l = 0.5 Ā_l + 0.5 I (rows renormalised), multiplied from
//                        the first layer up: R_0 = Â_0, R_l = Â_l R_{l-1}. R_l(i, j) estimates
//                        how much of token j reaches position i after layer l.

#include <vector>

#include "core/model/forward.h"

namespace attn::model {

// The mean of the layer's heads (an empty matrix when the layer has none).
FloatMatrix headAverage(const LayerTrace& layer);

// A pooled layer's (LayerTrace::pooled) heads' pooled cells, averaged: each cell the mean of
// the heads' largest weights in that block (so not the pooled mean map, which would be
// smaller wherever the heads' peaks fall apart). Empty for a layer whose maps are whole.
PooledMap pooledHeadAverage(const LayerTrace& layer);

// R_0 .. R_{L-1}, one n x n matrix per layer, from the layers' head averages.
std::vector<FloatMatrix> attentionRollout(const std::vector<FloatMatrix>& averages);

// The head whose weight from `query` to `key` is the largest of the run (ties: the earliest
// layer, then head): where "it" reads "animal" most. layer -1 when the positions are outside
// the run.
struct HeadWeight {
    int layer = -1;
    int head = -1;
    float weight = 0.0f;
};
HeadWeight strongestHead(const std::vector<LayerTrace>& layers, long query, long key);

}  // namespace attn::model
