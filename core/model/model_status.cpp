// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/model/model_status.h"

#include <utility>

namespace attn::model {

ModelStatus modelError(ModelError code, std::string file, std::string field,
                       const std::string& detail)
{
    ModelStatus s;
    s.code = code;
    s.file = std::move(file);
    s.field = std::move(field);
    s.detail = detail;
    if (!s.file.empty()) s.message += s.file + ": ";
    if (!s.field.empty()) s.message += s.field + ": ";
    s.message += detail;
    return s;
}

const char* modelErrorName(ModelError code)
{
    switch (code) {
    case ModelError::Ok: return "ok";
    case ModelError::FileOpen: return "file_open";
    case ModelError::FileTruncated: return "file_truncated";
    case ModelError::HeaderTooLarge: return "header_too_large";
    case ModelError::HeaderSyntax: return "header_syntax";
    case ModelError::HeaderField: return "header_field";
    case ModelError::UnknownDtype: return "unknown_dtype";
    case ModelError::UnsupportedDtype: return "unsupported_dtype";
    case ModelError::BadOffsets: return "bad_offsets";
    case ModelError::Overlap: return "overlap";
    case ModelError::ConfigField: return "config_field";
    case ModelError::UnsupportedModel: return "unsupported_model";
    case ModelError::MissingTensor: return "missing_tensor";
    case ModelError::TensorShape: return "tensor_shape";
    case ModelError::EmptyInput: return "empty_input";
    case ModelError::TooLong: return "too_long";
    case ModelError::TokenOutOfRange: return "token_out_of_range";
    case ModelError::BadPosition: return "bad_position";
    case ModelError::BadLayer: return "bad_layer";
    case ModelError::NonFinite: return "non_finite";
    case ModelError::Cancelled: return "cancelled";
    case ModelError::DuplicateEdit: return "duplicate_edit";
    }
    return "unknown";
}

std::string whereInModel(const ModelStatus& s)
{
    std::string where;
    if (s.layer >= 0) where = "layer " + std::to_string(s.layer + 1);
    if (s.head >= 0) where += (where.empty() ? "head " : " head ") + std::to_string(s.head + 1);
    if (!s.stage.empty()) where += (where.empty() ? "" : ", ") + s.stage;
    return where;
}

std::string describeNonFinite(const ModelStatus& s)
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

}  // namespace attn::model
