// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/status.h"

#include <sstream>
#include <utility>

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
    case StatusCode::BadRope: return "bad_rope";
    case StatusCode::NonFinite: return "non_finite";
    case StatusCode::MaskShape: return "mask_shape";
    case StatusCode::BadTemperature: return "bad_temperature";
    case StatusCode::SharedNeedsEqualDims: return "shared_needs_equal_dims";
    case StatusCode::EditOutOfRange: return "edit_out_of_range";
    case StatusCode::TooLarge: return "too_large";
    case StatusCode::DuplicateEdit: return "duplicate_edit";
    case StatusCode::FileOpen: return "file_open";
    case StatusCode::FileTruncated: return "file_truncated";
    case StatusCode::HeaderTooLarge: return "header_too_large";
    case StatusCode::HeaderSyntax: return "header_syntax";
    case StatusCode::HeaderField: return "header_field";
    case StatusCode::UnknownDtype: return "unknown_dtype";
    case StatusCode::UnsupportedDtype: return "unsupported_dtype";
    case StatusCode::BadOffsets: return "bad_offsets";
    case StatusCode::Overlap: return "overlap";
    case StatusCode::ConfigField: return "config_field";
    case StatusCode::UnsupportedModel: return "unsupported_model";
    case StatusCode::MissingTensor: return "missing_tensor";
    case StatusCode::TensorShape: return "tensor_shape";
    case StatusCode::EmptyInput: return "empty_input";
    case StatusCode::TooLong: return "too_long";
    case StatusCode::TokenOutOfRange: return "token_out_of_range";
    case StatusCode::BadPosition: return "bad_position";
    case StatusCode::BadLayer: return "bad_layer";
    case StatusCode::Cancelled: return "cancelled";
    case StatusCode::TokenizerFile: return "tokenizer_file";
    case StatusCode::TokenizerSyntax: return "tokenizer_syntax";
    case StatusCode::TokenizerMismatch: return "tokenizer_mismatch";
    case StatusCode::TokenizerGrowth: return "tokenizer_growth";
    case StatusCode::FolderMismatch: return "folder_mismatch";
    case StatusCode::TorchArchive: return "torch_archive";
    case StatusCode::PickleGlobal: return "pickle_global";
    }
    return "unknown";
}

Status failure(StatusCode code, std::string file, std::string field, std::string detail)
{
    Status s;
    s.code = code;
    s.file = std::move(file);
    s.field = std::move(field);
    s.detail = std::move(detail);
    return s;
}

Status headFailure(StatusCode code, int head, std::string field)
{
    Status s;
    s.code = code;
    s.field = std::move(field);
    s.head = head;
    return s;
}

std::string whereInModel(const Status& s)
{
    std::string where;
    if (s.layer >= 0) where = "layer " + std::to_string(s.layer + 1);
    if (s.head >= 0) where += (where.empty() ? "head " : " head ") + std::to_string(s.head + 1);
    if (!s.stage.empty()) where += (where.empty() ? "" : ", ") + s.stage;
    return where;
}

namespace {

// A model run's value that is not finite: where it arose, then its cause.
std::string describeNonFinite(const Status& s)
{
    const std::string where = whereInModel(s);
    std::string out =
        (where.empty() ? std::string("a value") : where + ": a value") + " is not a finite number";
    switch (s.cause) {
    case Cause::Unknown: break;
    case Cause::Weights:
        out += "; the weights caused it: " + (s.field.empty() ? std::string("a tensor") : s.field) +
               " holds NaN or Inf";
        break;
    case Cause::Text:
        out +=
            "; the text caused it: the weights are finite, but on this text a value grows "
            "beyond the range of a float";
        break;
    case Cause::Edit:
        out += "; the edit caused it (the run without edits is finite)";
        if (s.edit >= 0) out += ": edit " + std::to_string(s.edit + 1);
        if (!s.subject.empty())
            out += (s.edit >= 0 ? " (" : ": ") + s.subject + (s.edit >= 0 ? ")" : "");
        break;
    }
    return out;
}

// "head 2, W_K: ", "edit 1, scale: ", "X: " or "".
std::string placeOf(const Status& s)
{
    std::string out;
    const auto add = [&out](const std::string& part) {
        if (!part.empty()) out += (out.empty() ? "" : ", ") + part;
    };
    if (s.layer >= 0) add("layer " + std::to_string(s.layer + 1));
    if (s.head >= 0) add("head " + std::to_string(s.head + 1));
    if (s.edit >= 0) add("edit " + std::to_string(s.edit + 1));
    add(s.field);
    return out.empty() ? out : out + ": ";
}

// Checkpoints, model runs and tokenizers: the names, then the sentence after them. An edit's
// field names its part at fault, which its subject already shows.
std::string describeWithDetail(const Status& s)
{
    std::ostringstream out;
    if (!s.file.empty()) out << s.file << ": ";
    if (s.edit >= 0) {
        out << "edit " << s.edit + 1;
        if (!s.subject.empty()) out << " (" << s.subject << ")";
        out << ": ";
    } else if (!s.field.empty()) {
        out << s.field << ": ";
    }
    out << s.detail;
    return out.str();
}

// Writes the message of a code that names numbers of its status (sizes, rows, an edit); false
// for the codes that do not, whose message is fixedMessage's.
bool writeCountedMessage(std::ostringstream& out, const Status& s)
{
    switch (s.code) {
    case StatusCode::ShapeMismatch:
        out << "expected " << s.expectedRows << " x " << s.expectedCols << ", got " << s.row
            << " x " << s.col;
        return true;
    case StatusCode::NonFinite:
        // Rows and columns from 1, as the maps number them; a check of a whole matrix at once
        // found no single cell and names none.
        if (s.row >= 0 && s.col >= 0)
            out << "the value at row " << s.row + 1 << ", column " << s.col + 1
                << " is not a finite number";
        else
            out << "holds a value that is not a finite number";
        return true;
    case StatusCode::MaskShape:
        out << "the mask must be " << s.expectedRows << " x " << s.expectedCols << ", got " << s.row
            << " x " << s.col;
        return true;
    case StatusCode::TooLarge:
        out << "computing this would need " << (s.bytesNeeded >> 20) << " MiB, over the budget of "
            << (s.bytesBudget >> 20) << " MiB";
        return true;
    case StatusCode::DuplicateEdit:
        if (s.field == "overrides")
            out << "set component " << s.col + 1 << " twice; give each component once";
        else
            out << "edits the same vector (" << s.subject << ") as edit " << s.row + 1
                << "; give each vector one edit";
        return true;
    case StatusCode::BadTarget:
        out << "(row " << s.row + 1 << ", column " << s.col + 1
            << ") is negative: a target pattern holds weights >= 0";
        return true;
    default: return false;
    }
}

// The message of a code that names no number. Every code has a case, so that a new code
// without a message does not compile (-Wswitch); the counted ones return "".
const char* fixedMessage(StatusCode code)
{
    switch (code) {
    case StatusCode::Ok: return "ok";
    case StatusCode::EmptyTarget: return "the target sequence is empty (n = 0)";
    case StatusCode::EmptySource: return "the source sequence is empty (m = 0)";
    case StatusCode::NoHeads: return "there are no heads";
    case StatusCode::ZeroModelDim: return "the embedding dimension d_model is 0";
    case StatusCode::ZeroKeyDim: return "the key dimension d_k is 0";
    case StatusCode::ZeroValueDim: return "the value dimension d_v is 0";
    case StatusCode::ShapeMismatch:
    case StatusCode::NonFinite:
    case StatusCode::MaskShape:
    case StatusCode::TooLarge:
    case StatusCode::DuplicateEdit:
    case StatusCode::BadTarget: return "";
    case StatusCode::BadTemperature: return "the temperature must be a finite number > 0";
    case StatusCode::SharedNeedsEqualDims: return "shared projections need d_v equal to d_k";
    case StatusCode::EditOutOfRange:
        return "the edit names a head, position or component that does not exist";
    case StatusCode::MissingAdditive:
        return "is empty: additive scoring needs every head's W_a, U_a and v (d_a >= 1)";
    case StatusCode::EditScaleTooLarge:
        return "a scale beyond 1e100 in size: the scores of that vector would overflow";
    case StatusCode::FileOpen: return "cannot be opened";
    case StatusCode::FileTruncated: return "is shorter than its header says";
    case StatusCode::HeaderTooLarge: return "the header is too large";
    case StatusCode::HeaderSyntax: return "not valid JSON";
    case StatusCode::HeaderField: return "a tensor entry is malformed";
    case StatusCode::UnknownDtype: return "unknown dtype";
    case StatusCode::UnsupportedDtype: return "a dtype the model cannot use";
    case StatusCode::BadOffsets: return "data offsets out of range";
    case StatusCode::Overlap: return "two tensors share bytes";
    case StatusCode::ConfigField: return "missing or wrong";
    case StatusCode::UnsupportedModel: return "a model this program does not run";
    case StatusCode::MissingTensor: return "missing";
    case StatusCode::TensorShape: return "the wrong shape";
    case StatusCode::EmptyInput: return "no tokens to run";
    case StatusCode::TooLong: return "more tokens than the model has positions";
    case StatusCode::TokenOutOfRange: return "a token outside the vocabulary";
    case StatusCode::BadPosition: return "a position outside the text";
    case StatusCode::BadLayer: return "a layer or head outside the model";
    case StatusCode::Cancelled: return "cancelled";
    case StatusCode::TokenizerFile: return "cannot be read";
    case StatusCode::TokenizerSyntax: return "is not a valid tokenizer file";
    case StatusCode::TokenizerMismatch: return "the tokenizer does not fit the model";
    case StatusCode::TokenizerGrowth: return "a tokenizer stage would grow the text too far";
    case StatusCode::FolderMismatch: return "does not belong with the other files of its folder";
    case StatusCode::TorchArchive: return "not a torch.save file this reader can read";
    case StatusCode::PickleGlobal: return "its pickle names a function that is never called";
    case StatusCode::BadRope: return "rotary positions cannot be applied";
    }
    return "";
}

}  // namespace

std::string describe(const Status& s)
{
    if (s.code == StatusCode::NonFinite && s.detail.empty() &&
        (s.layer >= 0 || s.cause != Cause::Unknown || !s.stage.empty()))
        return describeNonFinite(s);
    if (!s.detail.empty()) return describeWithDetail(s);
    std::ostringstream out;
    if (!s.file.empty()) out << s.file << ": ";
    out << placeOf(s);
    if (!writeCountedMessage(out, s)) out << fixedMessage(s.code);
    return out.str();
}

}  // namespace attn
