// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The parts of a Hugging Face config.json that the GPT-2 and BERT forward passes need.

#include <string>

#include "core/status.h"

namespace attn::model {

enum class Family { Gpt2, Bert };
// GeluTanh is HF's "gelu_new" / "gelu_pytorch_tanh"; GeluErf is "gelu" (exact, erf).
enum class Activation { GeluTanh, GeluErf, Relu };

struct ModelConfig {
    Family family = Family::Gpt2;
    std::string modelType;  // as written ("gpt2", "bert")
    long layers = 0;        // n_layer / num_hidden_layers
    long heads = 0;         // n_head / num_attention_heads
    long width = 0;         // n_embd / hidden_size
    long inner = 0;         // MLP width: n_inner (default 4 * n_embd) / intermediate_size
    long positions = 0;     // n_positions (or n_ctx) / max_position_embeddings
    long vocab = 0;         // vocab_size
    long typeVocab = 0;     // BERT type_vocab_size; 0 for GPT-2
    float layerNormEps = 1e-5f;
    Activation activation = Activation::GeluTanh;
    bool scaleAttention = true;     // GPT-2 scale_attn_weights: divide scores by sqrt(d_head)
    bool tieWordEmbeddings = true;  // output embedding = input embedding

    [[nodiscard]] long headDim() const { return heads > 0 ? width / heads : 0; }
};

// Model types this code runs, for messages: "gpt2, bert".
const char* supportedModelTypes();

// Parses config.json text; `file` names it in messages. Refuses an unknown model_type
// (naming it and the supported ones), missing or non-positive sizes, a width that the heads
// do not divide, an activation or option the forward pass does not implement.
attn::Status parseConfig(const std::string& text, const std::string& file, ModelConfig& out);
// Reads and parses the file at `path`.
attn::Status readConfig(const std::string& path, ModelConfig& out);

}  // namespace attn::model
