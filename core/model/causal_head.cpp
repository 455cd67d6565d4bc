// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/model/causal_head.h"

#include <algorithm>
#include <atomic>
#include <omp.h>
#include <vector>

#include "core/head_pass.h"
#include "core/kernels/gemm.h"
#include "core/scores.h"
#include "core/softmax.h"

namespace attn::model {

namespace {

// Query rows a block holds at least (then rounded up to whole pooled rows, so that no two
// blocks write one pooled row).
constexpr long kCausalBlockRows = 64;

enum Fault { kNone = 0, kScore = 1, kScaled = 2 };

}  // namespace

void poolRow(const float* p, long start, long end, long block, float* cells)
{
    for (long c0 = start; c0 < end;) {
        const long cb = c0 / block;
        const long c1 = std::min(end, (cb + 1) * block);
        float best = cells[cb];
        for (long c = c0; c < c1; ++c) best = std::max(best, p[c]);
        cells[cb] = best;
        c0 = c1;
    }
}

long poolBlock(long n, long side)
{
    side = std::max(1L, side);
    long block = 1;
    while (block * side < n) block *= 2;
    return block;
}

void growPooled(PooledMap& p, long n, long side)
{
    const long block = poolBlock(n, side);
    while (p.block < block) {
        FloatMatrix merged = FloatMatrix::Zero((p.cells.rows() + 1) / 2, (p.cells.cols() + 1) / 2);
        for (long i = 0; i < p.cells.rows(); ++i)
            for (long j = 0; j < p.cells.cols(); ++j)
                merged(i / 2, j / 2) = std::max(merged(i / 2, j / 2), p.cells(i, j));
        p.cells = std::move(merged);
        p.block *= 2;
    }
    const long cells = (n + p.block - 1) / p.block;
    if (p.cells.rows() < cells || p.cells.cols() < cells) {
        FloatMatrix grown = FloatMatrix::Zero(cells, cells);
        grown.topLeftCorner(p.cells.rows(), p.cells.cols()) = p.cells;
        p.cells = std::move(grown);
    }
    p.n = n;
}

PooledMap poolMap(const FloatMatrix& map, long block)
{
    PooledMap p;
    p.n = map.rows();
    p.block = std::max(1L, block);
    const long side = (p.n + p.block - 1) / p.block;
    p.cells.setZero(side, (map.cols() + p.block - 1) / p.block);
    for (long i = 0; i < map.rows(); ++i)
        poolRow(&map(i, 0), 0, map.cols(), p.block, &p.cells(i / p.block, 0));
    return p;
}

float firstShareOf(const FloatMatrix& map)
{
    const long n = map.rows();
    if (n < 2) return 0.0f;
    return static_cast<float>(map.col(0).tail(n - 1).cast<double>().sum() /
                              static_cast<double>(n - 1));
}

namespace {

// Where one block of rows sits: its first row, how many, the first key it reads, the pooling.
struct RowBlock {
    long i0 = 0;
    long rows = 0;
    long lo = 0;
    long pool = 1;
};

// The rows of one block, from their scores: scaled, a softmax over the keys each may see,
// exact zeros elsewhere, pooled where asked; the first key's weights added to `firstSum`.
// kNone, or the stage that held a value that is not finite.
int weighRows(const CausalHeadInput& in, const CausalHeadOutput& out,
              const ScoreScaler<float>& scale, FloatMatrix& scores, float* rowsP,
              const RowBlock& at, double& firstSum)
{
    const long n = in.n;
    const long end = at.i0 + at.rows;
    for (long r = 0; r < at.rows; ++r) {
        const long i = at.i0 + r;
        const long start = in.window > 0 ? std::max(0L, i - in.window + 1) : 0;
        const long count = i + 1 - start;
        float* s = &scores(r, start - at.lo);
        if (!allFiniteSpan(s, count)) return kScore;
        scale.apply(s, s, count);
        if (!allFiniteSpan(s, count)) return kScaled;
        float* p = rowsP + r * n;
        softmaxRow<float>(s, nullptr, count, count, p + start);
        // Closed cells are exact zeros: the whole row for the map, the part the output's
        // product reads [lo, end) otherwise.
        std::fill(p + (out.weights != nullptr ? 0 : at.lo), p + start, 0.0f);
        std::fill(p + i + 1, p + (out.weights != nullptr ? n : end), 0.0f);
        if (i >= 1 && start == 0) firstSum += p[0];
        if (out.pooled != nullptr)
            poolRow(p, start, i + 1, at.pool, &out.pooled->cells(i / at.pool, 0));
    }
    return kNone;
}

}  // namespace

attn::Status attendCausal(const CausalHeadInput& in, const CausalHeadOutput& out)
{
    const long n = in.n;
    long block = 1;
    if (out.pooled != nullptr) {
        block = poolBlock(n, out.side);
        out.pooled->n = n;
        out.pooled->block = block;
        const long side = (n + block - 1) / block;
        out.pooled->cells.setZero(side, side);
    }
    if (out.weights != nullptr) out.weights->resize(n, n);
    if (out.output != nullptr) out.output->resize(n, in.dv);
    if (out.firstShare != nullptr) *out.firstShare = 0.0f;
    if (n <= 0) return {};
    const long rowsPerBlock = (kCausalBlockRows + block - 1) / block * block;
    const long blocks = (n + rowsPerBlock - 1) / rowsPerBlock;
    std::vector<double> first(static_cast<std::size_t>(blocks), 0.0);
    std::atomic<int> fault{kNone};
    const ScoreScaler<float> scale(in.divisor);
    const bool parallel = !omp_in_parallel() && n * n >= 2 * kParallelCells;
#pragma omp parallel if (parallel)
    {
        const long bufferRows = std::min(rowsPerBlock, n);
        FloatMatrix scores(bufferRows, n);
        FloatMatrix probs;
        if (out.weights == nullptr) probs.resize(bufferRows, n);
            // Last block first: it scores the most keys, so the threads finish together.
#pragma omp for schedule(dynamic, 1)
        for (long k = 0; k < blocks; ++k) {
            if (fault.load(std::memory_order_relaxed) != kNone) continue;
            const long b = blocks - 1 - k;
            const long i0 = b * rowsPerBlock;
            const long rows = std::min(rowsPerBlock, n - i0);
            const long end = i0 + rows;  // the block's rows see keys before `end` only
            const long lo = in.window > 0 ? std::max(0L, i0 - in.window + 1) : 0;
            kernels::sgemm(rows, in.dh, end - lo, in.q + i0 * in.ldq, in.ldq, in.k + lo * in.ldk,
                           in.ldk, true, nullptr, scores.data(), n);
            float* rowsP = out.weights != nullptr ? &(*out.weights)(i0, 0) : probs.data();
            double firstSum = 0.0;
            if (const int f =
                    weighRows(in, out, scale, scores, rowsP, {i0, rows, lo, block}, firstSum);
                f != kNone)
                fault.store(f, std::memory_order_relaxed);
            first[static_cast<std::size_t>(b)] = firstSum;
            if (out.output == nullptr || fault.load(std::memory_order_relaxed) != kNone) continue;
            // P V in slices that each stop at their last row's key, as the head pass does.
            for (long s0 = i0; s0 < end; s0 += kCausalSliceRows) {
                const long r = std::min(kCausalSliceRows, end - s0);
                const long keys = s0 + r;
                kernels::sgemm(r, keys - lo, in.dv, rowsP + (s0 - i0) * n + lo, n,
                               in.v + lo * in.ldv, in.ldv, false, nullptr, &(*out.output)(s0, 0),
                               in.dv);
            }
        }
    }
    if (const int f = fault.load(); f != kNone)
        return attn::Status{attn::StatusCode::NonFinite, f == kScore ? "scores" : "scaled"};
    if (out.firstShare != nullptr && n > 1) {
        double sum = 0.0;
        for (const double s : first) sum += s;
        *out.firstShare = static_cast<float>(sum / static_cast<double>(n - 1));
    }
    return {};
}

}  // namespace attn::model
