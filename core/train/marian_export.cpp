// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/train/marian_export.h"

#include <nlohmann/json.hpp>

namespace attn::marian {

namespace {

// Columns [first, first + count) of the [in, out] tensor `t`, as nn.Linear's [count, in].
model::TensorToWrite exportedLinear(const Parameters& p, const Tensor& t, std::string name,
                                    long first, long count)
{
    const long in = t.shape[0];
    const long out = t.shape[1];
    model::TensorToWrite w{std::move(name), {count, in}, {}};
    w.values.resize(static_cast<std::size_t>(count * in));
    const double* v = p.values.data() + t.offset;
    for (long o = 0; o < count; ++o)
        for (long i = 0; i < in; ++i)
            w.values[static_cast<std::size_t>(o * in + i)] =
                static_cast<float>(v[i * out + first + o]);
    return w;
}

// Entries [first, first + count) of the vector `t`.
model::TensorToWrite exportedEntries(const Parameters& p, const Tensor& t, std::string name,
                                     long first, long count)
{
    model::TensorToWrite w{std::move(name), {count}, {}};
    const double* v = p.values.data() + t.offset + first;
    w.values.assign(v, v + count);
    return w;
}

void addExported(const Parameters& p, const Tensor& t, std::vector<model::TensorToWrite>& out)
{
    const long C = p.config.channels;
    const auto stem = [&](const char* fused) { return t.name.substr(0, t.name.find(fused)); };
    const bool weight = t.name.ends_with(".weight");
    const auto split = [&](const char* fused, std::initializer_list<const char*> parts) {
        long first = 0;
        for (const char* part : parts) {
            const std::string name = stem(fused) + part + (weight ? ".weight" : ".bias");
            out.push_back(weight ? exportedLinear(p, t, name, first, C)
                                 : exportedEntries(p, t, name, first, C));
            first += C;
        }
    };
    if (t.name.find("qkv_proj") != std::string::npos) {
        split("qkv_proj", {"q_proj", "k_proj", "v_proj"});
    } else if (t.name.find("kv_proj") != std::string::npos) {
        split("kv_proj", {"k_proj", "v_proj"});
    } else if (t.name == "final_logits_bias") {
        model::TensorToWrite w = exportedEntries(p, t, t.name, 0, t.shape[0]);
        w.shape = {1, t.shape[0]};
        out.push_back(std::move(w));
    } else if (t.shape.size() == 2 && t.name != "model.shared.weight") {
        out.push_back(exportedLinear(p, t, t.name, 0, t.shape[1]));
    } else {
        out.push_back(exportedEntries(p, t, t.name, 0, static_cast<long>(t.count)));
        out.back().shape.assign(t.shape.begin(), t.shape.end());
    }
}

}  // namespace

std::vector<model::TensorToWrite> checkpointTensors(const Parameters& params)
{
    std::vector<model::TensorToWrite> out;
    for (const Tensor& t : params.tensors) addExported(params, t, out);
    return out;
}

std::string checkpointConfig(const Config& c, long maxLength)
{
    const bool silu = c.activation == FfnActivation::Silu;
    const nlohmann::ordered_json j = {{"model_type", "marian"},
                                      {"architectures", {"MarianMTModel"}},
                                      {"vocab_size", c.vocab},
                                      {"decoder_vocab_size", c.vocab},
                                      {"d_model", c.channels},
                                      {"encoder_layers", c.encoderLayers},
                                      {"decoder_layers", c.decoderLayers},
                                      {"encoder_attention_heads", c.heads},
                                      {"decoder_attention_heads", c.heads},
                                      {"encoder_ffn_dim", c.ffn},
                                      {"decoder_ffn_dim", c.ffn},
                                      {"activation_function", silu ? "swish" : "gelu_new"},
                                      {"max_position_embeddings", c.maxT},
                                      {"scale_embedding", true},
                                      {"static_position_embeddings", true},
                                      {"share_encoder_decoder_embeddings", true},
                                      {"tie_word_embeddings", true},
                                      {"is_encoder_decoder", true},
                                      {"pad_token_id", c.padId},
                                      {"eos_token_id", c.eosId},
                                      {"forced_eos_token_id", c.eosId},
                                      {"decoder_start_token_id", c.padId},
                                      {"bad_words_ids", {{c.padId}}},
                                      {"max_length", maxLength},
                                      {"num_beams", 1},
                                      {"dropout", 0.0},
                                      {"attention_dropout", 0.0},
                                      {"activation_dropout", 0.0},
                                      {"init_std", 0.02},
                                      {"torch_dtype", "float32"}};
    return j.dump(2) + "\n";
}

}  // namespace attn::marian
