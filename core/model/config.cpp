// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/model/config.h"

#include <cmath>
#include <cstdint>
#include <exception>
#include <nlohmann/json.hpp>

#include "core/io/bounded_file.h"
#include "core/io/json_read.h"
#include "core/model/config_reader.h"

namespace attn::model {

float ModelConfig::scoreDivisor() const
{
    return scalesScores() ? static_cast<float>(std::sqrt(static_cast<double>(headDim()))) : 1.0f;
}

namespace {

using detail::Reader;
using detail::shown;
using nlohmann::json;

// A config.json is a few kB (a classifier's id2label map adds some tens); 1 MiB bounds what its
// JSON tree can cost (a flat list of 0s: about 16 bytes per 2 bytes of text).
constexpr std::uint64_t kMaxConfigBytes = std::uint64_t{1} << 20;

#define ATTN_TRY(expr)                                     \
    do {                                                   \
        if (attn::Status s_ = (expr); !s_.ok()) return s_; \
    } while (false)

attn::Status parseGpt2(const Reader& r, const std::string& file, ModelConfig& c)
{
    c.family = Family::Gpt2;
    ATTN_TRY(r.size("n_layer", c.layers));
    ATTN_TRY(r.size("n_head", c.heads));
    ATTN_TRY(r.size("n_embd", c.width));
    // One token would leave the model nothing to predict (every probability 1).
    ATTN_TRY(r.size("vocab_size", c.vocab, -1, 2));
    if (r.has("n_positions"))
        ATTN_TRY(r.size("n_positions", c.positions));
    else
        ATTN_TRY(r.size("n_ctx", c.positions));
    ATTN_TRY(r.size("n_inner", c.inner, 4 * c.width));
    ATTN_TRY(r.number("layer_norm_epsilon", c.layerNormEps, 1e-5f));
    ATTN_TRY(r.activation("activation_function", "gelu_new", c.activation));
    ATTN_TRY(r.flag("scale_attn_weights", c.scaleAttention, true));
    ATTN_TRY(r.flag("tie_word_embeddings", c.tieWordEmbeddings, true));
    bool byLayer = false;
    ATTN_TRY(r.flag("scale_attn_by_inverse_layer_idx", byLayer, false));
    if (byLayer)
        return attn::failure(attn::StatusCode::UnsupportedModel, file,
                             "scale_attn_by_inverse_layer_idx", "true is not supported");
    return {};
}

attn::Status parseBert(const Reader& r, const std::string& file, ModelConfig& c)
{
    c.family = Family::Bert;
    ATTN_TRY(r.size("num_hidden_layers", c.layers));
    ATTN_TRY(r.size("num_attention_heads", c.heads));
    ATTN_TRY(r.size("hidden_size", c.width));
    ATTN_TRY(r.size("intermediate_size", c.inner));
    ATTN_TRY(r.size("max_position_embeddings", c.positions));
    ATTN_TRY(r.size("type_vocab_size", c.typeVocab, 2));
    // One token would leave the model nothing to predict (every probability 1).
    ATTN_TRY(r.size("vocab_size", c.vocab, -1, 2));
    ATTN_TRY(r.number("layer_norm_eps", c.layerNormEps, 1e-12f));
    ATTN_TRY(r.activation("hidden_act", "gelu", c.activation));
    ATTN_TRY(r.flag("tie_word_embeddings", c.tieWordEmbeddings, true));
    std::string positionType;
    ATTN_TRY(r.text("position_embedding_type", positionType, "absolute"));
    if (positionType != "absolute")
        return attn::failure(attn::StatusCode::UnsupportedModel, file, "position_embedding_type",
                             "\"" + positionType + "\" is not supported (supported: absolute)");
    bool decoder = false;
    ATTN_TRY(r.flag("is_decoder", decoder, false));
    if (decoder)
        return attn::failure(attn::StatusCode::UnsupportedModel, file, "is_decoder",
                             "BERT as a decoder is not supported");
    return {};
}

}  // namespace

const char* supportedModelTypes()
{
    return "gpt2, bert, llama, mistral, qwen2, qwen3";
}

attn::Status parseConfig(const std::string& text, const std::string& file, ModelConfig& out)
{
    try {
        json j;
        if (const io::JsonProblem p = io::parseJson(text, j); !p.ok())
            return attn::failure(attn::StatusCode::ConfigField, file, p.path,
                                 p.kind == io::JsonProblem::Kind::Syntax
                                     ? "not valid JSON: " + p.message
                                     : p.message);
        if (!j.is_object())
            return attn::failure(attn::StatusCode::ConfigField, file, "", "not a JSON object");
        const Reader r(j, file);
        ModelConfig c;
        const auto type = j.find("model_type");
        if (type == j.end() || !type->is_string())
            return attn::failure(attn::StatusCode::ConfigField, file, "model_type",
                                 std::string("missing (supported: ") + supportedModelTypes() + ")");
        c.modelType = type->get<std::string>();
        if (c.modelType == "gpt2") {
            ATTN_TRY(parseGpt2(r, file, c));
        } else if (c.modelType == "bert") {
            ATTN_TRY(parseBert(r, file, c));
        } else if (c.modelType == "llama" || c.modelType == "mistral" || c.modelType == "qwen2" ||
                   c.modelType == "qwen3") {
            ATTN_TRY(detail::parseDecoder(r, j, file, c.modelType, c));
            out = c;
            return {};
        } else {
            return attn::failure(attn::StatusCode::UnsupportedModel, file, "model_type",
                                 "\"" + c.modelType + "\" is not supported (supported: " +
                                     supportedModelTypes() + ")");
        }
        c.kvHeads = c.heads;
        if (c.width % c.heads != 0)
            return attn::failure(attn::StatusCode::ConfigField, file,
                                 c.family == Family::Gpt2 ? "n_embd" : "hidden_size",
                                 std::to_string(c.width) + " is not divisible by the " +
                                     std::to_string(c.heads) + " heads");
        out = c;
        return {};
    } catch (const std::exception& e) {
        return attn::failure(attn::StatusCode::ConfigField, file, "", e.what());
    }
}

namespace detail {

attn::Status readConfigText(const std::string& path, std::string& text)
{
    const io::ReadStatus s = io::readBoundedFile(path, kMaxConfigBytes, text);
    switch (s.error) {
    case io::ReadError::Ok: return {};
    case io::ReadError::NotRegular:
    case io::ReadError::TooLarge:
        return attn::failure(attn::StatusCode::ConfigField, path, "",
                             "not a config file: it " + io::describe(s));
    default:
        return attn::failure(attn::StatusCode::FileOpen, path, "",
                             "cannot open: " + io::describe(s));
    }
}

}  // namespace detail

attn::Status readConfig(const std::string& path, ModelConfig& out)
{
    std::string text;
    if (attn::Status s = detail::readConfigText(path, text); !s.ok()) return s;
    return parseConfig(text, path, out);
}

}  // namespace attn::model
