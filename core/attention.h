// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Scaled dot-product (or additive) attention with every intermediate stage kept.
//
// Shapes (n queries from X, m keys from X or, in cross mode, from Y; h heads):
//   1. Q = X W_Q (n x d_k), K = S_K W_K (m x d_k), V = S_K W_V (m x d_v), then vector edits
//      1b. with rotary positions: Q' = Q with row i turned as position i, K' = K with row j
//          turned as position j (core/rope.h); the scores below use Q' and K'
//   2. scores  = Q K^T                 (n x m)   [additive: v^T tanh(W_a q_i + U_a k_j)]
//   3. scaled  = scores / divisor      (n x m)   divisor = 1, sqrt(d_k) or temperature
//   4. weights = row softmax(scaled) over cells the mask allows; masked cells are exactly 0,
//      a fully masked row is all zeros (never NaN, never uniform)
//   5. output  = weights V             (n x d_v)
//   concat = [output_0 ... output_{h-1}] (n x h*d_v); final = concat W_O (n x d_model)
// Masked cells keep their raw and scaled scores (useful to display); only weights are zeroed.

#include <vector>

#include "core/attention_input.h"

namespace attn {

template <typename T>
struct RowDiagnosticsT {
    VectorT<T> entropy;       // -sum p log p, nats; 0 for fully masked rows
    VectorT<T> maxWeight;     // largest weight in the row
    Eigen::VectorXi argmax;   // its column, -1 for fully masked rows
    VectorT<T> jacobianNorm;  // Frobenius norm of d softmax / d scaled = diag(p) - p p^T
    std::vector<bool> fullyMasked;
};

template <typename T>
struct HeadResultT;
namespace detail {
struct SoftmaxBookAccess;
}

// Softmax bookkeeping per row, the engine's own state for incremental updates. Not for
// display: after key edits rowMax is only a reference shift that never decreases, not the
// row's largest scaled score (explainRow() in core/softmax.h gives that).
template <typename T>
struct SoftmaxBookT {
    VectorT<T> rowMax;  // reference shift: the max of scaled over allowed cells when computed
    VectorT<T> rowSum;  // sum of exp(scaled - rowMax) over allowed cells
    VectorT<T>
        rowDot;  // sum of weights * scaled over allowed cells (entropy = max + log sum - dot)
    // Per row, the sums of p, p^2, p^3 and p^4 over every cell but the argmax: with them a key
    // edit, which scales all other cells of a row by one factor, updates the Jacobian norm
    // without another pass over the row.
    Eigen::Matrix<T, Eigen::Dynamic, 4, Eigen::RowMajor> powerSums;
};

template <typename T>
struct HeadResultT {
    // Q and K as projected and edited (what a vector edit changes), V.
    MatrixT<T> Q, K, V;
    // With rotary positions, Q and K with each row turned by its position (step 1b); empty
    // without them.
    MatrixT<T> rotatedQ, rotatedK;
    MatrixT<T> scores;   // raw Q K^T (or additive scores)
    MatrixT<T> scaled;   // scores / divisor
    BoolMatrix mask;     // effective: true = may attend
    MatrixT<T> weights;  // P
    MatrixT<T> output;   // P V
    RowDiagnosticsT<T> diagnostics;

    // The queries and keys the scores are made from: turned ones with rotary positions.
    [[nodiscard]] const MatrixT<T>& scoringQ() const { return rotatedQ.size() != 0 ? rotatedQ : Q; }
    [[nodiscard]] const MatrixT<T>& scoringK() const { return rotatedK.size() != 0 ? rotatedK : K; }

private:
    SoftmaxBookT<T> book_;
    friend struct detail::SoftmaxBookAccess;
};

namespace detail {
// The core's passes (head_pass, softmax, incremental) reach the bookkeeping through this.
struct SoftmaxBookAccess {
    template <typename T>
    static SoftmaxBookT<T>& of(HeadResultT<T>& hr)
    {
        return hr.book_;
    }
};
}  // namespace detail

// How the effective mask is applied: not at all, as the pure lower-triangular
// causal mask (only each row's prefix is computed), or cell by cell.
enum class MaskKind { None, Causal, General };

template <typename T>
struct AttentionResultT {
    std::vector<HeadResultT<T>> heads;
    MatrixT<T> concat;  // n x h*d_v
    MatrixT<T> output;  // concat W_O (or concat when W_O is empty)
    MaskKind maskKind = MaskKind::None;
};

using HeadResult = HeadResultT<double>;
using AttentionResult = AttentionResultT<double>;
using RowDiagnostics = RowDiagnosticsT<double>;

// Recomputes everything from the inputs. On failure `result` is left untouched.
template <typename T>
Status computeAttention(const AttentionInput& input, AttentionResultT<T>& result,
                        const Limits& limits = {});

// Step 1b: sets hr.rotatedQ and hr.rotatedK from hr.Q and hr.K when the input has rotary
// positions, empties them otherwise.
template <typename T>
void turnByPositions(const AttentionInput& input, HeadResultT<T>& hr);

// Fills concat and the final output from the heads' outputs (used after any update).
template <typename T>
void combineHeads(const AttentionInput& input, AttentionResultT<T>& result);

// The effective n x m mask of the mode combined with the custom mask.
BoolMatrix effectiveMask(const AttentionInput& input);
// Classifies an effective mask (all true, exactly lower-triangular, or anything else).
MaskKind classifyMask(const BoolMatrix& mask);

extern template Status computeAttention<double>(const AttentionInput&, AttentionResultT<double>&,
                                                const Limits&);
extern template void turnByPositions<double>(const AttentionInput&, HeadResultT<double>&);
extern template void turnByPositions<float>(const AttentionInput&, HeadResultT<float>&);
extern template void combineHeads<double>(const AttentionInput&, AttentionResultT<double>&);
extern template void combineHeads<float>(const AttentionInput&, AttentionResultT<float>&);
extern template Status computeAttention<float>(const AttentionInput&, AttentionResultT<float>&,
                                               const Limits&);

}  // namespace attn
