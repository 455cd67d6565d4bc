// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Which matrices of a session are learned, gathered into one flat vector for an optimiser
// and scattered back. The order is fixed: per head W_Q, W_K, W_V, b_Q, b_K, b_V, W_a, U_a, v
// (those that are learned), then W_O.

#include "core/train/gradients.h"

namespace attn {

struct Trainable {
    bool queries = true;   // W_Q (with shared projections: the one shared matrix)
    bool keys = true;      // W_K (ignored with shared projections)
    bool values = false;   // W_V (ignored with shared projections)
    bool biases = false;   // the biases that the session has (none are added)
    bool additive = true;  // W_a, U_a and v, with additive scoring
    bool output = false;   // W_O, when the session has one
};

long parameterCount(const AttentionInput& input, const Trainable& which);
Vector gatherParameters(const AttentionInput& input, const Trainable& which);
void scatterParameters(const Vector& params, const Trainable& which, AttentionInput& input);
// The gradients in the same order (gradients of matrices the session does not use are 0).
Vector gatherGradients(const GradientsT<double>& grads, const AttentionInput& input,
                       const Trainable& which);

}  // namespace attn
