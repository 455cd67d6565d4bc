// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/train/loss.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "core/train/checks.h"

namespace attn {

namespace {

using train_detail::checkFinite;
using train_detail::shapeError;

template <typename T>
Status checkSpec(const AttentionInput& in, const AttentionResultT<T>& r, const LossSpec& spec)
{
    const long n = in.queryCount();
    const long m = in.keyCount();
    for (std::size_t i = 0; i < spec.patterns.size(); ++i) {
        const PatternTarget& t = spec.patterns[i];
        const std::string field = "target pattern " + std::to_string(i + 1);
        if (t.head < 0 || t.head >= static_cast<int>(in.heads.size()))
            return Status{StatusCode::EditOutOfRange, field + ", head"};
        if (t.pattern.rows() != n || t.pattern.cols() != m)
            return shapeError(field, t.pattern.rows(), t.pattern.cols(), n, m);
        if (Status s = checkFinite(field, t.pattern); !s.ok()) return s;
        for (long row = 0; row < n; ++row) {
            for (long col = 0; col < m; ++col) {
                if (t.pattern(row, col) >= 0) continue;
                Status s{StatusCode::BadTarget, field};
                s.row = row;
                s.col = col;
                return s;
            }
        }
    }
    if (spec.output.size() != 0) {
        if (spec.output.rows() != r.output.rows() || spec.output.cols() != r.output.cols())
            return shapeError("target.output", spec.output.rows(), spec.output.cols(),
                              r.output.rows(), r.output.cols());
        if (Status s = checkFinite("target.output", spec.output); !s.ok()) return s;
    }
    if (!std::isfinite(spec.outputWeight))
        return Status{StatusCode::NonFinite, "target.outputWeight"};
    return {};
}

// The allowed target mass of row i: 0 when the row is fully masked or its target is 0 there.
double allowedMass(const PatternTarget& t, const BoolMatrix& mask, long i)
{
    double sum = 0;
    for (long j = 0; j < mask.cols(); ++j) {
        if (mask(i, j)) sum += t.pattern(i, j);
    }
    return sum;
}

// Cross-entropy -sum_j t_j log P_j of one row, log P from the scaled scores by log-sum-exp over
// the allowed cells (finite even where P underflowed to 0). Adds (P - t) * gain to dZ's row.
template <typename T>
T rowCrossEntropy(const HeadResultT<T>& hr, const PatternTarget& t, double mass, long i, T gain,
                  MatrixT<T>& dZ)
{
    const long m = hr.scaled.cols();
    T shift = -std::numeric_limits<T>::infinity();
    for (long j = 0; j < m; ++j) {
        if (hr.mask(i, j)) shift = std::max(shift, hr.scaled(i, j));
    }
    T sum = 0;
    for (long j = 0; j < m; ++j) {
        if (hr.mask(i, j)) sum += std::exp(hr.scaled(i, j) - shift);
    }
    const T logSum = shift + std::log(sum);
    T loss = 0;
    for (long j = 0; j < m; ++j) {
        if (!hr.mask(i, j)) continue;
        const T target = static_cast<T>(t.pattern(i, j) / mass);
        if (target > T(0)) loss -= target * (hr.scaled(i, j) - logSum);
        dZ(i, j) += (hr.weights(i, j) - target) * gain;
    }
    return loss;
}

}  // namespace

template <typename T>
Status evaluateLoss(const AttentionInput& in, const AttentionResultT<T>& r, const LossSpec& spec,
                    LossValueT<T>& value, CotangentT<T>* cotangent)
{
    if (Status s = checkSpec(in, r, spec); !s.ok()) return s;
    const long n = in.queryCount();
    const long m = in.keyCount();
    LossValueT<T> v;
    CotangentT<T> cot;

    // Cross-entropy: the mean over every (pattern, row) that has a target.
    for (const PatternTarget& t : spec.patterns) {
        const BoolMatrix& mask = r.heads[static_cast<std::size_t>(t.head)].mask;
        for (long i = 0; i < n; ++i) v.patternRows += allowedMass(t, mask, i) > 0 ? 1 : 0;
    }
    if (!spec.patterns.empty()) cot.scaled.assign(in.heads.size(), MatrixT<T>::Zero(n, m));
    if (v.patternRows > 0) {
        const T gain = T(1) / static_cast<T>(v.patternRows);
        T sum = 0;
        for (const PatternTarget& t : spec.patterns) {
            const auto h = static_cast<std::size_t>(t.head);
            const HeadResultT<T>& hr = r.heads[h];
            for (long i = 0; i < n; ++i) {
                const double mass = allowedMass(t, hr.mask, i);
                if (mass > 0) sum += rowCrossEntropy(hr, t, mass, i, gain, cot.scaled[h]);
            }
        }
        v.crossEntropy = sum * gain;
    }

    // Mean squared error over the entries of rows that are not fully masked.
    if (spec.output.size() != 0) {
        const BoolMatrix& mask = r.heads.front().mask;
        const long cols = r.output.cols();
        long rows = 0;
        for (long i = 0; i < n; ++i) rows += mask.row(i).any() ? 1 : 0;
        cot.output = MatrixT<T>::Zero(n, cols);
        if (rows > 0) {
            const T count = static_cast<T>(rows * cols);
            const T weight = static_cast<T>(spec.outputWeight);
            T sum = 0;
            for (long i = 0; i < n; ++i) {
                if (!mask.row(i).any()) continue;
                const auto diff = (r.output.row(i) - spec.output.row(i).cast<T>()).eval();
                sum += diff.squaredNorm();
                cot.output.row(i) = diff * (T(2) * weight / count);
            }
            v.mse = sum / count;
        }
    }
    v.total = v.crossEntropy + static_cast<T>(spec.outputWeight) * v.mse;
    value = v;
    if (cotangent != nullptr) *cotangent = std::move(cot);
    return {};
}

template Status evaluateLoss<double>(const AttentionInput&, const AttentionResultT<double>&,
                                     const LossSpec&, LossValueT<double>&, CotangentT<double>*);
template Status evaluateLoss<float>(const AttentionInput&, const AttentionResultT<float>&,
                                    const LossSpec&, LossValueT<float>&, CotangentT<float>*);

}  // namespace attn
