// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Step 5 of the backward pass for additive scoring (core/train/gradients.h), kept apart from
// the driver: s_ij = v^T tanh(W_a q_i + U_a k_j).

#include "core/attention_input.h"

namespace attn {

template <typename T>
struct AdditiveGradientsT {
    MatrixT<T> dQ;   // n x d_k
    MatrixT<T> dK;   // m x d_k
    MatrixT<T> W_a;  // d_a x d_k
    MatrixT<T> U_a;  // d_a x d_k
    VectorT<T> v;    // d_a
};

// Gradients of sum_ij dS_ij s_ij with respect to Q, K (the edited vectors the scores read) and
// the head's additive parameters. Cells with dS_ij = 0 (masked, or no loss) are skipped.
template <typename T>
void additiveBackward(const AdditiveParams& params, const MatrixT<T>& Q, const MatrixT<T>& K,
                      const MatrixT<T>& dS, AdditiveGradientsT<T>& out);

extern template void additiveBackward<double>(const AdditiveParams&, const MatrixT<double>&,
                                              const MatrixT<double>&, const MatrixT<double>&,
                                              AdditiveGradientsT<double>&);
extern template void additiveBackward<float>(const AdditiveParams&, const MatrixT<float>&,
                                             const MatrixT<float>&, const MatrixT<float>&,
                                             AdditiveGradientsT<float>&);

}  // namespace attn
