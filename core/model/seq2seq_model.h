// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// An encoder-decoder checkpoint (BART, Marian, T5) in the Hugging Face layout: config.json and
// model.safetensors, its shards with an index, or pytorch_model.bin (findWeights). F32 weights
// are views into the mapping; F16 and BF16 matrices stay there as stored, norms and biases are
// widened at open.
//
// Tensor names, every nn.Linear [out, in]:
//   bart, marian (prefix "model."): shared.weight [V, d] (or encoder.embed_tokens.weight);
//     {encoder,decoder}.embed_positions.weight [P + 2, d] (BART; Marian's table is computed);
//     {encoder,decoder}.layernorm_embedding.{weight,bias} (BART);
//     {stack}.layers.{i}.self_attn.{q,k,v,out}_proj.{weight,bias}, .self_attn_layer_norm,
//     .fc1 [F, d], .fc2 [d, F], .final_layer_norm; decoder layers also .encoder_attn.*_proj and
//     .encoder_attn_layer_norm; final_logits_bias [1, V] (zeros when absent) and lm_head.weight
//     [V, d] (unprefixed; absent when tied).
//   t5 (no prefix): shared.weight [V, d]; {stack}.block.{i}.layer.0.SelfAttention.{q,k,v}
//     [h d_kv, d], .o [d, h d_kv] (no biases); {stack}.block.0.layer.0.SelfAttention.
//     relative_attention_bias.weight [buckets, h]; layer.0.layer_norm.weight; decoder blocks:
//     layer.1.EncDecAttention.{q,k,v,o} and layer.1.layer_norm; the last layer's
//     DenseReluDense.wi (or wi_0 and wi_1, gated) [F, d], .wo [d, F] and its layer_norm;
//     {stack}.final_layer_norm.weight; lm_head.weight when not tied.

#include <memory>
#include <string>
#include <vector>

#include "core/model/forward.h"
#include "core/model/seq2seq_config.h"

namespace attn::model {

struct Seq2SeqAttention {
    Dense q, k, v, out;
};

// BART, Marian: x = selfNorm(x + self(x)); [x = crossNorm(x + cross(x, enc))];
//               x = ffnNorm(x + ffnOut(act(ffnIn(x))))
// T5:           x += self(selfNorm(x)); [x += cross(crossNorm(x), enc)];
//               x += ffnOut(act(ffnGate(n)) * ffnIn(n)), n = ffnNorm(x)   (ungated: act(ffnIn(n)))
struct Seq2SeqLayer {
    Norm selfNorm;
    Seq2SeqAttention self;
    Norm crossNorm;  // decoder layers only
    Seq2SeqAttention cross;
    Norm ffnNorm;
    Dense ffnIn, ffnGate, ffnOut;  // ffnGate: T5's wi_0 when gated
};

struct Seq2SeqStack {
    std::vector<Seq2SeqLayer> layers;
    Norm embeddingNorm;                   // BART's layernorm_embedding
    const float* positions = nullptr;     // BART's learned table [P + 2, d]
    const float* relativeBias = nullptr;  // T5's [buckets, heads], held by block 0
    Norm finalNorm;                       // T5's final_layer_norm
};

class Seq2SeqModel {
public:
    // Reads `folder`/config.json and the weights; every tensor the architecture needs must be
    // there with its shape. On failure `out` is left empty.
    static attn::Status load(const std::string& folder, Seq2SeqModel& out);

    [[nodiscard]] const Seq2SeqConfig& config() const { return config_; }
    [[nodiscard]] const std::string& folder() const { return folder_; }
    [[nodiscard]] const std::vector<SafetensorsFile>& shards() const { return shards_; }
    [[nodiscard]] bool loaded() const { return !encoder_.layers.empty(); }

    // The shared token embedding [V, d], outByIn (F32, F16 or BF16 as stored).
    [[nodiscard]] const Dense& embedding() const { return embedding_; }
    // Token `id`'s embedding, widened to float: width floats at `out`.
    void embeddingRow(long id, float* out) const;
    // lm_head (the shared embedding when tied), [V, d] outByIn, and BART's and Marian's
    // final_logits_bias (null: none).
    [[nodiscard]] const Dense& outputLayer() const { return output_; }
    [[nodiscard]] const float* finalLogitsBias() const { return finalLogitsBias_; }
    [[nodiscard]] const Seq2SeqStack& encoder() const { return encoder_; }
    [[nodiscard]] const Seq2SeqStack& decoder() const { return decoder_; }
    // Marian's sinusoidal table [P, d], computed at open (empty for the others).
    [[nodiscard]] const FloatMatrix& sinusoids() const { return sinusoids_; }

private:
    Seq2SeqConfig config_;
    std::string folder_;
    std::vector<SafetensorsFile> shards_;
    std::vector<std::unique_ptr<float[]>> widened_;
    std::vector<float> zeroBias_;
    Dense embedding_, output_;
    const float* finalLogitsBias_ = nullptr;
    Seq2SeqStack encoder_, decoder_;
    FloatMatrix sinusoids_;
};

// Marian's positions (MarianSinusoidalPositionalEmbedding): row p, column c < d/2 (rounded up)
// is sin(p / 10000^(2c / d)), column d/2 + c the cosine of the same angle; computed in double.
FloatMatrix sinusoidalPositions(long positions, long width);
// One entry of that table, in double (the translator's training pass uses it in double).
double sinusoid(long position, long channel, long width);

// T5's bucket of the relative position `relative` = key - query (T5Attention.
// _relative_position_bucket, in float32 as torch computes it): bidirectional (the encoder)
// gives half the buckets to each direction; causal (the decoder) only looks back. The first
// half of a direction's buckets are exact distances, the rest logarithmic up to maxDistance.
long relativeBucket(long relative, bool bidirectional, long buckets, long maxDistance);

}  // namespace attn::model
