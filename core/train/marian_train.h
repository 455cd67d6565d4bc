// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Training an encoder-decoder in Marian's layout (Hugging Face's MarianMTModel), the function
// core/model/seq2seq_forward.h runs on the exported checkpoint: a shared embedding scaled by
// sqrt(C) plus fixed sinusoids; post-LN encoder layers (self-attention, FFN) and decoder layers
// (masked self-attention, cross-attention over the encoder's output, FFN), each sub-layer
// x -> LN(x + f(x)); the unembedding tied to the shared embedding plus final_logits_bias. The
// FFN's activation is SiLU (Marian's "swish") or the tanh GELU ("gelu_new").
//
// The passes are GPT-2's layer kinds (gpt2_layers.h): the same LayerNorm, dense layers,
// attention (here with keys from another sequence for cross-attention, and padded sources),
// residuals, unembedding and cross-entropy, in double or float, deterministic for a seed
// whatever the thread count. The update is gpt2::adamWStep.
//
// Batches are padded: B sources of at most S tokens (each with its length; the padded keys are
// masked), and B decoder inputs of T tokens with their targets, -1 on padded positions (no
// loss; the decoder is causal, so a padded tail changes no earlier row). The loss is the mean
// over the targets that are not padding, as PyTorch's ignore_index.

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "core/status.h"
#include "core/train/gpt2_train.h"

namespace attn::marian {

using gpt2::AdamSettings;
using gpt2::Buffer;
using gpt2::Precision;
using gpt2::Tensor;

enum class FfnActivation { Silu, Gelu };

struct Config {
    long vocab = 0;          // V, shared by source and target
    long maxT = 0;           // the longest source or target (rows of the sinusoid table)
    long encoderLayers = 0;  // Le
    long decoderLayers = 0;  // Ld
    long heads = 0;          // H (divides channels)
    long channels = 0;       // C (d_model)
    long ffn = 0;            // F (encoder_ffn_dim = decoder_ffn_dim)
    FfnActivation activation = FfnActivation::Silu;
    int padId = 0;  // also decoder_start_token_id, as in Marian
    int eosId = 0;

    [[nodiscard]] long headSize() const { return heads > 0 ? channels / heads : 0; }
};

// ConfigField naming the first size that is not positive, channels % heads != 0, or an id
// outside the vocabulary.
Status validate(const Config& config);

// Offsets of one attention sub-layer's tensors. Self-attention: q is the fused [C, 3C] (Q | K |
// V) projection, kv unused. Cross-attention: q [C, C] on the decoder, kv [C, 2C] (K | V) on the
// encoder's output. Then the output projection and the sub-layer's LayerNorm.
struct AttentionOffsets {
    std::size_t qw = 0, qb = 0, kvw = 0, kvb = 0, ow = 0, ob = 0, lnw = 0, lnb = 0;
};
struct FfnOffsets {
    std::size_t fc1w = 0, fc1b = 0, fc2w = 0, fc2b = 0, lnw = 0, lnb = 0;
};
struct LayerOffsets {
    AttentionOffsets self, cross;  // cross: decoder layers only
    FfnOffsets ffn;
};

// Dense weights are stored [in, out] (y = x W + b), the transpose of nn.Linear's; the fused
// projections are split and transposed on export (marian_export.h). Names are Hugging Face's
// with the fused ones called qkv_proj and kv_proj ("model.encoder.layers.0.self_attn.qkv_proj.
// weight" [C, 3C]).
struct Parameters {
    Config config;
    std::vector<Tensor> tensors;  // in the order of the buffer
    Buffer values;
    std::size_t shared = 0, logitsBias = 0;
    std::vector<LayerOffsets> encoder, decoder;

    [[nodiscard]] const Tensor* find(const std::string& name) const;
};

// The layout for `config`, every value 0. ConfigField if the config is invalid.
Status makeParameters(const Config& config, Parameters& out);

// Hugging Face's initialisation of Marian: every weight and the embedding N(0, stddev^2), the
// pad token's embedding row 0, biases 0, LayerNorm weights 1. The same seed gives the same values
// on every platform (attn::Rng).
void initialise(Parameters& params, std::uint64_t seed, double stddev = 0.02);

// B padded sources of S tokens with their lengths (1..S), and B decoder inputs of T tokens
// with their targets (-1: padding), all row-major.
struct Batch {
    std::span<const int> source;
    std::span<const int> sourceLengths;
    std::span<const int> input;
    std::span<const int> targets;
    long B = 0;
    long S = 0;
    long T = 0;
};

namespace detail {

// One attention sub-layer's activations: q (self: the fused [N, 3C]), kv (cross: [Ns, 2C]),
// the weights att [B, H, Tq, Tk], the heads' output, its projection, the residual sum and the
// LayerNorm (with its statistics), which is the sub-layer's output.
struct AttentionActs {
    std::size_t q = 0, kv = 0, att = 0, atty = 0, proj = 0, res = 0, ln = 0, mean = 0, rstd = 0;
};
struct FfnActs {
    std::size_t fc1 = 0, act = 0, fc2 = 0, res = 0, ln = 0, mean = 0, rstd = 0;
};
struct LayerActs {
    AttentionActs self, cross;
    FfnActs ffn;
};
struct ActLayout {
    std::size_t source = 0, target = 0;  // the embedded inputs
    std::vector<LayerActs> encoder, decoder;
    std::size_t logits = 0, probs = 0;
    std::size_t total = 0;
};

}  // namespace detail

class Trainer {
public:
    // Takes `params` (a valid layout: makeParameters + initialise, or loaded values).
    explicit Trainer(Parameters params, const AdamSettings& settings = {},
                     Precision precision = Precision::Double);

    // The loss of the batch; keeps the activations for backward(). Refuses sizes that disagree
    // (ShapeMismatch), S or T beyond maxT (TooLong), a length outside 1..S (ShapeMismatch,
    // "sourceLengths"), an id outside the vocabulary (TokenOutOfRange), a batch with no target.
    Status forward(const Batch& batch, double& loss);
    // The gradient of the last successful forward()'s loss into gradients() (overwritten).
    void backward();
    // forward, backward and one AdamW step; NonFinite leaves the parameters unchanged.
    Status step(const Batch& batch, double& loss);

    [[nodiscard]] const Parameters& parameters() const { return params_; }
    [[nodiscard]] Parameters& parameters() { return params_; }
    [[nodiscard]] const Buffer& gradients() const { return grads_; }
    // The last forward()'s logits, B * T rows of V, in double.
    [[nodiscard]] std::vector<double> logits() const;
    // The last forward()'s cross-attention weights of decoder layer `layer`: [B, H, T, S].
    [[nodiscard]] std::vector<double> crossAttention(int layer) const;
    void setLearningRate(double rate) { settings_.learningRate = rate; }
    [[nodiscard]] long steps() const { return steps_; }
    void setThreads(int threads) { threads_ = threads < 1 ? 1 : threads; }
    [[nodiscard]] int threads() const { return threads_; }
    [[nodiscard]] const AdamSettings& settings() const { return settings_; }
    [[nodiscard]] Precision precision() const { return precision_; }

private:
    template <typename S>
    struct Workspace {
        std::vector<S, gpt2::AlignedAllocator<S>> acts, dacts, scratch, positions;
    };
    void prepare(long B, long S, long T);
    template <typename S>
    void prepareWorkspace(Workspace<S>& ws, long B, long Ss, long T);
    template <typename S>
    double forwardPass(const S* P, Workspace<S>& ws);
    template <typename S>
    void backwardPass(const S* P, S* G, Workspace<S>& ws);
    [[nodiscard]] std::vector<double> widened(std::size_t offset, std::size_t count) const;

    Parameters params_;
    AdamSettings settings_;
    Precision precision_ = Precision::Double;
    Buffer grads_, m_, v_;
    long steps_ = 0;
    long B_ = 0, S_ = 0, T_ = 0;
    std::vector<int> source_, lengths_, input_, targets_;
    detail::ActLayout layout_, gradLayout_;
    Workspace<double> double_;
    Workspace<float> float_;
    gpt2::FloatBuffer floatParams_, floatGrads_;
    int threads_ = 1;
    int scratchThreads_ = 0;
};

}  // namespace attn::marian
