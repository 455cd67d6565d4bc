// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/head_pass.h"

#include <algorithm>
#include <atomic>
#include <string>
#include <type_traits>

#include "core/kernels/gemm.h"
#include "core/memory_advice.h"
#include "core/scores.h"
#include "core/softmax.h"

namespace attn {

template <typename M>
void resizeLarge(M& matrix, long rows, long cols)
{
    if (matrix.rows() == rows && matrix.cols() == cols) return;
    const bool fresh = matrix.size() != rows * cols;
    matrix.resize(rows, cols);
    if (fresh) adviseHugePages(matrix.data(), sizeof(typename M::Scalar) * matrix.size());
}

namespace {

// rows x cols of `out` (row stride ldo) = a (rows x inner, stride lda) times b, which is
// inner x cols (stride ldb), or cols x inner when `bTransposed`. Floats go through
// kernels::sgemm, whose kernel is chosen for the CPU at run time (a packaged build's Eigen
// products would be baseline SSE2 code); doubles stay with Eigen.
template <typename T>
void product(long rows, long inner, long cols, const T* a, long lda, const T* b, long ldb,
             bool bTransposed, T* out, long ldo)
{
    if constexpr (std::is_same_v<T, float>) {
        kernels::sgemm(rows, inner, cols, a, lda, b, ldb, bTransposed, nullptr, out, ldo);
    } else {
        using Stride = Eigen::OuterStride<>;
        using ConstMap = Eigen::Map<const MatrixT<T>, 0, Stride>;
        Eigen::Map<MatrixT<T>, 0, Stride> target(out, rows, cols, Stride(ldo));
        const ConstMap left(a, rows, inner, Stride(lda));
        if (bTransposed)
            target.noalias() = left * ConstMap(b, cols, inner, Stride(ldb)).transpose();
        else
            target.noalias() = left * ConstMap(b, inner, cols, Stride(ldb));
    }
}

template <typename T>
using RowArray = Eigen::Array<T, Eigen::Dynamic, 1>;

// Scaling, the additive bias, mask row, softmax and diagnostics of query row i, from its raw
// scores.
template <typename T>
RowFault weighRow(MaskKind kind, const BoolMatrix* general, const ScoreScaler<T>& scale,
                  const MatrixT<T>* bias, HeadResultT<T>& hr, long i)
{
    const long m = hr.scores.cols();
    const T* s = &hr.scores(i, 0);
    T* scaled = &hr.scaled(i, 0);
    scale.apply(s, scaled, m);
    if (bias != nullptr) {
        const T* b = &(*bias)(i, 0);
        for (long j = 0; j < m; ++j) scaled[j] += b[j];
    }
    if (!allFiniteSpan(scaled, m)) return allFiniteSpan(s, m) ? RowFault::Scaled : RowFault::Score;

    bool* maskRow = &hr.mask(i, 0);
    long count = m;
    const bool* allowed = nullptr;
    switch (kind) {
    case MaskKind::None: std::fill_n(maskRow, m, true); break;
    case MaskKind::Causal:
        count = std::min(i + 1, m);
        std::fill_n(maskRow, count, true);
        std::fill(maskRow + count, maskRow + m, false);
        break;
    case MaskKind::General:
        std::copy_n(&(*general)(i, 0), m, maskRow);
        allowed = maskRow;
        break;
    }
    const RowSoftmax<T> f = softmaxRow<T>(&hr.scaled(i, 0), allowed, count, m, &hr.weights(i, 0));
    recordRow(hr, i, f);
    diagnoseRow<T>(&hr.weights(i, 0), count, f, i, hr);
    return RowFault::None;
}

// Output rows i0 .. i0 + rows - 1 = their weights times V. Causal rows have no weight past
// their own column, so they go in slices of kCausalSliceRows that each stop at the slice's
// last column: the product shrinks to about half, as the softmax does.
template <typename T>
void writeOutput(MaskKind kind, long i0, long rows, HeadResultT<T>& hr)
{
    const long m = hr.weights.cols();
    const long slice = kind == MaskKind::Causal ? kCausalSliceRows : rows;
    for (long s0 = i0; s0 < i0 + rows; s0 += slice) {
        const long r = std::min(slice, i0 + rows - s0);
        const long cols = kind == MaskKind::Causal ? std::min(m, s0 + r) : m;
        product<T>(r, cols, hr.V.cols(), hr.weights.data() + s0 * m, m, hr.V.data(), hr.V.cols(),
                   false, hr.output.data() + s0 * hr.output.cols(), hr.output.cols());
    }
}

template <typename T>
void sizeHead(HeadResultT<T>& hr, long n, long m)
{
    resizeLarge(hr.scores, n, m);
    resizeLarge(hr.scaled, n, m);
    resizeLarge(hr.weights, n, m);
    resizeLarge(hr.mask, n, m);
    hr.output.resize(n, hr.V.cols());
    auto& book = detail::SoftmaxBookAccess::of(hr);
    book.rowMax.resize(n);
    book.rowSum.resize(n);
    book.rowDot.resize(n);
    resizeDiagnostics(hr, n);
}

}  // namespace

template <typename T>
Status weighHead(const AttentionInput& in, int head, MaskKind kind, const BoolMatrix* general,
                 HeadResultT<T>& hr, const MatrixT<T>* bias)
{
    const long n = hr.Q.rows();
    const long m = hr.K.rows();
    sizeHead(hr, n, m);
    const bool dot = in.score == ScoreFunction::Dot;
    // Turned by their positions when the input has rotary positions.
    const MatrixT<T>& Q = hr.scoringQ();
    const MatrixT<T>& K = hr.scoringK();
    // Additive scores are a row loop of their own (tanh dominates); dot products are made
    // block by block below.
    if (!dot) computeScores<T>(in, head, Q, K, hr.scores);

    const ScoreScaler<T> scale(static_cast<T>(in.scoreDivisor()));
    const long blocks = (n + kHeadBlockRows - 1) / kHeadBlockRows;
    std::atomic<int> fault{static_cast<int>(RowFault::None)};
    // Inside the parallel region each block's products run on the calling thread.
    // Last block first: under a causal mask later rows weigh more keys, and handing out the
    // largest blocks first evens the threads out (with 4 blocks on 2 threads, 3+0 and 2+1
    // instead of 0+2 and 1+3, which left one thread waiting a tenth of the time).
#pragma omp parallel for schedule(dynamic, 1) if (n * m >= kParallelCells)
    for (long k = 0; k < blocks; ++k) {
        if (fault.load(std::memory_order_relaxed) != 0) continue;
        const long i0 = (blocks - 1 - k) * kHeadBlockRows;
        const long rows = std::min(kHeadBlockRows, n - i0);
        if (dot)
            product<T>(rows, Q.cols(), m, Q.data() + i0 * Q.cols(), Q.cols(), K.data(), K.cols(),
                       true, hr.scores.data() + i0 * m, m);
        for (long i = i0; i < i0 + rows; ++i) {
            const RowFault f = weighRow<T>(kind, general, scale, bias, hr, i);
            if (f != RowFault::None) {
                fault.store(static_cast<int>(f), std::memory_order_relaxed);
                break;
            }
        }
        writeOutput(kind, i0, rows, hr);
    }
    if (fault.load() != 0) {
        const char* stage = fault.load() == static_cast<int>(RowFault::Score) ? "scores" : "scaled";
        return headFailure(StatusCode::NonFinite, static_cast<int>(head), stage);
    }
    finishDiagnostics(hr.diagnostics);
    return {};
}

template void resizeLarge<MatrixT<double>>(MatrixT<double>&, long, long);
template void resizeLarge<MatrixT<float>>(MatrixT<float>&, long, long);
template void resizeLarge<BoolMatrix>(BoolMatrix&, long, long);
template Status weighHead<double>(const AttentionInput&, int, MaskKind, const BoolMatrix*,
                                  HeadResultT<double>&, const MatrixT<double>*);
template Status weighHead<float>(const AttentionInput&, int, MaskKind, const BoolMatrix*,
                                 HeadResultT<float>&, const MatrixT<float>*);

}  // namespace attn
