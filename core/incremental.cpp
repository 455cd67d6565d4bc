// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/incremental.h"

#include <cmath>

#include "core/projection.h"
#include "core/rope.h"
#include "core/scores.h"
#include "core/softmax.h"

namespace attn {

namespace {

// Columns of row i that the softmax covers (its causal prefix, or every column).
template <typename T>
long rowCount(const AttentionResultT<T>& r, const HeadResultT<T>& hr, long i)
{
    const long m = hr.weights.cols();
    return r.maskKind == MaskKind::Causal ? std::min(i + 1, m) : m;
}

// Steps 4-5 and diagnostics for one row, from its scaled scores.
template <typename T>
void recomputeRow(const AttentionResultT<T>& r, HeadResultT<T>& hr, long i)
{
    const long count = rowCount(r, hr, i);
    const bool* allowed = r.maskKind == MaskKind::General ? &hr.mask(i, 0) : nullptr;
    const RowSoftmax<T> f =
        softmaxRow<T>(&hr.scaled(i, 0), allowed, count, hr.weights.cols(), &hr.weights(i, 0));
    recordRow(hr, i, f);
    hr.output.row(i).noalias() = hr.weights.row(i).head(count) * hr.V.topRows(count);
    diagnoseRow<T>(&hr.weights(i, 0), count, f, i, hr);
}

// The one finiteness rule, as in the full path (weighHead): raw scores and the scaled scores
// made from them must both be finite. A tiny temperature can overflow finite raw scores.
template <typename T>
bool scoresStayFinite(const AttentionInput& in, const VectorT<T>& raw)
{
    if (!raw.allFinite()) return false;
    VectorT<T> scaled(raw.size());
    ScoreScaler<T>(static_cast<T>(in.scoreDivisor())).apply(raw.data(), scaled.data(), raw.size());
    return scaled.allFinite();
}

// With rotary positions, the edited vector `vec` of position `index` turned as the full
// computation turns it (applyRope at that position), into its row of `turned`; nothing
// without them.
template <typename T>
void turnEditedRow(const AttentionInput& in, const VectorT<T>& vec, long index, MatrixT<T>& turned)
{
    if (!in.rope || turned.size() == 0) return;
    MatrixT<T> row = vec.transpose();
    applyRope(row, *in.rope, index);
    turned.row(index) = row.row(0);
}

// Row `index` of the turned vectors (empty without rotary positions), and putting it back.
template <typename T>
VectorT<T> savedTurnedRow(const MatrixT<T>& turned, long index)
{
    return turned.size() == 0 ? VectorT<T>() : VectorT<T>(turned.row(index).transpose());
}

template <typename T>
void restoreTurnedRow(const VectorT<T>& row, long index, MatrixT<T>& turned)
{
    if (turned.size() != 0) turned.row(index) = row.transpose();
}

}  // namespace

template <typename T>
Status AttentionEngineT<T>::setInput(const AttentionInput& input)
{
    // On failure computeAttention leaves result_ as it was; on success it has reused its
    // buffers where it safely could.
    if (Status s = computeAttention<T>(input, result_, limits_); !s.ok()) return s;
    input_ = input;
    lastRowsRecomputed_ = static_cast<long>(input_.queryCount());
    return {};
}

template <typename T>
void AttentionEngineT<T>::adopt(AttentionInput input, AttentionResultT<T> result)
{
    input_ = std::move(input);
    result_ = std::move(result);
    lastRowsRecomputed_ = static_cast<long>(input_.queryCount());
}

template <typename T>
Status AttentionEngineT<T>::setEdit(const VectorEdit& edit)
{
    if (!hasResult()) return Status{StatusCode::EmptyTarget, "input"};
    if (Status s = validateEdit(input_, edit); !s.ok()) return s;
    const std::vector<VectorEdit> previous = input_.edits;
    upsertEdit(input_.edits, edit);
    HeadResultT<T>& hr = result_.heads[static_cast<std::size_t>(edit.head)];

    // Project the edited vector first; refuse (and leave everything as it was) if the
    // new scores would not be finite.
    const VectorT<T> vec = projectOne<T>(input_, edit.head, edit.role, edit.index);
    const long idx = edit.index;
    bool finite = vec.allFinite();
    if (finite && edit.role == Role::Key) {
        const VectorT<T> oldK = hr.K.row(idx).transpose();
        const VectorT<T> oldTurned = savedTurnedRow(hr.rotatedK, idx);
        const VectorT<T> oldCol = hr.scores.col(idx);
        hr.K.row(idx) = vec.transpose();
        turnEditedRow(input_, vec, idx, hr.rotatedK);
        computeScoreColumn<T>(input_, edit.head, hr.scoringQ(), hr.scoringK(), idx, hr.scores);
        finite = scoresStayFinite<T>(input_, hr.scores.col(idx));
        if (!finite) {
            hr.K.row(idx) = oldK.transpose();
            restoreTurnedRow(oldTurned, idx, hr.rotatedK);
            hr.scores.col(idx) = oldCol;
        }
    } else if (finite && edit.role == Role::Query) {
        const VectorT<T> oldQ = hr.Q.row(idx).transpose();
        const VectorT<T> oldTurned = savedTurnedRow(hr.rotatedQ, idx);
        const VectorT<T> oldRow = hr.scores.row(idx).transpose();
        hr.Q.row(idx) = vec.transpose();
        turnEditedRow(input_, vec, idx, hr.rotatedQ);
        computeScoreRow<T>(input_, edit.head, hr.scoringQ(), hr.scoringK(), idx, hr.scores);
        finite = scoresStayFinite<T>(input_, hr.scores.row(idx).transpose());
        if (!finite) {
            hr.Q.row(idx) = oldQ.transpose();
            restoreTurnedRow(oldTurned, idx, hr.rotatedQ);
            hr.scores.row(idx) = oldRow.transpose();
        }
    }
    if (!finite) {
        input_.edits = previous;
        Status s{StatusCode::NonFinite, "edit"};
        s.row = idx;
        return s;
    }

    switch (edit.role) {
    case Role::Key: updateKey(edit.head, edit.index); break;
    case Role::Query: updateQuery(edit.head, edit.index); break;
    case Role::Value: updateValue(edit.head, edit.index, vec); break;
    }
    recombine();
    return {};
}

// A key edit touches each row once with cheap arithmetic (one rescale pass, O(1) diagnostics):
// threads only pay off for very large maps, and idle OpenMP threads spin afterwards, taking a
// core from the GUI (bench-ui spent 17-22% of its time in libgomp at n = 512-1024 when edits
// went parallel from 1024^2 cells; one thread does n = 1024 in about 0.5 ms).
constexpr long kParallelEditCells = 2048L * 2048L;

template <typename T>
void AttentionEngineT<T>::updateKey(int head, int j)
{
    HeadResultT<T>& hr = result_.heads[static_cast<std::size_t>(head)];
    const long n = hr.scaled.rows();
    const ScoreScaler<T> scale(static_cast<T>(input_.scoreDivisor()));
    const VectorT<T> oldScaled = hr.scaled.col(j);
    for (long i = 0; i < n; ++i) scale.apply(&hr.scores(i, j), &hr.scaled(i, j), 1);
    const VectorT<T> vj = hr.V.row(j).transpose();
    const bool general = result_.maskKind == MaskKind::General;
    auto& book = detail::SoftmaxBookAccess::of(hr);
    long recomputed = 0;

#pragma omp parallel for schedule(dynamic, 32) reduction(+ : recomputed) \
    if (n * hr.weights.cols() >= kParallelEditCells)
    for (long i = 0; i < n; ++i) {
        const long count = rowCount(result_, hr, i);
        if (j >= count || (general && !hr.mask(i, j))) continue;
        T* w = &hr.weights(i, 0);
        const T pOld = w[j];
        const T sOld = oldScaled[i];
        const T sNew = hr.scaled(i, j);
        const T M = book.rowMax[i];
        const T Z = book.rowSum[i];
        const T rest = Z - pOld * Z;  // sum of exp(s_k - M) over the other cells
        // A cell that carried over half the row would leave the rest to cancellation.
        if (pOld > T(0.5) || !(rest > 0)) {
            recomputeRow(result_, hr, i);
            ++recomputed;
            continue;
        }
        const T Mnew = std::max(M, sNew);
        const T shiftOld = std::exp(M - Mnew);
        const T eNew = std::exp(sNew - Mnew);
        const T Znew = rest * shiftOld + eNew;
        if (!(Znew > T(1e-10))) {  // the reference drifted far above every score
            recomputeRow(result_, hr, i);
            ++recomputed;
            continue;
        }
        const T c = Z * shiftOld / Znew;
        const T pNew = eNew / Znew;
        Eigen::Map<VectorT<T>>(w, count) *= c;
        w[j] = pNew;
        book.rowMax[i] = Mnew;
        book.rowSum[i] = Znew;
        book.rowDot[i] = c * (book.rowDot[i] - pOld * sOld) + pNew * sNew;
        hr.output.row(i) = c * (hr.output.row(i) - pOld * vj.transpose()) + pNew * vj.transpose();
        RowSoftmax<T> facts;
        facts.max = Mnew;
        facts.sum = Znew;
        facts.dot = book.rowDot[i];
        if (!rescaleDiagnostics<T>(w, facts, i, c, j, pOld, pNew, hr))
            diagnoseRow<T>(w, count, facts, i, hr);
    }
    finishDiagnostics(hr.diagnostics);
    lastRowsRecomputed_ = recomputed;
}

template <typename T>
void AttentionEngineT<T>::updateQuery(int head, int i)
{
    HeadResultT<T>& hr = result_.heads[static_cast<std::size_t>(head)];
    ScoreScaler<T>(static_cast<T>(input_.scoreDivisor()))
        .apply(&hr.scores(i, 0), &hr.scaled(i, 0), hr.scores.cols());
    recomputeRow(result_, hr, i);
    finishDiagnostics(hr.diagnostics);
    lastRowsRecomputed_ = 1;
}

template <typename T>
void AttentionEngineT<T>::updateValue(int head, int j, const VectorT<T>& value)
{
    HeadResultT<T>& hr = result_.heads[static_cast<std::size_t>(head)];
    const VectorT<T> delta = value - hr.V.row(j).transpose();
    hr.V.row(j) = value.transpose();
    hr.output.noalias() += hr.weights.col(j) * delta.transpose();
    lastRowsRecomputed_ = 0;
}

template <typename T>
void AttentionEngineT<T>::recombine()
{
    combineHeads<T>(input_, result_);
}

template class AttentionEngineT<double>;
template class AttentionEngineT<float>;

}  // namespace attn
