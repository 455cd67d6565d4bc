// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The backward pass: gradients of a loss through the whole attention computation of
// core/attention.h, for double and float results.
//
// Shapes (n queries, m keys, h heads; S_K = X, or Y in cross mode). Given the loss's
// cotangents dL/dP (n x m per head), dL/dZ (the scaled scores, n x m per head) and
// dL/dF (the final output, n x d_model, or n x h*d_v without W_O), each head runs:
//   1. dconcat = dF W_O^T, dW_O = concat^T dF             (only with W_O)
//      dO = the head's d_v columns of dconcat             (n x d_v)
//   2. dP += dO V^T,  dV = P^T dO                          (n x m, m x d_v)
//   3. dZ += P .* (dP - rowsum(P .* dP))                   (n x m; 0 on masked cells, so a
//      fully masked row passes nothing back)
//   4. dS = dZ / divisor                                   (divisor = 1, sqrt(d_k) or tau:
//      constants, not learned)
//   5. dot:      dQ = dS K,  dK = dS^T Q
//      additive: t = tanh(W_a q_i + U_a k_j), dH = dS_ij v .* (1 - t^2),
//                dv = sum_ij dS_ij t, dQ = (sum_j dH) W_a, dK = (sum_i dH) U_a,
//                dW_a = sum_ij dH q_i^T, dU_a = sum_ij dH k_j^T
//   6. edits (q' = scale * (q with overridden components replaced)): dq = scale * dq',
//      overridden components get 0
//   7. projections q = x W + b: dW = S^T dQ, db = column sums of dQ, dS += dQ W^T; with
//      shared projections every role's dW and db go to W_Q and b_Q
// Embedding gradients (dX, dY) are summed over every role that reads them.

#include <vector>

#include "core/attention.h"

namespace attn {

template <typename T>
struct HeadGradientsT {
    MatrixT<T> W_Q, W_K, W_V;  // W_K and W_V stay zero with shared projections
    VectorT<T> b_Q, b_K, b_V;  // empty where the head has no bias
    MatrixT<T> W_a, U_a;       // additive scoring only (else empty)
    VectorT<T> v;
};

template <typename T>
struct GradientsT {
    std::vector<HeadGradientsT<T>> heads;
    MatrixT<T> W_O;  // empty without W_O
    MatrixT<T> X;    // n x d_model, only with BackwardOptions::embeddings
    MatrixT<T> Y;    // m x d_model in cross mode, only with BackwardOptions::embeddings
};

// What the loss says about a result: any of these may be empty (no contribution).
template <typename T>
struct CotangentT {
    std::vector<MatrixT<T>> weights;  // dL/dP per head (n x m), or empty
    std::vector<MatrixT<T>> scaled;   // dL/dZ per head (n x m), or empty (a cross-entropy on P
                                      // is best given here: dZ = P - target, no division by P)
    MatrixT<T> output;                // dL/d final output, or empty
};

struct BackwardOptions {
    bool embeddings = false;  // also fill GradientsT::X and ::Y
};

// Gradients of the loss whose cotangents are `seed`, for `result` = computeAttention(input).
// Returns ShapeMismatch naming "cotangent.weights[h]" etc. if a cotangent has the wrong
// shape, NonFinite if one holds NaN or infinity. On failure `grads` is left untouched.
template <typename T>
Status backward(const AttentionInput& input, const AttentionResultT<T>& result,
                const CotangentT<T>& seed, GradientsT<T>& grads,
                const BackwardOptions& options = {});

extern template Status backward<double>(const AttentionInput&, const AttentionResultT<double>&,
                                        const CotangentT<double>&, GradientsT<double>&,
                                        const BackwardOptions&);
extern template Status backward<float>(const AttentionInput&, const AttentionResultT<float>&,
                                       const CotangentT<float>&, GradientsT<float>&,
                                       const BackwardOptions&);

}  // namespace attn
