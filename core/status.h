// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Status of a core operation: a code plus the facts that name the problem.
// The core never produces user-facing prose beyond describe()'s plain English
// (for logs, tests and the command line); the UI translates from the code.

#include <cstddef>
#include <string>

namespace attn {

enum class StatusCode {
    Ok,
    EmptyTarget,           // n = 0
    EmptySource,           // m = 0 in cross mode
    NoHeads,               // h = 0
    ZeroModelDim,          // d_model = 0
    ZeroKeyDim,            // d_k = 0
    ZeroValueDim,          // d_v = 0
    ShapeMismatch,         // field has the wrong number of rows or columns
    NonFinite,             // NaN or +-Inf in field at (row, col)
    MaskShape,             // custom mask is not n x m
    BadTemperature,        // temperature <= 0 or not finite
    SharedNeedsEqualDims,  // shared projections need d_k == d_v
    EditOutOfRange,        // a vector edit names a head, row or component that does not exist
    TooLarge,              // the stages would need more memory than the budget
    DuplicateEdit,         // two edits name the same vector: `row` is the earlier edit's index
    MissingAdditive,       // additive scoring, but a head has no additive parameters (d_a = 0)
    EditScaleTooLarge,     // an edit's scale beyond kMaxEditScale: its scores would overflow
    BadTarget,             // a training target entry is negative (field, row, col name it)
};

struct Status {
    StatusCode code = StatusCode::Ok;
    std::string field;  // e.g. "X", "heads[1].W_K", "mask", "edits[0]"
    long row = -1;      // for NonFinite / ShapeMismatch: where, or expected rows
    long col = -1;
    long expectedRows = -1;
    long expectedCols = -1;
    std::size_t bytesNeeded = 0;  // for TooLarge
    std::size_t bytesBudget = 0;
    std::string subject{};  // what the field is about, e.g. "value 1 of head 1" (1-based)

    [[nodiscard]] bool ok() const { return code == StatusCode::Ok; }
    static Status success() { return {}; }
};

// Short English description naming the problem, e.g.
// "heads[0].W_Q: expected 4 x 3, got 4 x 2".
std::string describe(const Status& status);
// Stable identifier of a code ("shape_mismatch"), for files and tests.
const char* codeName(StatusCode code);

}  // namespace attn
