// SPDX-License-Identifier: GPL-3.0-or-later
// config.json of the encoder-decoders, with the defaults of BartConfig, MarianConfig and T5Config.
#include "core/model/seq2seq_config.h"

#include <exception>
#include <nlohmann/json.hpp>

#include "core/io/json_read.h"
#include "core/model/config_reader.h"

namespace attn::model {

namespace {

using detail::Reader;
using detail::shown;
using nlohmann::json;

#define ATTN_TRY(expr)                                     \
    do {                                                   \
        if (attn::Status s_ = (expr); !s_.ok()) return s_; \
    } while (false)

attn::Status refuse(const std::string& file, const std::string& field, const std::string& why)
{
    return attn::failure(attn::StatusCode::UnsupportedModel, file, field, why);
}

// A token id: a whole number from 0 below the vocabulary.
attn::Status tokenId(const Reader& r, const char* key, long vocab, int fallback, int& out)
{
    long id = 0;
    ATTN_TRY(r.size(key, id, fallback, 0));
    if (id >= vocab)
        return attn::failure(
            attn::StatusCode::ConfigField, r.file(), key,
            std::to_string(id) + " is outside the vocabulary of " + std::to_string(vocab));
    out = static_cast<int>(id);
    return {};
}

// HF's ACT2FN names that these models use.
bool activationNamed(const std::string& name, Activation& out)
{
    if (name == "gelu")
        out = Activation::GeluErf;
    else if (name == "gelu_new" || name == "gelu_pytorch_tanh")
        out = Activation::GeluTanh;
    else if (name == "relu")
        out = Activation::Relu;
    else if (name == "swish" || name == "silu")
        out = Activation::Silu;
    else
        return false;
    return true;
}

// BART and Marian share one layout: the same sizes under the same names.
attn::Status parseBartLike(const Reader& r, const std::string& file, bool marian, Seq2SeqConfig& c)
{
    ATTN_TRY(r.size("vocab_size", c.vocab, marian ? 58101 : 50265, 2));
    ATTN_TRY(r.size("d_model", c.width, 1024));
    ATTN_TRY(r.size("encoder_layers", c.encoderLayers, 12));
    ATTN_TRY(r.size("decoder_layers", c.decoderLayers, 12));
    long decoderHeads = 0;
    ATTN_TRY(r.size("encoder_attention_heads", c.heads, 16));
    ATTN_TRY(r.size("decoder_attention_heads", decoderHeads, 16));
    if (decoderHeads != c.heads)
        return refuse(file, "decoder_attention_heads",
                      std::to_string(decoderHeads) + " differs from encoder_attention_heads " +
                          std::to_string(c.heads) + " (not supported)");
    ATTN_TRY(r.size("encoder_ffn_dim", c.encoderFfn, 4096));
    ATTN_TRY(r.size("decoder_ffn_dim", c.decoderFfn, 4096));
    ATTN_TRY(r.size("max_position_embeddings", c.positions, 1024));
    std::string act;
    ATTN_TRY(r.text("activation_function", act, "gelu"));
    if (!activationNamed(act, c.activation))
        return refuse(file, "activation_function",
                      "\"" + act + "\" is not supported (supported: gelu, gelu_new, relu, swish)");
    ATTN_TRY(r.flag("scale_embedding", c.scaleEmbedding, false));
    ATTN_TRY(r.flag("tie_word_embeddings", c.tieWordEmbeddings, true));
    ATTN_TRY(tokenId(r, "pad_token_id", c.vocab, marian ? 58100 : 1, c.padTokenId));
    ATTN_TRY(tokenId(r, "eos_token_id", c.vocab, marian ? 0 : 2, c.eosTokenId));
    ATTN_TRY(tokenId(r, "decoder_start_token_id", c.vocab, marian ? c.padTokenId : 2,
                     c.decoderStartTokenId));
    if (c.width % c.heads != 0)
        return attn::failure(attn::StatusCode::ConfigField, file, "d_model",
                             std::to_string(c.width) + " is not divisible by the " +
                                 std::to_string(c.heads) + " heads");
    c.headDim = c.width / c.heads;
    if (marian) {
        bool shared = true;
        ATTN_TRY(r.flag("share_encoder_decoder_embeddings", shared, true));
        if (!shared)
            return refuse(file, "share_encoder_decoder_embeddings",
                          "false (separate source and target vocabularies) is not supported");
        long decoderVocab = c.vocab;
        ATTN_TRY(r.size("decoder_vocab_size", decoderVocab, c.vocab, 2));
        if (decoderVocab != c.vocab)
            return refuse(file, "decoder_vocab_size",
                          std::to_string(decoderVocab) + " differs from vocab_size " +
                              std::to_string(c.vocab) + " (not supported)");
    }
    return {};
}

// feed_forward_proj: "ACT" or "gated-ACT", as T5Config splits it; "gated-gelu" means gelu_new.
attn::Status readFeedForward(const Reader& r, const std::string& file, Seq2SeqConfig& c)
{
    std::string proj;
    ATTN_TRY(r.text("feed_forward_proj", proj, "relu"));
    std::string act = proj;
    c.gatedFfn = proj.rfind("gated-", 0) == 0;
    if (c.gatedFfn) act = proj.substr(6);
    if (proj == "gated-gelu") act = "gelu_new";
    if (act.find('-') != std::string::npos || !activationNamed(act, c.activation))
        return refuse(file, "feed_forward_proj",
                      "\"" + proj +
                          "\" is not supported (supported: relu, gelu, silu, gated-gelu, "
                          "gated-relu, gated-silu)");
    return {};
}

attn::Status parseT5(const Reader& r, const std::string& file, Seq2SeqConfig& c)
{
    ATTN_TRY(r.size("vocab_size", c.vocab, 32128, 2));
    ATTN_TRY(r.size("d_model", c.width, 512));
    ATTN_TRY(r.size("d_kv", c.headDim, 64));
    ATTN_TRY(r.size("d_ff", c.encoderFfn, 2048));
    c.decoderFfn = c.encoderFfn;
    ATTN_TRY(r.size("num_layers", c.encoderLayers, 6));
    ATTN_TRY(r.size("num_decoder_layers", c.decoderLayers, c.encoderLayers));
    ATTN_TRY(r.size("num_heads", c.heads, 8));
    ATTN_TRY(r.size("relative_attention_num_buckets", c.relativeBuckets, 32, 2));
    ATTN_TRY(r.size("relative_attention_max_distance", c.relativeMaxDistance, 128));
    ATTN_TRY(r.size("n_positions", c.positions, 512));
    ATTN_TRY(r.number("layer_norm_epsilon", c.normEps, 1e-6f));
    ATTN_TRY(readFeedForward(r, file, c));
    ATTN_TRY(r.flag("tie_word_embeddings", c.tieWordEmbeddings, true));
    ATTN_TRY(tokenId(r, "pad_token_id", c.vocab, 0, c.padTokenId));
    ATTN_TRY(tokenId(r, "eos_token_id", c.vocab, 1, c.eosTokenId));
    ATTN_TRY(tokenId(r, "decoder_start_token_id", c.vocab, c.padTokenId, c.decoderStartTokenId));
    // The bucket arithmetic halves the buckets per direction and again for the exact ones.
    if (c.relativeBuckets < 4)
        return attn::failure(attn::StatusCode::ConfigField, file, "relative_attention_num_buckets",
                             "must be at least 4, got " + std::to_string(c.relativeBuckets));
    if (c.relativeMaxDistance <= c.relativeBuckets / 4)
        return attn::failure(
            attn::StatusCode::ConfigField, file, "relative_attention_max_distance",
            "must be above a quarter of the buckets, got " + std::to_string(c.relativeMaxDistance));
    c.scaleEmbedding = false;
    return {};
}

}  // namespace

bool isSeq2SeqType(const std::string& modelType)
{
    return modelType == "bart" || modelType == "marian" || modelType == "t5";
}

const char* supportedSeq2SeqTypes()
{
    return "bart, marian, t5";
}

attn::Status parseSeq2SeqConfig(const std::string& text, const std::string& file,
                                Seq2SeqConfig& out)
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
        Seq2SeqConfig c;
        ATTN_TRY(r.text("model_type", c.modelType, ""));
        if (c.modelType == "bart") {
            c.family = Seq2SeqFamily::Bart;
            ATTN_TRY(parseBartLike(r, file, false, c));
        } else if (c.modelType == "marian") {
            c.family = Seq2SeqFamily::Marian;
            ATTN_TRY(parseBartLike(r, file, true, c));
        } else if (c.modelType == "t5") {
            c.family = Seq2SeqFamily::T5;
            ATTN_TRY(parseT5(r, file, c));
        } else {
            return refuse(file, "model_type",
                          "\"" + c.modelType + "\" is not an encoder-decoder (supported: " +
                              supportedSeq2SeqTypes() + ")");
        }
        out = c;
        return {};
    } catch (const std::exception& e) {
        return attn::failure(attn::StatusCode::ConfigField, file, "", e.what());
    }
}

attn::Status readSeq2SeqConfig(const std::string& path, Seq2SeqConfig& out)
{
    std::string text;
    if (attn::Status s = detail::readConfigText(path, text); !s.ok()) return s;
    return parseSeq2SeqConfig(text, path, out);
}

std::string configModelType(const std::string& path)
{
    std::string text;
    if (!detail::readConfigText(path, text).ok()) return {};
    try {
        json j;
        if (!io::parseJson(text, j).ok() || !j.is_object()) return {};
        const auto it = j.find("model_type");
        return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
    } catch (const std::exception&) {
        return {};
    }
}

}  // namespace attn::model
