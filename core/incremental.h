// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// AttentionEngine keeps an input and its result, and updates the result for a
// single-vector edit without recomputing everything:
//   key j:   one column of scores, then each row's normalisation rescaled
//            (a row is recomputed only where the old cell carried much weight);
//   query i: one row of scores, its softmax and its output row;
//   value j: each output row gets weights(:, j) * (v_new - v_old).
// The combined output through W_O is recomputed (n x h*d_v x d_model).

#include "core/attention.h"

namespace attn {

template <typename T>
class AttentionEngineT {
public:
    explicit AttentionEngineT(Limits limits = {}) : limits_(limits) {}

    // Full recomputation. On failure the previous input and result stay.
    Status setInput(const AttentionInput& input);
    // Takes a result computed elsewhere (e.g. on a worker thread) by computeAttention<T>
    // from exactly this input.
    void adopt(AttentionInput input, AttentionResultT<T> result);
    // Sets (or, for an identity edit, removes) one vector edit and updates incrementally.
    Status setEdit(const VectorEdit& edit);

    [[nodiscard]] const AttentionInput& input() const { return input_; }
    [[nodiscard]] const AttentionResultT<T>& result() const { return result_; }
    [[nodiscard]] bool hasResult() const { return !result_.heads.empty(); }
    // How many rows the last key edit had to recompute fully (for tests and benchmarks).
    [[nodiscard]] long lastRowsRecomputed() const { return lastRowsRecomputed_; }

private:
    void updateKey(int head, int index);
    void updateQuery(int head, int index);
    void updateValue(int head, int index, const VectorT<T>& value);
    void recombine();

    Limits limits_;
    AttentionInput input_;
    AttentionResultT<T> result_;
    long lastRowsRecomputed_ = 0;
};

using AttentionEngine = AttentionEngineT<double>;

extern template class AttentionEngineT<double>;
extern template class AttentionEngineT<float>;

}  // namespace attn
