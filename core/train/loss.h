// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Losses for training the projections: a target attention pattern (cross-entropy per row)
// and a target output (mean squared error). Each returns the loss and its cotangents for
// backward() (core/train/gradients.h).

#include <vector>

#include "core/train/gradients.h"

namespace attn {

// A pattern that head `head`'s P should take: n x m, non-negative. Each row is normalised
// over the cells the mask allows; a row whose allowed target sum is 0, and a fully masked
// row, has no target and contributes nothing.
struct PatternTarget {
    int head = 0;
    Matrix pattern;
};

struct LossSpec {
    std::vector<PatternTarget> patterns;
    Matrix output;  // target of the final output (n x d_model, or n x h*d_v without W_O), or
                    // empty for none
    double outputWeight = 1.0;  // the MSE's weight beside the cross-entropy
};

template <typename T>
struct LossValueT {
    T total = 0;           // crossEntropy + outputWeight * mse
    T crossEntropy = 0;    // mean over rows with a target of -sum_j t_ij log P_ij
    T mse = 0;             // mean over the entries of rows not fully masked
    long patternRows = 0;  // rows that had a target
};

// The loss of `result` (= computeAttention(input)); if `cotangent` is not null, also its
// cotangents (dL/dZ for the patterns, dL/dF for the output). log P is taken from the scaled
// scores (log-sum-exp), never from P, so a weight that underflowed to 0 gives a finite loss.
// Returns ShapeMismatch naming "target.patterns[i]" or "target.output", EditOutOfRange for a
// head that does not exist, NonFinite for a NaN or infinite target entry and BadTarget for a
// negative one (field, row and col name it).
template <typename T>
Status evaluateLoss(const AttentionInput& input, const AttentionResultT<T>& result,
                    const LossSpec& spec, LossValueT<T>& value, CotangentT<T>* cotangent);

extern template Status evaluateLoss<double>(const AttentionInput&, const AttentionResultT<double>&,
                                            const LossSpec&, LossValueT<double>&,
                                            CotangentT<double>*);
extern template Status evaluateLoss<float>(const AttentionInput&, const AttentionResultT<float>&,
                                           const LossSpec&, LossValueT<float>&, CotangentT<float>*);

}  // namespace attn
