// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/model/decode_rows.h"

#include <algorithm>
#include <vector>

#include "core/kernels/gemm.h"
#include "core/scores.h"
#include "core/softmax.h"

namespace attn::model::detail {

void GrowingRows::assign(const FloatMatrix& m)
{
    data = m;
    rows = m.rows();
}

float* GrowingRows::append(long cols)
{
    if (data.cols() != cols) data.resize(0, cols);
    if (rows == data.rows()) data.conservativeResize(std::max(2 * rows, 16L), cols);
    return &data(rows++, 0);
}

int weighRow(const HeadRows& in, long start, long last, long dh, float divisor, const float* bias,
             float* weights, float* out)
{
    const long count = last + 1 - start;
    std::vector<float> scores(static_cast<std::size_t>(count));
    kernels::sgemm(1, dh, count, in.q, dh, in.k + start * in.ldk, in.ldk, true, nullptr,
                   scores.data(), count);
    if (!allFiniteSpan(scores.data(), count)) return 1;
    ScoreScaler<float>(divisor).apply(scores.data(), scores.data(), count);
    if (bias != nullptr)
        for (long j = 0; j < count; ++j) scores[static_cast<std::size_t>(j)] += bias[j];
    if (!allFiniteSpan(scores.data(), count)) return 2;
    std::fill(weights, weights + start, 0.0f);
    softmaxRow<float>(scores.data(), nullptr, count, count, weights + start);
    kernels::sgemm(1, count, dh, weights + start, count, in.v + start * in.ldv, in.ldv, false,
                   nullptr, out, dh);
    return 0;
}

}  // namespace attn::model::detail
