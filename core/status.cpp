// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/status.h"

#include <sstream>

namespace attn {

const char* codeName(StatusCode code)
{
    switch (code) {
    case StatusCode::Ok: return "ok";
    case StatusCode::EmptyTarget: return "empty_target";
    case StatusCode::EmptySource: return "empty_source";
    case StatusCode::NoHeads: return "no_heads";
    case StatusCode::ZeroModelDim: return "zero_model_dim";
    case StatusCode::ZeroKeyDim: return "zero_key_dim";
    case StatusCode::ZeroValueDim: return "zero_value_dim";
    case StatusCode::ShapeMismatch: return "shape_mismatch";
    case StatusCode::MissingAdditive: return "missing_additive";
    case StatusCode::EditScaleTooLarge: return "edit_scale_too_large";
    case StatusCode::BadTarget: return "bad_target";
    case StatusCode::NonFinite: return "non_finite";
    case StatusCode::MaskShape: return "mask_shape";
    case StatusCode::BadTemperature: return "bad_temperature";
    case StatusCode::SharedNeedsEqualDims: return "shared_needs_equal_dims";
    case StatusCode::EditOutOfRange: return "edit_out_of_range";
    case StatusCode::TooLarge: return "too_large";
    case StatusCode::DuplicateEdit: return "duplicate_edit";
    }
    return "unknown";
}

std::string describe(const Status& s)
{
    std::ostringstream out;
    if (!s.field.empty()) out << s.field << ": ";
    switch (s.code) {
    case StatusCode::Ok: out << "ok"; break;
    case StatusCode::EmptyTarget: out << "the target sequence is empty (n = 0)"; break;
    case StatusCode::EmptySource: out << "the source sequence is empty (m = 0)"; break;
    case StatusCode::NoHeads: out << "there are no heads"; break;
    case StatusCode::ZeroModelDim: out << "the embedding dimension d_model is 0"; break;
    case StatusCode::ZeroKeyDim: out << "the key dimension d_k is 0"; break;
    case StatusCode::ZeroValueDim: out << "the value dimension d_v is 0"; break;
    case StatusCode::ShapeMismatch:
        out << "expected " << s.expectedRows << " x " << s.expectedCols << ", got " << s.row
            << " x " << s.col;
        break;
    case StatusCode::NonFinite:
        // Rows and columns from 1, as the maps number them; a check of a whole matrix at once
        // found no single cell and names none.
        if (s.row >= 0 && s.col >= 0)
            out << "the value at row " << s.row + 1 << ", column " << s.col + 1
                << " is not a finite number";
        else
            out << "holds a value that is not a finite number";
        break;
    case StatusCode::MaskShape:
        out << "the mask must be " << s.expectedRows << " x " << s.expectedCols << ", got " << s.row
            << " x " << s.col;
        break;
    case StatusCode::BadTemperature: out << "the temperature must be a finite number > 0"; break;
    case StatusCode::SharedNeedsEqualDims: out << "shared projections need d_v equal to d_k"; break;
    case StatusCode::EditOutOfRange:
        out << "the edit names a head, position or component that does not exist";
        break;
    case StatusCode::TooLarge:
        out << "computing this would need " << (s.bytesNeeded >> 20) << " MiB, over the budget of "
            << (s.bytesBudget >> 20) << " MiB";
        break;
    case StatusCode::DuplicateEdit:
        out << "edits the same vector (" << s.subject << ") as edits[" << s.row
            << "]; give each vector one edit";
        break;
    case StatusCode::MissingAdditive:
        out << "is empty: additive scoring needs every head's W_a, U_a and v (d_a >= 1)";
        break;
    case StatusCode::EditScaleTooLarge:
        out << "a scale beyond 1e100 in size: the scores of that vector would overflow";
        break;
    case StatusCode::BadTarget:
        out << "(row " << s.row + 1 << ", column " << s.col + 1
            << ") is negative: a target pattern holds weights >= 0";
        break;
    }
    return out.str();
}

}  // namespace attn
