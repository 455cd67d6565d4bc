// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/softmax.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <limits>
#include <type_traits>
#if defined(__SSE2__)
#include <immintrin.h>
#endif

#include "core/kernels/activation.h"

namespace attn {

namespace {

template <typename T>
using RowArray = Eigen::Array<T, Eigen::Dynamic, 1>;

}  // namespace

template <typename T>
bool allFiniteSpan(const T* values, long count)
{
    if (count == 0) return true;
    const Eigen::Map<const RowArray<T>> a(values, count);
    // x - x is 0 for finite x and NaN for NaN or +-Inf; a sum with a NaN is NaN.
    return (a - a).sum() == T(0);
}

template <typename T>
bool allFiniteLinear(const MatrixT<T>& m)
{
    return allFiniteSpan(m.data(), m.size());
}

bool allTrueLinear(const BoolMatrix& m)
{
    const bool* d = m.data();
    return std::all_of(d, d + m.size(), [](bool b) { return b; });
}

FlushDenormalsGuard::FlushDenormalsGuard()
{
#if defined(__SSE2__)
    saved_ = _mm_getcsr();
    _mm_setcsr(saved_ | 0x8040u);  // FTZ (bit 15) and DAZ (bit 6)
#endif
}

FlushDenormalsGuard::~FlushDenormalsGuard()
{
#if defined(__SSE2__)
    _mm_setcsr(saved_);
#endif
}

template <typename T>
RowSoftmax<T> softmaxRow(const T* scaled, const bool* allowed, long count, long total, T* weights)
{
    RowSoftmax<T> facts;
    Eigen::Map<const RowArray<T>> s(scaled, count);
    Eigen::Map<RowArray<T>> w(weights, count);
    const auto zeroTail = [&] {
        if (total > count) Eigen::Map<RowArray<T>>(weights + count, total - count).setZero();
    };

    const FlushDenormalsGuard flush;
    if (allowed == nullptr) {
        if (count == 0) {
            zeroTail();
            facts.fullyMasked = true;
            return facts;
        }
        facts.max = s.maxCoeff();
        if constexpr (std::is_same_v<T, float>) {
            // The run-time kernel path: 8 lanes where the CPU has AVX2, whatever the build's.
            kernels::expShifted(scaled, facts.max, weights, count);
        } else {
            // A causal prefix rarely ends on a whole SIMD packet, and Eigen takes the last few
            // cells through the scalar exp. The exp runs on to the packet's end instead, over
            // cells of the row that zeroTail() then overwrites, whatever their exp gave.
            constexpr long packet = Eigen::internal::packet_traits<T>::size;
            const long padded = std::min(total, (count + packet - 1) / packet * packet);
            Eigen::Map<RowArray<T>>(weights, padded) =
                (Eigen::Map<const RowArray<T>>(scaled, padded) - facts.max).exp();
        }
        zeroTail();
#if !defined(__SSE2__)
        w = (w < std::numeric_limits<T>::min()).select(T(0), w);
#endif
    } else {
        zeroTail();
        Eigen::Map<const Eigen::Array<bool, Eigen::Dynamic, 1>> a(allowed, count);
        if (!a.any()) {
            w.setZero();
            facts.fullyMasked = true;
            return facts;
        }
        w = a.select(s, std::numeric_limits<T>::lowest());
        facts.max = w.maxCoeff();
        w = (w - facts.max).exp();
        // Masked cells are exact zeros whatever the exp of a huge negative number gives.
        w = a.select(w, T(0));
#if !defined(__SSE2__)
        w = (w < std::numeric_limits<T>::min()).select(T(0), w);
#endif
    }
    facts.sum = w.sum();
    w *= T(1) / facts.sum;
    facts.dot = (w * s).sum();
    return facts;
}

namespace {

// ||diag(p) - p p^T||_F^2 written with the dominant entry k taken apart, so that a nearly
// one-hot row gives an accurate small norm instead of cancelling to noise:
//   p_k^2 o^2 + sum_{j!=k} p_j^2 (1-p_j)^2 + 2 p_k^2 R + R^2 - sum_{j!=k} p_j^4,
// with o = sum_{j!=k} p_j (= 1 - p_k) and R = sum_{j!=k} p_j^2. Every p_j with j != k is at
// most 1/2, so sum p_j^2 (1-p_j)^2 = S2 - 2 S3 + S4 loses at most a few ulps.
template <typename T>
T jacobianNorm(T pk, const T* sums)
{
    const T o = sums[0];
    const T r = sums[1];
    const T t = sums[1] - 2 * sums[2] + sums[3];
    const T norm2 = pk * pk * o * o + t + 2 * pk * pk * r + (r * r - sums[3]);
    return std::sqrt(std::max(T(0), norm2));
}

template <typename T>
void markEmpty(RowDiagnosticsT<T>& diag, long i)
{
    diag.entropy[i] = 0;
    diag.maxWeight[i] = 0;
    diag.argmax[i] = -1;
    diag.jacobianNorm[i] = 0;
}

}  // namespace

template <typename T>
void diagnoseRow(T* weights, long count, const RowSoftmax<T>& facts, long i, HeadResultT<T>& hr)
{
    RowDiagnosticsT<T>& diag = hr.diagnostics;
    T* sums = &detail::SoftmaxBookAccess::of(hr).powerSums(i, 0);
    if (facts.fullyMasked || count == 0) {
        markEmpty(diag, i);
        std::fill_n(sums, 4, T(0));
        return;
    }
    Eigen::Map<const RowArray<T>> p(weights, count);
    // maxCoeff() vectorises; maxCoeff(&index) is a scalar visitor in Eigen 3.4 and took
    // most of a key edit. The first position holding the maximum is the argmax.
    const T pk = p.maxCoeff();
    const long k = std::find(weights, weights + count, pk) - weights;
    // Weights come from finite scaled scores (the one finiteness rule of the full and the
    // incremental paths), so the maximum is always found; never write past the row.
    assert(k < count);
    if (k >= count) {
        markEmpty(diag, i);
        std::fill_n(sums, 4, T(0));
        return;
    }
    diag.maxWeight[i] = pk;
    diag.argmax[i] = static_cast<int>(k);
    diag.entropy[i] = std::max(T(0), facts.max + std::log(facts.sum) - facts.dot);

    // The power sums over j != k in one vectorised pass over the whole row, with p_k set to
    // 0 for the moment (restored exactly afterwards).
    weights[k] = 0;
    T s1 = 0, s2 = 0, s3 = 0, s4 = 0;
#pragma omp simd reduction(+ : s1, s2, s3, s4)
    for (long j = 0; j < count; ++j) {
        const T pj = weights[j];
        const T p2 = pj * pj;
        s1 += pj;
        s2 += p2;
        s3 += p2 * pj;
        s4 += p2 * p2;
    }
    weights[k] = pk;
    sums[0] = s1;
    sums[1] = s2;
    sums[2] = s3;
    sums[3] = s4;
    diag.jacobianNorm[i] = jacobianNorm(pk, sums);
}

template <typename T>
bool rescaleDiagnostics(const T* weights, const RowSoftmax<T>& facts, long i, T c, long e, T pOld,
                        T pNew, HeadResultT<T>& hr)
{
    RowDiagnosticsT<T>& diag = hr.diagnostics;
    const long k = diag.argmax[i];
    if (k < 0 || k == e) return false;
    T* sums = &detail::SoftmaxBookAccess::of(hr).powerSums(i, 0);
    // Cell e leaves the sums at its old value, the rest scale by c^a, e comes back at pNew.
    const T o2 = pOld * pOld;
    const T n2 = pNew * pNew;
    const T old[4] = {pOld, o2, o2 * pOld, o2 * o2};
    const T fresh[4] = {pNew, n2, n2 * pNew, n2 * n2};
    T power = 1;
    for (int a = 0; a < 4; ++a) {
        power *= c;
        sums[a] = std::max(T(0), power * (sums[a] - old[a]) + fresh[a]);
    }
    T pk = weights[k];
    long argmax = k;
    if (pNew > pk || (pNew == pk && e < k)) {  // the edited cell becomes the largest
        const T k2 = pk * pk;
        const T leaving[4] = {pk, k2, k2 * pk, k2 * k2};
        for (int a = 0; a < 4; ++a) sums[a] = std::max(T(0), sums[a] - fresh[a] + leaving[a]);
        argmax = e;
        pk = pNew;
    }
    diag.argmax[i] = static_cast<int>(argmax);
    diag.maxWeight[i] = pk;
    diag.entropy[i] = std::max(T(0), facts.max + std::log(facts.sum) - facts.dot);
    diag.jacobianNorm[i] = jacobianNorm(pk, sums);
    return true;
}

template <typename T>
void finishDiagnostics(RowDiagnosticsT<T>& diag)
{
    const auto rows = static_cast<std::size_t>(diag.argmax.size());
    diag.fullyMasked.resize(rows);
    for (std::size_t i = 0; i < rows; ++i)
        diag.fullyMasked[i] = diag.argmax[static_cast<Eigen::Index>(i)] < 0;
}

template <typename T>
void resizeDiagnostics(HeadResultT<T>& hr, long rows)
{
    RowDiagnosticsT<T>& diag = hr.diagnostics;
    diag.entropy.setZero(rows);
    diag.maxWeight.setZero(rows);
    diag.argmax.setConstant(rows, -1);
    diag.jacobianNorm.setZero(rows);
    diag.fullyMasked.assign(static_cast<std::size_t>(rows), false);
    detail::SoftmaxBookAccess::of(hr).powerSums.setZero(rows, 4);
}

RowWorking explainRow(const HeadResult& hr, long i)
{
    RowWorking w;
    const long m = hr.scaled.cols();
    w.exps = Vector::Zero(m);
    for (long j = 0; j < m; ++j) {
        if (!hr.mask(i, j)) continue;
        w.max = w.fullyMasked ? hr.scaled(i, j) : std::max(w.max, hr.scaled(i, j));
        w.fullyMasked = false;
    }
    if (w.fullyMasked) return w;
    for (long j = 0; j < m; ++j) {
        if (hr.mask(i, j)) w.exps[j] = std::exp(hr.scaled(i, j) - w.max);
    }
    w.sum = w.exps.sum();
    return w;
}

#define ATTN_INSTANTIATE(T)                                                                  \
    template bool allFiniteLinear<T>(const MatrixT<T>&);                                     \
    template bool allFiniteSpan<T>(const T*, long);                                          \
    template RowSoftmax<T> softmaxRow<T>(const T*, const bool*, long, long, T*);             \
    template void diagnoseRow<T>(T*, long, const RowSoftmax<T>&, long, HeadResultT<T>&);     \
    template bool rescaleDiagnostics<T>(const T*, const RowSoftmax<T>&, long, T, long, T, T, \
                                        HeadResultT<T>&);                                    \
    template void resizeDiagnostics<T>(HeadResultT<T>&, long);                               \
    template void finishDiagnostics<T>(RowDiagnosticsT<T>&);
ATTN_INSTANTIATE(double)
ATTN_INSTANTIATE(float)
#undef ATTN_INSTANTIATE

}  // namespace attn
