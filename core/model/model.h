// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A GPT-2 or BERT checkpoint in the Hugging Face layout, opened from a folder holding
// config.json and model.safetensors. The weights are views into the safetensors mapping (or
// into its converted buffers): opening costs no copy of F32 weights.
//
// Tensor names (each also accepted with the family's prefix "transformer." / "bert."):
//   GPT-2  wte.weight [V, d], wpe.weight [P, d], ln_f.{weight,bias} [d],
//          h.{i}.ln_1, h.{i}.ln_2 {weight,bias} [d],
//          h.{i}.attn.c_attn.{weight [d, 3d], bias [3d]}   (Conv1D: weight is [in, out])
//          h.{i}.attn.c_proj.{weight [d, d], bias [d]}, h.{i}.mlp.c_fc [d, I], h.{i}.mlp.c_proj [I,
//          d] logits use wte (tied); lm_head.weight [V, d] when present.
//   BERT   embeddings.{word [V, d], position [P, d], token_type [T, d]}_embeddings.weight,
//          embeddings.LayerNorm.{weight,bias} (or .gamma/.beta, as every LayerNorm below),
//          encoder.layer.{i}.attention.self.{query,key,value}.{weight [d, d], bias [d]}
//          (nn.Linear: weight is [out, in]), ...attention.output.dense,
//          ...attention.output.LayerNorm,
//          ...intermediate.dense [I, d], ...output.dense [d, I], ...output.LayerNorm;
//          MLM head (optional, never prefixed): cls.predictions.transform.dense [d, d],
//          cls.predictions.transform.LayerNorm, cls.predictions.bias [V] (or decoder.bias),
//          decoder cls.predictions.decoder.weight [V, d] if present, else word embeddings.
//   Llama family (llama, mistral, qwen2, qwen3; prefix "model."), every Linear [out, in]:
//          embed_tokens.weight [V, d], norm.weight [d], lm_head.weight [V, d] (unprefixed;
//          absent when tied), layers.{i}.input_layernorm / post_attention_layernorm .weight [d],
//          layers.{i}.self_attn.q_proj [h d_h, d], k_proj and v_proj [kv d_h, d],
//          o_proj [d, h d_h] (biases where the config says), self_attn.q_norm / k_norm [d_h]
//          (qwen3), layers.{i}.mlp.gate_proj and up_proj [I, d], down_proj [d, I]. One
//          model.safetensors, or the shards model.safetensors.index.json maps the names to.

#include <memory>
#include <string>
#include <vector>

#include <Eigen/Core>

#include "core/kernels/weight_format.h"
#include "core/model/config.h"
#include "core/model/safetensors.h"
#include "core/status.h"

namespace attn::model {

using ConstRowMap =
    Eigen::Map<const Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>,
               Eigen::Unaligned>;
using ConstVecMap = Eigen::Map<const Eigen::VectorXf, Eigen::Unaligned>;
using FloatRows = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

// y = x W + b with W stored [in, out] (GPT-2 Conv1D) or [out, in] (nn.Linear, outByIn).
// W is F32 (weight) or, in a decoder's checkpoint, F16 or BF16 kept as stored in the mapping
// (weight null; raw and format): kernels::gemmWeights widens it as it reads it. The bias is
// always float.
struct Dense {
    const float* weight = nullptr;
    const void* raw = nullptr;  // W's elements in `format`; null means `weight`, F32
    kernels::WeightFormat format = kernels::WeightFormat::F32;
    const float* bias = nullptr;
    long in = 0;
    long out = 0;
    bool outByIn = false;

    [[nodiscard]] long storedRows() const { return outByIn ? out : in; }
    [[nodiscard]] long storedCols() const { return outByIn ? in : out; }
    [[nodiscard]] const void* elements() const
    {
        return raw != nullptr ? raw : static_cast<const void*>(weight);
    }
    // The stored rows [r0, r0 + count) as floats (widened when W is half-precision).
    [[nodiscard]] FloatRows storedRowsWidened(long r0, long count) const;
    // The outputs [first, first + count) alone (one head's columns of a projection), as a view
    // of the same stored elements, bias included. W must be stored [out, in] (outByIn), where
    // those outputs are whole stored rows.
    [[nodiscard]] Dense outputRange(long first, long count) const;
    [[nodiscard]] ConstVecMap b() const { return ConstVecMap(bias, out); }
};

// LayerNorm (gamma, beta) or RMSNorm (gamma only: beta is null).
struct Norm {
    const float* gamma = nullptr;
    const float* beta = nullptr;
    long width = 0;
};

// GPT-2: x += attnOut(attention(ln1(x))); x += mlpOut(act(mlpIn(ln2(x)))).
// BERT:  x = ln1(x + attnOut(attention(x))); x = ln2(x + mlpOut(act(mlpIn(x)))).
// Decoders: x += attnOut(attention(rope(qNorm(q(ln1 x))), rope(kNorm(k(ln1 x))), v(ln1 x)));
//           x += mlpOut(silu(gate(ln2 x)) * mlpIn(ln2 x))      (ln1, ln2, qNorm, kNorm: RMSNorm)
struct LayerWeights {
    Norm ln1, ln2;
    Dense qkv;      // GPT-2: fused c_attn [d, 3d]
    Dense q, k, v;  // BERT and decoders: separate projections (decoders: k, v per kv head)
    Dense attnOut;
    Dense mlpIn, mlpOut;
    Dense gate;         // decoders: SwiGLU's gate_proj (mlpIn is up_proj, mlpOut down_proj)
    Norm qNorm, kNorm;  // qwen3: per-head RMSNorm of q and k (width d_h); else unset
};

struct MlmHead {
    bool present = false;
    Dense transform;
    Norm norm;
    const float* decoder = nullptr;  // [V, d]
    const float* bias = nullptr;     // [V]
};

class Model {
public:
    // Reads `folder`/config.json and `folder`/model.safetensors; every tensor the architecture
    // needs must be there with its shape. On failure `out` is left empty.
    static attn::Status load(const std::string& folder, Model& out);

    [[nodiscard]] const ModelConfig& config() const { return config_; }
    [[nodiscard]] const std::string& folder() const { return folder_; }
    // The weights file (the first shard of a sharded checkpoint) and every shard.
    [[nodiscard]] const SafetensorsFile& file() const { return shards_.front(); }
    [[nodiscard]] const std::vector<SafetensorsFile>& shards() const { return shards_; }
    [[nodiscard]] bool loaded() const { return !layers_.empty(); }

    // GPT-2 and BERT: the float table [V, d]. Decoders may keep theirs in F16 or BF16: read
    // them with embeddingRow() and outputLayer().
    [[nodiscard]] ConstRowMap wordEmbeddings() const
    {
        return ConstRowMap(word_, config_.vocab, config_.width);
    }
    // Token `id`'s embedding, widened to float when stored in half precision: width floats.
    void embeddingRow(long id, float* out) const;
    // The language-model head's matrix [V, d], outByIn, without a bias: lm_head, GPT-2's tied
    // wte, BERT's MLM decoder (its bias is MlmHead::bias) or a decoder's tied embeddings.
    [[nodiscard]] const Dense& outputLayer() const { return outputLayer_; }
    [[nodiscard]] ConstRowMap positionEmbeddings() const
    {
        return ConstRowMap(position_, config_.positions, config_.width);
    }
    // BERT only: [typeVocab, d].
    [[nodiscard]] ConstRowMap tokenTypeEmbeddings() const
    {
        return ConstRowMap(tokenType_, config_.typeVocab, config_.width);
    }
    // GPT-2: ln_f; BERT: embeddings.LayerNorm; decoders: the final RMSNorm.
    [[nodiscard]] const Norm& embeddingOrFinalNorm() const { return norm_; }
    [[nodiscard]] const std::vector<LayerWeights>& layers() const { return layers_; }
    [[nodiscard]] const MlmHead& mlm() const { return mlm_; }
    // Whether the model can give next/masked token predictions (GPT-2 always; BERT with its
    // MLM head).
    [[nodiscard]] bool hasLanguageHead() const
    {
        return config_.family != Family::Bert || mlm_.present;
    }

private:
    friend class Binder;
    ModelConfig config_;
    std::string folder_;
    std::vector<SafetensorsFile> shards_ = std::vector<SafetensorsFile>(1);
    const float* word_ = nullptr;
    const float* position_ = nullptr;
    const float* tokenType_ = nullptr;
    Dense embedding_;
    Dense outputLayer_;
    std::vector<std::unique_ptr<float[]>> widened_;  // half-precision norms and biases as float
    Norm norm_;
    std::vector<LayerWeights> layers_;
    MlmHead mlm_;
};

}  // namespace attn::model
