// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/attention.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "core/head_pass.h"
#include "core/projection.h"
#include "core/rope.h"
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

// The mask kind, and the effective mask itself only when a custom mask makes it general.
MaskKind maskKindFor(const AttentionInput& in, BoolMatrix& general)
{
    if (!in.mask)
        return in.mode == Mode::Causal && in.keyCount() > 1 ? MaskKind::Causal : MaskKind::None;
    general = effectiveMask(in);
    return classifyMask(general);
}

template <typename T>
struct Projected {
    MatrixT<T> Q, K, V;
};

template <typename T>
Status project(const AttentionInput& in, int h, Projected<T>& p)
{
    projectInto<T>(in, h, {Role::Query, Role::Key, Role::Value}, {&p.Q, &p.K, &p.V});
    if (!allFiniteLinear(p.Q)) return headFailure(StatusCode::NonFinite, h, "Q");
    if (!allFiniteLinear(p.K)) return headFailure(StatusCode::NonFinite, h, "K");
    if (!allFiniteLinear(p.V)) return headFailure(StatusCode::NonFinite, h, "V");
    return {};
}

// In T, one contiguous row at a time (vectorised); a float overflow gives +inf, which only
// makes certainlyFinite() say no.
template <typename T>
double largestRowNorm(const MatrixT<T>& m)
{
    double largest = 0;
    for (long i = 0; i < m.rows(); ++i)
        largest = std::max(largest, static_cast<double>(m.row(i).squaredNorm()));
    return std::sqrt(largest);
}

// True when no score, scaled score or output can overflow (Cauchy-Schwarz bounds with a wide
// margin for rounding), so that the computation cannot fail once it has begun and may write
// straight into the caller's result, reusing its buffers (no fresh pages to fault in).
template <typename T>
bool certainlyFinite(const AttentionInput& in, const std::vector<Projected<T>>& heads)
{
    if (in.score != ScoreFunction::Dot) return false;
    const double limit = static_cast<double>(std::numeric_limits<T>::max()) / 64;
    const double divisor = in.scoreDivisor();
    double largestValue = 0;
    for (const Projected<T>& p : heads) {
        const double bound = largestRowNorm(p.Q) * largestRowNorm(p.K);
        if (!(bound < limit) || !(bound / divisor < limit)) return false;
        if (p.V.size() > 0)
            largestValue = std::max(largestValue, static_cast<double>(p.V.cwiseAbs().maxCoeff()));
    }
    if (!(largestValue < limit)) return false;
    if (in.W_O.size() == 0) return true;
    const double concatNorm = std::sqrt(static_cast<double>(in.W_O.rows())) * largestValue;
    const double columnNorm = in.W_O.colwise().norm().maxCoeff();
    return concatNorm * columnNorm < limit;
}

}  // namespace

template <typename T>
void turnByPositions(const AttentionInput& in, HeadResultT<T>& hr)
{
    if (!in.rope) {
        hr.rotatedQ.resize(0, 0);
        hr.rotatedK.resize(0, 0);
        return;
    }
    // Queries and keys each count their positions from 0: in cross mode the source's own.
    hr.rotatedQ = hr.Q;
    applyRope(hr.rotatedQ, *in.rope, 0);
    hr.rotatedK = hr.K;
    applyRope(hr.rotatedK, *in.rope, 0);
}

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
    BoolMatrix general;
    const MaskKind kind = maskKindFor(in, general);
    std::vector<Projected<T>> projected(in.heads.size());
    for (std::size_t h = 0; h < in.heads.size(); ++h) {
        if (Status s = project<T>(in, static_cast<int>(h), projected[h]); !s.ok()) return s;
    }
    const bool inPlace = certainlyFinite<T>(in, projected);
    AttentionResultT<T> fresh;
    AttentionResultT<T>& r = inPlace ? result : fresh;
    r.maskKind = kind;
    r.heads.resize(in.heads.size());
    for (std::size_t h = 0; h < in.heads.size(); ++h) {
        HeadResultT<T>& hr = r.heads[h];
        hr.Q = std::move(projected[h].Q);
        hr.K = std::move(projected[h].K);
        hr.V = std::move(projected[h].V);
        turnByPositions(in, hr);
        if (Status s = weighHead<T>(in, static_cast<int>(h), kind, &general, hr); !s.ok()) return s;
    }
    combineHeads(in, r);
    if (!allFiniteLinear(r.output)) return Status{StatusCode::NonFinite, "output"};
    if (!inPlace) result = std::move(fresh);
    return {};
}

template void turnByPositions<double>(const AttentionInput&, HeadResultT<double>&);
template void turnByPositions<float>(const AttentionInput&, HeadResultT<float>&);
template void combineHeads<double>(const AttentionInput&, AttentionResultT<double>&);
template void combineHeads<float>(const AttentionInput&, AttentionResultT<float>&);
template Status computeAttention<double>(const AttentionInput&, AttentionResultT<double>&,
                                         const Limits&);
template Status computeAttention<float>(const AttentionInput&, AttentionResultT<float>&,
                                        const Limits&);

}  // namespace attn
