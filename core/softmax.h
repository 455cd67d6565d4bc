// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Masked row softmax and per-row diagnostics, on raw rows so that the full
// computation and the incremental updates share one implementation.
// Masked cells get exact zeros: exp(-inf) is never evaluated (Eigen returns a
// subnormal for it) and weights below the smallest normal number are flushed to 0.

#include "core/attention.h"

namespace attn {

// Whole-matrix checks that walk the storage linearly (Eigen's allFinite() and all()
// visit a row-major matrix column by column: at n = 4096 that is 90% of the time).
template <typename T>
bool allFiniteLinear(const MatrixT<T>& m);
// The same for `count` contiguous values (a row of a row-major matrix).
template <typename T>
bool allFiniteSpan(const T* values, long count);
bool allTrueLinear(const BoolMatrix& m);

// While alive, results that would be subnormal become 0 on this thread (x86 FTZ/DAZ).
// Eigen's vectorised exp() returns subnormals for very negative arguments; with this
// guard they come out as exact zeros without a per-element select (which Eigen 3.4 does
// not vectorise).
class FlushDenormalsGuard {
public:
    FlushDenormalsGuard();
    ~FlushDenormalsGuard();
    FlushDenormalsGuard(const FlushDenormalsGuard&) = delete;
    FlushDenormalsGuard& operator=(const FlushDenormalsGuard&) = delete;

private:
    unsigned saved_ = 0;
};

// Row loops use OpenMP threads only from this many cells on: below it, the threads'
// start-up and barriers cost more than they save, and on a loaded machine (the GUI
// thread, other programs) a waiting thread can stall a small loop for milliseconds.
inline constexpr long kParallelCells = 256L * 256L;

template <typename T>
struct RowSoftmax {
    T max = 0;  // reference shift (max of the allowed scaled scores)
    T sum = 0;  // sum of exp(scaled - max) over allowed cells
    T dot = 0;  // sum of weight * scaled over allowed cells
    bool fullyMasked = false;
};

// Softmax over the first `count` cells of a row of length `total`; cells at or
// beyond `count`, and cells where `allowed` (if not null) is false, become 0. Both
// `scaled` and `weights` hold `total` cells; those of `scaled` past `count` may be read.
template <typename T>
RowSoftmax<T> softmaxRow(const T* scaled, const bool* allowed, long count, long total, T* weights);

// Fills row i of the head's diagnostics (and its power sums) from its weights (first `count`
// cells) and its softmax facts, all but `fullyMasked`: that is a std::vector<bool>, 64 rows to
// a word, which threads working on different rows must not write. finishDiagnostics()
// derives it afterwards (argmax < 0).
// The row is borrowed for a moment (its largest entry is zeroed and restored exactly).
template <typename T>
void diagnoseRow(T* weights, long count, const RowSoftmax<T>& facts, long i, HeadResultT<T>& hr);

// Keeps row i's softmax facts in the head's bookkeeping for later incremental updates.
template <typename T>
inline void recordRow(HeadResultT<T>& hr, long i, const RowSoftmax<T>& facts)
{
    auto& book = detail::SoftmaxBookAccess::of(hr);
    book.rowMax[i] = facts.max;
    book.rowSum[i] = facts.sum;
    book.rowDot[i] = facts.dot;
}

// One row's softmax written out as the textbook does it, for "Show working": the largest
// scaled score over the allowed cells, each cell's exp(scaled - max) (0 where masked) and
// their sum, so that weight_j = exps_j / sum. Computed afresh from the row, not from the
// engine's bookkeeping (whose shift is only a reference after incremental edits).
struct RowWorking {
    double max = 0;
    Vector exps;
    double sum = 0;
    bool fullyMasked = true;
};
RowWorking explainRow(const HeadResult& hr, long i);

// Row i after a key edit: every allowed cell but column e was multiplied by c > 0 and cell e
// went from pOld to pNew (`weights` is the updated row, `facts` its new softmax facts).
// Updates the row's diagnostics and power sums in O(1) and returns true; returns false, doing
// nothing, when e was the row's argmax (the new argmax needs a pass over the row).
template <typename T>
bool rescaleDiagnostics(const T* weights, const RowSoftmax<T>& facts, long i, T c, long e, T pOld,
                        T pNew, HeadResultT<T>& hr);

// Sets `fullyMasked` from the argmax of every row (-1 marks a fully masked row).
template <typename T>
void finishDiagnostics(RowDiagnosticsT<T>& diag);

// Sizes the diagnostics and the power sums of a head for `rows` query rows.
template <typename T>
void resizeDiagnostics(HeadResultT<T>& hr, long rows);

}  // namespace attn
