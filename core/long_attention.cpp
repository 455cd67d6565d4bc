// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/long_attention.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <omp.h>
#include <string>

#include "core/head_pass.h"
#include "core/kernels/gemm.h"
#include "core/projection.h"
#include "core/rope.h"
#include "core/scores.h"
#include "core/softmax.h"

namespace attn {

namespace {

constexpr long kBlockRows = kHeadBlockRows;
// What a block of rows shares with the others: the input, the mask and the cancel state.
struct HeadJob {
    const AttentionInput& in;
    int head;
    MaskKind kind;
    const BoolMatrix& general;
    ScoreScaler<float> scale;
};

// Softmax and row facts of query row i from its raw scores `raw` (the first `len` cells are
// meaningful; under a causal mask len covers the row's prefix).
RowFault weighRow(const HeadJob& job, const float* raw, long len, float* scaled, LongHead& hd,
                  long i)
{
    const long m = hd.weights.cols();
    job.scale.apply(raw, scaled, len);
    if (!allFiniteSpan(scaled, len))
        return allFiniteSpan(raw, len) ? RowFault::Scaled : RowFault::Score;
    long count = m;
    const bool* allowed = nullptr;
    if (job.kind == MaskKind::Causal) count = std::min(i + 1, m);
    if (job.kind == MaskKind::General) allowed = &job.general(i, 0);
    float* p = &hd.weights(i, 0);
    const RowSoftmax<float> f = softmaxRow<float>(scaled, allowed, count, m, p);
    if (f.fullyMasked) {
        hd.entropy[i] = 0;
        hd.maxWeight[i] = 0;
        hd.argmax[i] = -1;
        return RowFault::None;
    }
    long best = 0;
    for (long j = 1; j < count; ++j) {
        if (p[j] > p[best]) best = j;
    }
    hd.argmax[i] = static_cast<int>(best);
    hd.maxWeight[i] = p[best];
    hd.entropy[i] = std::max(0.0f, f.max + std::log(f.sum) - f.dot);
    return RowFault::None;
}

// Output rows i0 .. i0 + rows - 1 = P V; causal rows in slices that stop at their last column.
void writeOutput(MaskKind kind, long i0, long rows, LongHead& hd)
{
    const long m = hd.weights.cols();
    const long slice = kind == MaskKind::Causal ? kCausalSliceRows : rows;
    for (long s0 = i0; s0 < i0 + rows; s0 += slice) {
        const long r = std::min(slice, i0 + rows - s0);
        const long cols = kind == MaskKind::Causal ? std::min(m, s0 + r) : m;
        // The packed SGEMM keeps its packing buffers per thread: Eigen's product allocated them
        // afresh for every block (8 MB at m = 32,768), and clearing those pages was 57 % of the
        // time at n = 32,768.
        kernels::sgemm(r, cols, hd.V.cols(), &hd.weights(s0, 0), m, hd.V.data(), hd.V.cols(), false,
                       nullptr, &hd.output(s0, 0), hd.output.cols());
    }
}

// Blocks done over all heads, and whether to stop.
struct Run {
    const LongProgress* progress = nullptr;
    long total = 1;
    std::atomic<long> done{0};
    std::atomic<bool> cancelled{false};
    std::atomic<int> fault{0};
};

void weighHead(const HeadJob& job, LongHead& hd, Run& run)
{
    const long n = hd.Q.rows();
    const long m = hd.K.rows();
    // No huge-page advice for P, unlike the full path's stages: P is written once and read
    // in streams, and on first touch the advice made the kernel assemble and clear 2 MB pages
    // (32,768 self: 11.4–11.9 s with it, 6.9–8.2 s without, edits alike).
    if (hd.weights.rows() != n || hd.weights.cols() != m) hd.weights.resize(n, m);
    hd.output.resize(n, hd.V.cols());
    hd.entropy.resize(n);
    hd.maxWeight.resize(n);
    hd.argmax.resize(n);
    const long blocks = (n + kBlockRows - 1) / kBlockRows;
    std::atomic<long> next{0};
    // Last block first (under a causal mask later rows weigh more keys: the largest go first).
#pragma omp parallel if (n * m >= kParallelCells)
    {
        MatrixT<float> raw(std::min(kBlockRows, n), m);
        VectorT<float> scaled = VectorT<float>::Zero(m);
        MatrixT<float> additive;
        const bool reporter = omp_get_thread_num() == 0;
        for (;;) {
            if (run.cancelled.load(std::memory_order_relaxed) ||
                run.fault.load(std::memory_order_relaxed) != 0)
                break;
            const long k = next.fetch_add(1);
            if (k >= blocks) break;
            const long i0 = (blocks - 1 - k) * kBlockRows;
            const long rows = std::min(kBlockRows, n - i0);
            const long cols = job.kind == MaskKind::Causal ? std::min(m, i0 + rows) : m;
            if (job.in.score == ScoreFunction::Dot) {
                kernels::sgemm(rows, hd.Q.cols(), cols, &hd.Q(i0, 0), hd.Q.cols(), hd.K.data(),
                               hd.K.cols(), true, nullptr, raw.data(), m);
            } else {
                const MatrixT<float> q = hd.Q.middleRows(i0, rows);
                computeScores<float>(job.in, job.head, q, hd.K, additive);
                raw.topRows(rows) = additive;
            }
            for (long r = 0; r < rows; ++r) {
                const long i = i0 + r;
                const long len = job.kind == MaskKind::Causal ? std::min(i + 1, m) : m;
                const RowFault f = weighRow(job, &raw(r, 0), len, scaled.data(), hd, i);
                if (f != RowFault::None) {
                    run.fault.store(static_cast<int>(f), std::memory_order_relaxed);
                    break;
                }
            }
            writeOutput(job.kind, i0, rows, hd);
            const long done = run.done.fetch_add(1) + 1;
            if (reporter && *run.progress &&
                !(*run.progress)(static_cast<double>(done) / static_cast<double>(run.total)))
                run.cancelled.store(true);
        }
    }
    // Once more at the end of the head, on the calling thread: the other threads may have
    // taken every block, and a cancel must still be heard.
    if (*run.progress && !run.cancelled.load() &&
        !(*run.progress)(static_cast<double>(run.done.load()) / static_cast<double>(run.total)))
        run.cancelled.store(true);
}

}  // namespace

std::size_t estimateLongBytes(const AttentionInput& in, int threads)
{
    const auto n = static_cast<std::size_t>(std::max<long>(in.queryCount(), 0));
    const auto m = static_cast<std::size_t>(std::max<long>(in.keyCount(), 0));
    const auto h = in.heads.size();
    const auto dk = static_cast<std::size_t>(std::max<long>(in.keyDim(), 0));
    const auto dv = static_cast<std::size_t>(std::max<long>(in.valueDim(), 0));
    const std::size_t f = sizeof(float);
    const std::size_t perHead = n * m * f + (n * dk + m * dk + m * dv + n * dv) * f + 3 * n * f;
    if (threads <= 0) threads = omp_get_max_threads();
    const std::size_t buffers =
        static_cast<std::size_t>(std::max(threads, 1)) * (kBlockRows + 1) * m * f;
    const std::size_t mask = in.mask ? n * m : 0;
    return h * perHead + 2 * n * h * dv * f + buffers + mask;
}

Status validateLong(const AttentionInput& in, const Limits& limits, int threads)
{
    Limits unbounded;
    unbounded.maxBytes = static_cast<std::size_t>(-1);
    if (Status s = validate(in, unbounded, sizeof(float)); !s.ok()) return s;
    const std::size_t need = estimateLongBytes(in, threads);
    if (need > limits.maxBytes) {
        Status s{StatusCode::TooLarge, "size"};
        s.bytesNeeded = need;
        s.bytesBudget = limits.maxBytes;
        return s;
    }
    return {};
}

LongOutcome computeLongAttention(const AttentionInput& in, LongResult& result, const Limits& limits,
                                 const LongProgress& progress, LongResult* recycle)
{
    if (Status s = validateLong(in, limits); !s.ok()) return {s};
    LongResult r;
    r.heads.resize(in.heads.size());
    if (recycle != nullptr) {
        for (std::size_t h = 0; h < r.heads.size() && h < recycle->heads.size(); ++h)
            r.heads[h].weights.swap(recycle->heads[h].weights);
        recycle->heads.clear();
    }
    if (in.mask) {
        r.general = effectiveMask(in);
        r.maskKind = classifyMask(r.general);
        if (r.maskKind != MaskKind::General) r.general.resize(0, 0);
    } else {
        r.maskKind =
            in.mode == Mode::Causal && in.keyCount() > 1 ? MaskKind::Causal : MaskKind::None;
    }
    Run run;
    run.progress = &progress;
    const long blocksPerHead = (in.queryCount() + kBlockRows - 1) / kBlockRows;
    run.total = std::max<long>(1, blocksPerHead * static_cast<long>(in.heads.size()));
    HeadJob job{in, 0, r.maskKind, r.general,
                ScoreScaler<float>(static_cast<float>(in.scoreDivisor()))};
    for (std::size_t h = 0; h < in.heads.size(); ++h) {
        LongHead& hd = r.heads[h];
        job.head = static_cast<int>(h);
        projectInto<float>(in, static_cast<int>(h), {Role::Query, Role::Key, Role::Value},
                           {&hd.Q, &hd.K, &hd.V});
        const int head = static_cast<int>(h);
        if (!allFiniteLinear(hd.Q)) return {headFailure(StatusCode::NonFinite, head, "Q")};
        if (!allFiniteLinear(hd.K)) return {headFailure(StatusCode::NonFinite, head, "K")};
        if (!allFiniteLinear(hd.V)) return {headFailure(StatusCode::NonFinite, head, "V")};
        if (in.rope) {
            // Turned in place: the long path keeps only the vectors its scores are made from.
            applyRope(hd.Q, *in.rope, 0);
            applyRope(hd.K, *in.rope, 0);
        }
        weighHead(job, hd, run);
        if (run.cancelled.load()) return {Status{}, true};
        if (const int f = run.fault.load(); f != 0)
            return {headFailure(StatusCode::NonFinite, head,
                                f == static_cast<int>(RowFault::Score) ? "scores" : "scaled")};
    }
    const long n = in.queryCount();
    const long dv = in.valueDim();
    MatrixT<float> concat(n, dv * static_cast<long>(r.heads.size()));
    for (std::size_t h = 0; h < r.heads.size(); ++h)
        concat.middleCols(static_cast<long>(h) * dv, dv) = r.heads[h].output;
    if (in.W_O.size() == 0)
        r.output = std::move(concat);
    else
        r.output.noalias() = concat * in.W_O.cast<float>();
    if (!allFiniteLinear(r.output)) return {Status{StatusCode::NonFinite, "output"}};
    result = std::move(r);
    return {};
}

void longRowScores(const AttentionInput& in, const LongResult& result, int head, long i,
                   VectorT<float>& raw, VectorT<float>& scaled)
{
    const LongHead& hd = result.heads[static_cast<std::size_t>(head)];
    if (in.score == ScoreFunction::Dot) {
        raw.noalias() = hd.K * hd.Q.row(i).transpose();
    } else {
        const MatrixT<float> q = hd.Q.row(i);
        MatrixT<float> row(1, hd.K.rows());
        computeScoreRow<float>(in, head, q, hd.K, 0, row);
        raw = row.row(0).transpose();
    }
    scaled.resize(raw.size());
    ScoreScaler<float>(static_cast<float>(in.scoreDivisor()))
        .apply(raw.data(), scaled.data(), raw.size());
}

}  // namespace attn
