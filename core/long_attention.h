// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Attention over long sequences (n = 16,384 to 32,768 and beyond) within the memory budget.
// Float throughout, and of the n x m stages only the weights P are kept: the raw and scaled
// scores of a block of query rows live in a per-thread buffer while the block's softmax is
// taken, then are dropped (longRowScores recomputes one row's scores when someone looks at it).
// A causal or self map at n = 32,768 with d_k = 64 holds 4 GiB of weights instead of the
// 26.8 GiB that every stage in double would take.
//
// Shapes and steps are those of core/attention.h (Q = X W_Q, …, P = softmax(Q K^T / divisor),
// output = P V, concat W_O). Additive scores are computed too, but they cost d_a tanh per cell
// (7 x 10^10 at n = 32,768, d_a = 64): minutes, not seconds.

#include <cstddef>
#include <functional>
#include <vector>

#include "core/attention.h"

namespace attn {

struct LongHead {
    MatrixT<float> Q, K, V;  // with rotary positions, Q and K turned by their positions
    MatrixT<float> weights;  // P, n x m; masked cells exactly 0, a fully masked row all 0
    MatrixT<float> output;   // P V, n x d_v
    VectorT<float> entropy;  // per row, nats (0 for a fully masked row)
    VectorT<float> maxWeight;
    Eigen::VectorXi argmax;  // -1 for a fully masked row
};

struct LongResult {
    std::vector<LongHead> heads;
    MatrixT<float> output;  // concat W_O (concat when there is no W_O)
    MaskKind maskKind = MaskKind::None;
    BoolMatrix general;  // the effective mask when maskKind is General, else empty
};

// Progress in [0, 1], called on the calling thread between blocks of rows and at the end of each
// head; returning false cancels the computation (the result untouched).
using LongProgress = std::function<bool(double fraction)>;

struct LongOutcome {
    Status status;           // the core's refusal or fault, as computeAttention names them
    bool cancelled = false;  // the progress callback asked to stop
    [[nodiscard]] bool ok() const { return status.ok() && !cancelled; }
};

// What computeLongAttention holds: per head P, Q, K, V and the output, the per-row facts, the
// per-thread score buffers, plus the final output and a general mask (`threads` buffers; 0: as
// many as the core's OpenMP threads).
std::size_t estimateLongBytes(const AttentionInput& input, int threads = 0);

// Checks the input as validate() does, but against estimateLongBytes.
Status validateLong(const AttentionInput& input, const Limits& limits, int threads = 0);

// Computes every head into `result` (replaced only when the outcome is ok()). NonFinite names
// the stage as computeAttention does. `recycle` (may be `result` itself): its weights' memory
// is taken for the new weights when the shapes agree, so that a recomputation touches no
// fresh pages (clearing 4 GiB of them was half of a 32,768 run); its heads are left empty
// whatever the outcome.
LongOutcome computeLongAttention(const AttentionInput& input, LongResult& result,
                                 const Limits& limits = {}, const LongProgress& progress = {},
                                 LongResult* recycle = nullptr);

// Row i of head `head`'s raw scores (q_i · k_j, or additive) and scaled scores, recomputed from
// Q and K in O(m d_k): what a hovered cell or the row inspector shows.
void longRowScores(const AttentionInput& input, const LongResult& result, int head, long i,
                   VectorT<float>& raw, VectorT<float>& scaled);

}  // namespace attn
