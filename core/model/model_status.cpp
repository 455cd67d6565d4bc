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
    }
    return "unknown";
}

}  // namespace attn::model
