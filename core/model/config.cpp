// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/model/config.h"

#include <cstdint>
#include <exception>
#include <nlohmann/json.hpp>

#include "core/io/bounded_file.h"
#include "core/io/json_read.h"

namespace attn::model {

namespace {

using nlohmann::json;

constexpr long kMaxDimension = 1L << 24;
// A config.json is a few kB (a classifier's id2label map adds some tens); 1 MiB bounds what its
// JSON tree can cost (a flat list of 0s: about 16 bytes per 2 bytes of text).
constexpr std::uint64_t kMaxConfigBytes = std::uint64_t{1} << 20;

// A value as written, shortened for a message (a 1 MiB string does not belong in one).
std::string shown(const json& v)
{
    std::string s = v.dump();
    if (s.size() > 64) {
        std::size_t cut = 60;
        while (cut > 0 && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80) --cut;
        s = s.substr(0, cut) + " ...";
    }
    return s;
}

class Reader {
public:
    Reader(const json& j, const std::string& file) : j_(j), file_(file) {}

    // A required (or defaulted, when `fallback` >= 0) positive integer.
    attn::Status size(const char* key, long& out, long fallback = -1) const
    {
        const auto it = j_.find(key);
        if (it == j_.end() || it->is_null()) {
            if (fallback >= 0) {
                out = fallback;
                return {};
            }
            return attn::failure(attn::StatusCode::ConfigField, file_, key, "missing");
        }
        if (!it->is_number_integer() || it->get<std::int64_t>() <= 0 ||
            it->get<std::int64_t>() > kMaxDimension)
            return attn::failure(attn::StatusCode::ConfigField, file_, key,
                                 "must be a positive integer up to 2^24, got " + shown(*it));
        out = static_cast<long>(it->get<std::int64_t>());
        return {};
    }

    attn::Status number(const char* key, float& out, float fallback) const
    {
        const auto it = j_.find(key);
        if (it == j_.end() || it->is_null()) {
            out = fallback;
            return {};
        }
        if (!it->is_number() || !(it->get<double>() > 0.0) || !(it->get<double>() < 1.0))
            return attn::failure(attn::StatusCode::ConfigField, file_, key,
                                 "must be a number in (0, 1), got " + shown(*it));
        out = static_cast<float>(it->get<double>());
        return {};
    }

    attn::Status flag(const char* key, bool& out, bool fallback) const
    {
        const auto it = j_.find(key);
        if (it == j_.end() || it->is_null()) {
            out = fallback;
            return {};
        }
        if (!it->is_boolean())
            return attn::failure(attn::StatusCode::ConfigField, file_, key,
                                 "must be true or false, got " + shown(*it));
        out = it->get<bool>();
        return {};
    }

    attn::Status text(const char* key, std::string& out, const char* fallback) const
    {
        const auto it = j_.find(key);
        if (it == j_.end() || it->is_null()) {
            out = fallback;
            return {};
        }
        if (!it->is_string())
            return attn::failure(attn::StatusCode::ConfigField, file_, key,
                                 "must be a string, got " + shown(*it));
        out = it->get<std::string>();
        return {};
    }

    attn::Status activation(const char* key, const char* fallback, Activation& out) const
    {
        std::string name;
        if (attn::Status s = text(key, name, fallback); !s.ok()) return s;
        if (name == "gelu_new" || name == "gelu_pytorch_tanh")
            out = Activation::GeluTanh;
        else if (name == "gelu")
            out = Activation::GeluErf;
        else if (name == "relu")
            out = Activation::Relu;
        else
            return attn::failure(attn::StatusCode::UnsupportedModel, file_, key,
                                 "activation \"" + name +
                                     "\" is not supported (supported: gelu_new, "
                                     "gelu_pytorch_tanh, gelu, relu)");
        return {};
    }

    [[nodiscard]] bool has(const char* key) const
    {
        const auto it = j_.find(key);
        return it != j_.end() && !it->is_null();
    }

private:
    const json& j_;
    const std::string& file_;
};

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
    ATTN_TRY(r.size("vocab_size", c.vocab));
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
    ATTN_TRY(r.size("vocab_size", c.vocab));
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
    return "gpt2, bert";
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
        } else {
            return attn::failure(attn::StatusCode::UnsupportedModel, file, "model_type",
                                 "\"" + c.modelType + "\" is not supported (supported: " +
                                     supportedModelTypes() + ")");
        }
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

attn::Status readConfig(const std::string& path, ModelConfig& out)
{
    // A config is a few kB; anything much larger is refused before it is read, and a FIFO or a
    // device (a link to /dev/zero) is refused without reading it at all.
    std::string text;
    const io::ReadStatus s = io::readBoundedFile(path, kMaxConfigBytes, text);
    switch (s.error) {
    case io::ReadError::Ok: return parseConfig(text, path, out);
    case io::ReadError::NotRegular:
    case io::ReadError::TooLarge:
        return attn::failure(attn::StatusCode::ConfigField, path, "",
                             "not a config file: it " + io::describe(s));
    default:
        return attn::failure(attn::StatusCode::FileOpen, path, "",
                             "cannot open: " + io::describe(s));
    }
}

}  // namespace attn::model
