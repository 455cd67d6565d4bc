// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The parts of a Hugging Face config.json that the forward passes need: GPT-2, BERT, and the
// Llama family of decoders (llama, mistral, qwen2, qwen3: RMSNorm, rotary positions,
// grouped-query attention, SwiGLU).

#include <string>
#include <vector>

#include "core/rope.h"
#include "core/status.h"

namespace attn::model {

enum class Family { Gpt2, Bert, Decoder };
// GeluTanh is HF's "gelu_new" / "gelu_pytorch_tanh"; GeluErf is "gelu" (exact, erf).
// Silu is the decoders' "silu" (SwiGLU's gate).
enum class Activation { GeluTanh, GeluErf, Relu, Silu };

struct ModelConfig {
    Family family = Family::Gpt2;
    std::string modelType;  // as written ("gpt2", "bert", "llama", "mistral", "qwen2", "qwen3")
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

    // Decoders only (GPT-2 and BERT: kvHeads == heads, the rest unused).
    long kvHeads = 0;          // num_key_value_heads: query head j reads key/value head j / group
    long explicitHeadDim = 0;  // head_dim when config.json sets it (Qwen3: not width / heads)
    attn::Rope rope;           // rope_theta and rope_scaling
    long slidingWindow = 0;    // query i sees keys i - window + 1 .. i where a layer slides
    std::vector<bool> slidingLayers;  // per layer: whether it slides (empty: none does)
    bool attentionBias = false;       // q, k, v (and o, except Qwen2) carry biases
    bool outputBias = false;          // o_proj has a bias
    bool mlpBias = false;             // gate, up and down carry biases
    bool qkNorm = false;              // Qwen3: RMSNorm of each head's q and k before rotation

    [[nodiscard]] long headDim() const
    {
        if (explicitHeadDim > 0) return explicitHeadDim;
        return heads > 0 ? width / heads : 0;
    }
    // Whether a head's raw scores are divided by sqrt(d_h): always, except in a GPT-2 checkpoint
    // saved with scale_attn_weights false.
    [[nodiscard]] bool scalesScores() const { return family != Family::Gpt2 || scaleAttention; }
    // What a head's raw scores are divided by: sqrt(d_h), or 1 where they are not scaled.
    [[nodiscard]] float scoreDivisor() const;
    // Query heads per key/value head (1 without grouping).
    [[nodiscard]] long groupSize() const { return kvHeads > 0 ? heads / kvHeads : 1; }
    [[nodiscard]] long kvHeadOf(long head) const { return head / groupSize(); }
    [[nodiscard]] bool slides(long layer) const
    {
        return slidingWindow > 0 && layer >= 0 && layer < static_cast<long>(slidingLayers.size()) &&
               slidingLayers[static_cast<std::size_t>(layer)];
    }
};

// Model types this code runs, for messages: "gpt2, bert, llama, mistral, qwen2, qwen3".
const char* supportedModelTypes();

// Parses config.json text; `file` names it in messages. Refuses an unknown model_type
// (naming it and the supported ones), missing or non-positive sizes, a width that the heads
// do not divide, an activation or option the forward pass does not implement.
attn::Status parseConfig(const std::string& text, const std::string& file, ModelConfig& out);
// Reads and parses the file at `path`.
attn::Status readConfig(const std::string& path, ModelConfig& out);

}  // namespace attn::model
