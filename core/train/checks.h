// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Shape and finiteness checks of the training code's inputs (cotangents, targets), with the
// same Status conventions as validate() in core/attention_input.h.

#include <cmath>
#include <initializer_list>
#include <string>
#include <utility>

#include "core/status.h"

namespace attn::train_detail {

inline Status shapeError(const std::string& field, long rows, long cols, long wantRows,
                         long wantCols)
{
    Status s{StatusCode::ShapeMismatch, field};
    s.row = rows;
    s.col = cols;
    s.expectedRows = wantRows;
    s.expectedCols = wantCols;
    return s;
}

// NonFinite naming the first NaN or infinite entry of `m` (row, col), or Ok.
template <typename M>
Status checkFinite(const std::string& field, const M& m)
{
    for (long r = 0; r < m.rows(); ++r) {
        for (long c = 0; c < m.cols(); ++c) {
            if (!std::isfinite(static_cast<double>(m(r, c)))) {
                Status s{StatusCode::NonFinite, field};
                s.row = r;
                s.col = c;
                return s;
            }
        }
    }
    return {};
}

// An empty matrix is accepted (no contribution); otherwise rows x cols and finite.
template <typename M>
Status checkOptional(const std::string& field, const M& m, long rows, long cols)
{
    if (m.size() == 0) return {};
    if (m.rows() != rows || m.cols() != cols)
        return shapeError(field, m.rows(), m.cols(), rows, cols);
    return checkFinite(field, m);
}

// ConfigField naming the first of `sizes` (name, value) that is not positive, or Ok.
inline Status positiveSizes(std::initializer_list<std::pair<const char*, long>> sizes)
{
    for (const auto& [name, value] : sizes)
        if (value <= 0)
            return failure(StatusCode::ConfigField, "", name,
                           "must be positive, got " + std::to_string(value));
    return {};
}

}  // namespace attn::train_detail
