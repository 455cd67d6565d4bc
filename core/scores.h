#pragma once
// Step 2 of the kernel: raw scores for one head, by dot product or by the
// additive (Bahdanau) function s_ij = v^T tanh(W_a q_i + U_a k_j).

#include "core/attention_input.h"

namespace attn {

// All n x m raw scores.
template <typename T>
void computeScores(const AttentionInput& input, int head, const MatrixT<T>& Q, const MatrixT<T>& K,
                   MatrixT<T>& scores);

// Column j of the raw scores (after key j changed).
template <typename T>
void computeScoreColumn(const AttentionInput& input, int head, const MatrixT<T>& Q,
                        const MatrixT<T>& K, long j, MatrixT<T>& scores);

// Row i of the raw scores (after query i changed).
template <typename T>
void computeScoreRow(const AttentionInput& input, int head, const MatrixT<T>& Q,
                     const MatrixT<T>& K, long i, MatrixT<T>& scores);

}  // namespace attn
