// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What the two incremental decodings (decode.h for causal models, seq2seq_decode.h for
// encoder-decoders) share: rows kept with room to grow, and one head's new map row. Internal to
// core/model.

#include "core/model/forward.h"

namespace attn::model::detail {

// Rows of a matrix with room to grow: `data` holds capacity rows, the first `rows` used.
// Capacity doubles when full, so appending costs amortised O(1) copies per row.
struct GrowingRows {
    FloatMatrix data;
    long rows = 0;
    void assign(const FloatMatrix& m);
    float* append(long cols);  // the new row, uninitialised
    void truncate(long n) { rows = std::min(rows, n); }
    [[nodiscard]] auto used() const { return data.topRows(rows); }
};

// Where one head reads its new row's vectors: the query row, and the keys and values of every
// position it may see (row stride ld).
struct HeadRows {
    const float* q = nullptr;
    const float* k = nullptr;
    long ldk = 0;
    const float* v = nullptr;
    long ldv = 0;
};

// One query row of one head: the scores of the keys [start, last], divided by `divisor`, plus
// `bias` (last + 1 - start values, or null), the softmax into `weights` (last + 1 cells; those
// before `start` are 0), and the weighted values into `out` (dh). The same steps as the head
// pass on a whole map: kernels::sgemm's scores, ScoreScaler, softmaxRow. Returns 0, or 1 for
// raw scores that are not finite, 2 for scaled ones.
int weighRow(const HeadRows& in, long start, long last, long dh, float divisor, const float* bias,
             float* weights, float* out);

}  // namespace attn::model::detail
