// SPDX-License-Identifier: GPL-3.0-or-later
// config.json of the Llama family of decoders, read as Hugging Face's transformers reads it
// (LlamaConfig, MistralConfig, Qwen2Config, Qwen3Config): the defaults are theirs, and a value
// that would make their forward pass differ from ours is refused with its field named.
#include <string>
#include <vector>

#include "core/model/config_reader.h"

namespace attn::model::detail {

namespace {

#define ATTN_TRY(expr)                                     \
    do {                                                   \
        if (attn::Status s_ = (expr); !s_.ok()) return s_; \
    } while (false)

attn::Status refuse(const std::string& file, const std::string& field, const std::string& why)
{
    return attn::failure(attn::StatusCode::UnsupportedModel, file, field, why);
}

// rope_scaling (or transformers 5's rope_parameters): none, linear or llama3.
attn::Status readRopeScaling(const Reader& r, const char* key, attn::Rope& rope)
{
    const json* v = r.find(key);
    if (v == nullptr) return {};
    const std::string field = key;
    if (!v->is_object())
        return attn::failure(attn::StatusCode::ConfigField, r.file(), field,
                             "must be an object or null, got " + shown(*v));
    const Reader s(*v, r.file());
    std::string type;
    if (s.has("rope_type"))
        ATTN_TRY(s.text("rope_type", type, "default"));
    else
        ATTN_TRY(s.text("type", type, "default"));
    if (s.has("rope_theta")) ATTN_TRY(s.positive("rope_theta", rope.theta, rope.theta));
    if (type == "default") {
        rope.scaling = attn::RopeScaling::None;
        return {};
    }
    if (type != "linear" && type != "llama3")
        return refuse(r.file(), field + ".rope_type",
                      "\"" + type + "\" is not supported (supported: default, linear, llama3)");
    rope.scaling = type == "linear" ? attn::RopeScaling::Linear : attn::RopeScaling::Llama3;
    if (!s.has("factor")) return refuse(r.file(), field + ".factor", "missing");
    ATTN_TRY(s.positive("factor", rope.factor, 1.0));
    if (rope.factor < 1.0)
        return attn::failure(attn::StatusCode::ConfigField, r.file(), field + ".factor",
                             "must be at least 1, got " + shown(v->at("factor")));
    if (rope.scaling == attn::RopeScaling::Llama3) {
        for (const char* k :
             {"low_freq_factor", "high_freq_factor", "original_max_position_embeddings"})
            if (!s.has(k)) return refuse(r.file(), field + "." + k, "missing");
        ATTN_TRY(s.positive("low_freq_factor", rope.lowFreqFactor, 1.0));
        ATTN_TRY(s.positive("high_freq_factor", rope.highFreqFactor, 4.0));
        ATTN_TRY(s.positive("original_max_position_embeddings", rope.originalPositions, 8192));
        if (!(rope.highFreqFactor > rope.lowFreqFactor))
            return attn::failure(attn::StatusCode::ConfigField, r.file(),
                                 field + ".high_freq_factor", "must be above low_freq_factor");
    }
    return {};
}

// Which layers use a sliding window: layer_types when given; else Mistral: all of them when
// sliding_window is set; Qwen2/3: with use_sliding_window, the layers from max_window_layers on.
// Llama never slides (LlamaConfig has no window).
attn::Status readSliding(const Reader& r, const std::string& type, ModelConfig& c)
{
    c.slidingLayers.assign(static_cast<std::size_t>(c.layers), false);
    c.slidingWindow = 0;
    if (type == "llama") return {};
    long window = 0;
    if (r.has("sliding_window")) ATTN_TRY(r.size("sliding_window", window));
    bool use = type == "mistral";
    long fullLayers = 0;
    if (type == "qwen2" || type == "qwen3") {
        ATTN_TRY(r.flag("use_sliding_window", use, false));
        ATTN_TRY(r.size("max_window_layers", fullLayers, 28));
    }
    // layer_types, when given, says which layers would slide; its values are checked even
    // when no window is in force.
    std::vector<bool> listed;
    if (const json* types = r.find("layer_types")) {
        if (!types->is_array() || static_cast<long>(types->size()) != c.layers)
            return attn::failure(
                attn::StatusCode::ConfigField, r.file(), "layer_types",
                "must list one type for each of the " + std::to_string(c.layers) + " layers");
        for (std::size_t i = 0; i < types->size(); ++i) {
            const json& t = (*types)[i];
            if (t != "sliding_attention" && t != "full_attention")
                return refuse(r.file(), "layer_types[" + std::to_string(i) + "]",
                              shown(t) +
                                  " is not supported (supported: full_attention, "
                                  "sliding_attention)");
            listed.push_back(t == "sliding_attention");
        }
    }
    if (!use || window == 0) return {};
    c.slidingWindow = window;
    if (!listed.empty()) {
        c.slidingLayers = listed;
        return {};
    }
    for (long i = type == "mistral" ? 0 : fullLayers; i < c.layers; ++i)
        c.slidingLayers[static_cast<std::size_t>(i)] = true;
    return {};
}

}  // namespace

attn::Status parseDecoder(const Reader& r, const json& j, const std::string& file,
                          const std::string& type, ModelConfig& c)
{
    (void)j;
    c.family = Family::Decoder;
    ATTN_TRY(r.size("num_hidden_layers", c.layers));
    ATTN_TRY(r.size("num_attention_heads", c.heads));
    ATTN_TRY(r.size("hidden_size", c.width));
    ATTN_TRY(r.size("intermediate_size", c.inner));
    ATTN_TRY(r.size("vocab_size", c.vocab, -1, 2));
    ATTN_TRY(r.size("num_key_value_heads", c.kvHeads, c.heads));
    // transformers' defaults: Qwen3Config sets head_dim = 128; the others width / heads.
    ATTN_TRY(r.size("head_dim", c.explicitHeadDim, type == "qwen3" ? 128 : 0));
    const long defaultPositions = type == "llama" ? 2048 : type == "mistral" ? 131072 : 32768;
    ATTN_TRY(r.size("max_position_embeddings", c.positions, defaultPositions));
    ATTN_TRY(r.number("rms_norm_eps", c.layerNormEps, 1e-6f));
    ATTN_TRY(r.flag("tie_word_embeddings", c.tieWordEmbeddings, false));
    ATTN_TRY(r.positive("rope_theta", c.rope.theta, 10000.0));
    ATTN_TRY(readRopeScaling(r, "rope_scaling", c.rope));
    ATTN_TRY(readRopeScaling(r, "rope_parameters", c.rope));

    std::string act;
    ATTN_TRY(r.text("hidden_act", act, "silu"));
    if (act != "silu")
        return refuse(file, "hidden_act", "\"" + act + "\" is not supported (supported: silu)");
    c.activation = Activation::Silu;
    double partial = 1.0;
    ATTN_TRY(r.positive("partial_rotary_factor", partial, 1.0));
    if (partial != 1.0)
        return refuse(file, "partial_rotary_factor",
                      "rotating part of each head is not supported (only 1.0)");

    if (c.heads % c.kvHeads != 0)
        return attn::failure(attn::StatusCode::ConfigField, file, "num_key_value_heads",
                             std::to_string(c.kvHeads) + " does not divide the " +
                                 std::to_string(c.heads) + " attention heads");
    if (c.explicitHeadDim == 0 && c.width % c.heads != 0)
        return attn::failure(attn::StatusCode::ConfigField, file, "hidden_size",
                             std::to_string(c.width) + " is not divisible by the " +
                                 std::to_string(c.heads) + " heads");
    if (const std::string why = attn::ropeProblem(c.rope, c.headDim()); !why.empty())
        return attn::failure(attn::StatusCode::ConfigField, file,
                             c.explicitHeadDim ? "head_dim" : "rope_scaling", why);

    // Biases: Qwen2 always has them on q, k and v (never on o); Llama and Qwen3 on all four
    // when attention_bias is set; Mistral never. Only Llama reads mlp_bias.
    if (type == "qwen2") {
        c.attentionBias = true;
        c.outputBias = false;
    } else if (type != "mistral") {
        ATTN_TRY(r.flag("attention_bias", c.attentionBias, false));
        c.outputBias = c.attentionBias;
    }
    if (type == "llama") ATTN_TRY(r.flag("mlp_bias", c.mlpBias, false));
    c.qkNorm = type == "qwen3";
    return readSliding(r, type, c);
}

}  // namespace attn::model::detail
