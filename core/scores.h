// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Step 2 of the kernel: raw scores for one head, by dot product or by the
// additive (Bahdanau) function s_ij = v^T tanh(W_a q_i + U_a k_j).

#include <cmath>

#include "core/attention_input.h"

namespace attn {

// Step 3, scaled = scores / divisor, as a product with 1 / divisor: a division per cell costs
// several products (a sixth of a head's softmax pass at n = 512). The two agree within an
// ulp, exactly when the divisor is a power of two (√64 = 8); a divisor whose reciprocal is
// not a normal number (a temperature of 1e-310) is divided by, so nothing overflows early.
template <typename T>
class ScoreScaler {
public:
    explicit ScoreScaler(T divisor)
        : divisor_(divisor), inverse_(T(1) / divisor), multiply_(std::isnormal(inverse_))
    {
    }
    // out[k] = in[k] / divisor for k < count (out may be in).
    void apply(const T* in, T* out, long count) const
    {
        if (multiply_)
            for (long k = 0; k < count; ++k) out[k] = in[k] * inverse_;
        else
            for (long k = 0; k < count; ++k) out[k] = in[k] / divisor_;
    }

private:
    T divisor_;
    T inverse_;
    bool multiply_;
};

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

// The additive score's hidden layer for one query and one key: tanh(W_a q + U_a k), whose
// dot product with v is the raw score (for showing the working of one cell).
Vector additiveHidden(const AttentionInput& input, int head, const Vector& q, const Vector& k);

}  // namespace attn
