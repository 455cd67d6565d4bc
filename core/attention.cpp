#include "core/attention.h"

#include "core/projection.h"
#include "core/scores.h"
#include "core/softmax.h"

namespace attn {

BoolMatrix effectiveMask(const AttentionInput& in)
{
    const long n = in.queryCount();
    const long m = in.keyCount();
    BoolMatrix mask = BoolMatrix::Constant(n, m, true);
    if (in.mode == Mode::Causal) {
        for (long i = 0; i < n; ++i) {
            for (long j = i + 1; j < m; ++j) mask(i, j) = false;
        }
    }
    if (in.mask && in.mask->rows() == n && in.mask->cols() == m) {
        mask = mask.array() && in.mask->array();
    }
    return mask;
}

MaskKind classifyMask(const BoolMatrix& mask)
{
    if (allTrueLinear(mask)) return MaskKind::None;
    if (mask.rows() != mask.cols()) return MaskKind::General;
    for (long i = 0; i < mask.rows(); ++i) {
        for (long j = 0; j < mask.cols(); ++j) {
            if (mask(i, j) != (j <= i)) return MaskKind::General;
        }
    }
    return MaskKind::Causal;
}

namespace {

// Steps 4 and 5 plus diagnostics for one head whose scaled scores are computed.
template <typename T>
void normaliseAndWeigh(MaskKind kind, HeadResultT<T>& hr)
{
    const long n = hr.scaled.rows();
    const long m = hr.scaled.cols();
    hr.weights.resize(n, m);
    hr.rowMax.resize(n);
    hr.rowSum.resize(n);
    hr.rowDot.resize(n);
    resizeDiagnostics(hr.diagnostics, n);
#pragma omp parallel for schedule(dynamic, 16) if (n * m >= kParallelCells)
    for (long i = 0; i < n; ++i) {
        const long count = kind == MaskKind::Causal ? std::min(i + 1, m) : m;
        const bool* allowed = kind == MaskKind::General ? &hr.mask(i, 0) : nullptr;
        const RowSoftmax<T> f =
            softmaxRow<T>(&hr.scaled(i, 0), allowed, count, m, &hr.weights(i, 0));
        hr.rowMax[i] = f.max;
        hr.rowSum[i] = f.sum;
        hr.rowDot[i] = f.dot;
        diagnoseRow<T>(&hr.weights(i, 0), count, f, i, hr.diagnostics);
    }
    if (kind == MaskKind::Causal) {
        hr.output.noalias() = hr.weights.template triangularView<Eigen::Lower>() * hr.V;
    } else {
        hr.output.noalias() = hr.weights * hr.V;
    }
}

template <typename T>
Status computeHead(const AttentionInput& in, int h, const BoolMatrix& mask, MaskKind kind,
                   HeadResultT<T>& hr)
{
    hr.Q = projectAll<T>(in, h, Role::Query);
    hr.K = projectAll<T>(in, h, Role::Key);
    hr.V = projectAll<T>(in, h, Role::Value);
    computeScores<T>(in, h, hr.Q, hr.K, hr.scores);
    if (!allFiniteLinear(hr.scores)) {
        Status s{StatusCode::NonFinite, "heads[" + std::to_string(h) + "].scores"};
        return s;
    }
    hr.scaled = hr.scores / static_cast<T>(in.scoreDivisor());
    hr.mask = mask;
    normaliseAndWeigh<T>(kind, hr);
    return {};
}

}  // namespace

template <typename T>
void combineHeads(const AttentionInput& in, AttentionResultT<T>& r)
{
    const long n = in.queryCount();
    const long dv = in.valueDim();
    r.concat.resize(n, dv * static_cast<long>(r.heads.size()));
    for (std::size_t h = 0; h < r.heads.size(); ++h)
        r.concat.middleCols(static_cast<long>(h) * dv, dv) = r.heads[h].output;
    if (in.W_O.size() == 0)
        r.output = r.concat;
    else
        r.output.noalias() = r.concat * in.W_O.cast<T>();
}

template <typename T>
Status computeAttention(const AttentionInput& in, AttentionResultT<T>& result, const Limits& limits)
{
    if (Status s = validate(in, limits, sizeof(T)); !s.ok()) return s;
    // Eigen's matrix products start their own threads from n = 128 on; for small problems
    // these stall on a loaded machine far longer than they save (0.17 ms became 48 ms at
    // n = 128). Small problems run their products on one thread.
    const bool small = in.queryCount() * in.keyCount() < kParallelCells;
    const int savedThreads = Eigen::nbThreads();
    if (small) Eigen::setNbThreads(1);
    struct RestoreThreads {
        int threads;
        bool active;
        ~RestoreThreads()
        {
            if (active) Eigen::setNbThreads(threads);
        }
    } restore{savedThreads, small};
    AttentionResultT<T> r;
    const BoolMatrix mask = effectiveMask(in);
    r.maskKind = classifyMask(mask);
    r.heads.resize(in.heads.size());
    for (std::size_t h = 0; h < in.heads.size(); ++h) {
        if (Status s = computeHead<T>(in, static_cast<int>(h), mask, r.maskKind, r.heads[h]);
            !s.ok())
            return s;
    }
    combineHeads(in, r);
    if (!r.output.allFinite()) return Status{StatusCode::NonFinite, "output"};
    result = std::move(r);
    return {};
}

template void combineHeads<double>(const AttentionInput&, AttentionResultT<double>&);
template void combineHeads<float>(const AttentionInput&, AttentionResultT<float>&);
template Status computeAttention<double>(const AttentionInput&, AttentionResultT<double>&,
                                         const Limits&);
template Status computeAttention<float>(const AttentionInput&, AttentionResultT<float>&,
                                        const Limits&);

}  // namespace attn
