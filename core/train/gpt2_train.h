// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Training a whole GPT-2: forward pass, backward pass, AdamW, for next-token prediction on
// batches of B sequences of T tokens, in double or (Precision::Float) with the passes in float32.
// The function is exactly the one that core/model/forward.h runs in float on the exported
// checkpoint (gpt2_export.h): learned token and position embeddings, L pre-LN blocks of causal
// multi-head attention (and an MLP with gelu_new), a final LayerNorm and the unembedding tied to
// wte.
//
// An attention-only model has no MLP and no ln_2 in the pass (and no such parameters to
// train); its checkpoint carries an all-zero MLP, which adds exactly 0 to the residual stream.
//
// Deterministic: the same seed, batches, settings and precision give the same parameters bit
// for bit on one machine, whatever the thread count (see gpt2_layers.h for how the threaded
// parts keep that).

#include <cstddef>
#include <cstdint>
#include <new>
#include <span>
#include <string>
#include <vector>

#include "core/status.h"

namespace attn::gpt2 {

// Memory aligned to 64 bytes. Eigen's products take different paths (and so round
// differently) for data at different alignments; with every buffer 64-byte aligned and every
// tensor and activation starting at a multiple of 8 doubles, two trainers run the very same
// operations whatever addresses their buffers get.
template <typename T>
struct AlignedAllocator {
    using value_type = T;
    static constexpr std::align_val_t kAlignment{64};
    AlignedAllocator() = default;
    template <typename U>
    explicit AlignedAllocator(const AlignedAllocator<U>&)
    {
    }
    T* allocate(std::size_t n)
    {
        return static_cast<T*>(::operator new(n * sizeof(T), kAlignment));
    }
    void deallocate(T* p, std::size_t) { ::operator delete(p, kAlignment); }
    bool operator==(const AlignedAllocator&) const = default;
};
using Buffer = std::vector<double, AlignedAllocator<double>>;
using FloatBuffer = std::vector<float, AlignedAllocator<float>>;
// Where the next tensor or activation starts: `offset` rounded up to 8 doubles (64 bytes).
constexpr std::size_t alignedOffset(std::size_t offset)
{
    return (offset + 7) / 8 * 8;
}

struct Config {
    long vocab = 0;     // V
    long maxT = 0;      // context: rows of wpe
    long layers = 0;    // L
    long heads = 0;     // H (divides channels)
    long channels = 0;  // C
    bool attentionOnly = false;

    [[nodiscard]] long headSize() const { return heads > 0 ? channels / heads : 0; }
};

// ConfigField naming the first size that is not positive (or channels % heads != 0).
Status validate(const Config& config);

// One named tensor of the flat parameter buffer, in GPT-2's Hugging Face names and shapes
// ("h.0.attn.c_attn.weight", [C, 3C]); row-major.
struct Tensor {
    std::string name;
    std::vector<long> shape;
    std::size_t offset = 0;  // into Parameters::values, a multiple of 8 (the gaps hold 0)
    std::size_t count = 0;
};

// Offsets of one block's tensors in the flat buffer (the MLP's and ln_2's are unused in an
// attention-only model).
struct LayerOffsets {
    std::size_t ln1w = 0, ln1b = 0, qkvw = 0, qkvb = 0, projw = 0, projb = 0;
    std::size_t ln2w = 0, ln2b = 0, fcw = 0, fcb = 0, fcprojw = 0, fcprojb = 0;
};

struct Parameters {
    Config config;
    std::vector<Tensor> tensors;  // in the order of the buffer
    Buffer values;
    std::size_t wte = 0, wpe = 0, lnfw = 0, lnfb = 0;
    std::vector<LayerOffsets> layers;

    // The tensor called `name`, or nullptr.
    [[nodiscard]] const Tensor* find(const std::string& name) const;
};

// The layout for `config`, every value 0. ConfigField if the config is invalid.
Status makeParameters(const Config& config, Parameters& out);

// GPT-2's initialisation: weights and embeddings N(0, stddev^2), the two residual projections
// (attn.c_proj, mlp.c_proj) N(0, (stddev / sqrt(2 L))^2), biases 0, LayerNorm weights 1.
// The same seed gives the same values on every platform (attn::Rng).
void initialise(Parameters& params, std::uint64_t seed, double stddev = 0.02);

// The scalar type of the forward and backward passes. Double: everything in double (the
// gradient checks and the PyTorch reference hold to 1e-12). Float: the passes run in float32
// on a float copy of the parameters, which stay the double master weights that AdamW updates
// (from the float gradients, widened) and that export and initialise use; about twice the
// speed, with losses and gradients that agree with double to float's precision.
enum class Precision { Double, Float };

// About how many bytes a Trainer for `config` holds once it has run batches of B sequences of T:
// the parameters with their gradients and Adam's moments (double), in Float their float copies,
// the passes' buffers (activations, their gradients, the attention's scratch for `threads`
// threads) and in Float the double views of the attention and the logits. For refusing a run
// before it allocates (run_limits.h); within a few percent of what it takes.
std::size_t trainerBytes(const Config& config, long B, long T, Precision precision, int threads);

struct AdamSettings {
    double learningRate = 1e-3;
    double beta1 = 0.9;
    double beta2 = 0.999;
    double epsilon = 1e-8;
    // Decoupled weight decay (AdamW) on the matrices (embeddings and dense weights), not on
    // biases or LayerNorm parameters; 0: plain Adam.
    double weightDecay = 0.0;
    // When > 0, the whole gradient is scaled down to this global L2 norm if it is longer.
    double clipNorm = 0.0;
};

// B sequences of T token ids and their next-token targets, row-major (b * T + t).
struct Batch {
    std::span<const int> tokens;
    std::span<const int> targets;
    long B = 0;
    long T = 0;
};

// One AdamW step of `values` (the tensors' buffer) from `grads`, with Adam's moments m and v;
// `steps` counts the steps taken (incremented). NonFinite ("loss") if `loss` or the gradient is
// not finite: the values are then unchanged.
Status adamWStep(std::span<const Tensor> tensors, Buffer& values, const Buffer& grads, Buffer& m,
                 Buffer& v, const AdamSettings& settings, long& steps, double loss);

// TokenOutOfRange naming `field` and the entry of `ids` outside [0, vocab), or Ok.
Status checkTokenIds(const char* field, std::span<const int> ids, long vocab);

// Fixes the cache sizes Eigen blocks its products by (once per process), so that a run repeats
// bit for bit on every machine of one kernel path.
void fixEigenBlocking();

namespace detail {

// Where each activation lives in the activation buffer, for one batch shape, or its gradient
// in the gradient buffer.
struct LayerActs {
    std::size_t ln1 = 0, ln1Mean = 0, ln1Rstd = 0, qkv = 0, att = 0, atty = 0, attproj = 0,
                res2 = 0;
    std::size_t ln2 = 0, ln2Mean = 0, ln2Rstd = 0, fch = 0, fchGelu = 0, fcproj = 0, res3 = 0;
    std::size_t output = 0;  // res3, or res2 without the MLP
};

struct ActLayout {
    std::size_t encoded = 0;
    std::vector<LayerActs> layers;
    std::size_t lnf = 0, lnfMean = 0, lnfRstd = 0, logits = 0, probs = 0;
    std::size_t total = 0;
};

}  // namespace detail

class Trainer {
public:
    // Takes `params` (a valid layout: makeParameters + initialise, or loaded values).
    explicit Trainer(Parameters params, const AdamSettings& settings = {},
                     Precision precision = Precision::Double);

    // The mean cross-entropy of the batch; keeps the activations for backward(). Refuses a
    // batch whose sizes disagree (ShapeMismatch), T beyond maxT (TooLong), or an id or target
    // outside the vocabulary (TokenOutOfRange, naming "tokens" or "targets" and the position).
    Status forward(const Batch& batch, double& loss);
    // The gradient of the last successful forward()'s loss into gradients() (overwritten; in
    // double whatever the precision).
    void backward();
    // forward, backward and one AdamW step; `loss` is the loss before the step. NonFinite
    // ("loss") if the loss or the gradient is not finite: the parameters are then unchanged.
    Status step(const Batch& batch, double& loss);

    [[nodiscard]] const Parameters& parameters() const { return params_; }
    // For tests and loading: changing values between steps is allowed.
    [[nodiscard]] Parameters& parameters() { return params_; }
    [[nodiscard]] const Buffer& gradients() const { return grads_; }
    // The last forward()'s logits, B * T rows of V. In Precision::Float, widened to double on
    // the first call after a forward (so not to be called from two threads at once); the span
    // stays valid until the next forward().
    [[nodiscard]] std::span<const double> logits() const;
    // The last forward()'s attention weights of `layer`: [B, H, T, T], row i = query i (as for
    // logits() in Precision::Float).
    [[nodiscard]] std::span<const double> attention(int layer) const;
    // The learning rate of the next steps (a schedule sets it before each step).
    void setLearningRate(double rate) { settings_.learningRate = rate; }
    [[nodiscard]] long steps() const { return steps_; }
    // Threads the passes may use; the results are the same bit for bit whatever the count.
    // One by default: with the cores busy elsewhere, threads that wait for each other at every
    // layer cost more than they give (induction model, both cores loaded by compilers: 129 ms
    // a step on two threads, 42 on one).
    void setThreads(int threads) { threads_ = threads < 1 ? 1 : threads; }
    [[nodiscard]] int threads() const { return threads_; }
    [[nodiscard]] const AdamSettings& settings() const { return settings_; }
    [[nodiscard]] Precision precision() const { return precision_; }

private:
    // The passes' buffers in scalar S: activations, their gradients, the attention's scratch.
    template <typename S>
    struct Workspace {
        std::vector<S, AlignedAllocator<S>> acts, dacts, scratch;
    };

    void prepare(long B, long T);
    template <typename S>
    void prepareWorkspace(Workspace<S>& ws, long B, long T);
    // The passes over parameters P (and their gradients G) in scalar S.
    template <typename S>
    double forwardPass(const S* P, Workspace<S>& ws);
    template <typename S>
    void backwardPass(const S* P, S* G, Workspace<S>& ws);
    // A float activation of the last forward, widened into view (once per forward).
    std::span<const double> widened(std::size_t view, std::size_t offset, std::size_t count) const;

    Parameters params_;
    AdamSettings settings_;
    Precision precision_ = Precision::Double;
    Buffer grads_;
    Buffer m_, v_;  // Adam's moments
    long steps_ = 0;
    long B_ = 0, T_ = 0;  // the shape the buffers are sized for
    std::vector<int> tokens_, targets_;
    detail::ActLayout layout_, gradLayout_;  // of the activations and of their gradients
    // Forward activations and their gradients, each in one buffer (gpt2_train.cpp), sized
    // once per batch shape, in the precision's workspace (the other stays empty): a step
    // allocates none of its arrays (only Eigen's products take packing workspace of their own).
    Workspace<double> double_;
    Workspace<float> float_;
    // Precision::Float: the float copy of the parameters (refreshed from the master weights at
    // every forward, so changes through parameters() count) and the float gradients.
    FloatBuffer floatParams_, floatGrads_;
    // Precision::Float: logits (view 0) and each layer's attention (view 1 + layer) widened to
    // double for the accessors, and whether each is up to date with the last forward.
    mutable std::vector<Buffer> views_;
    mutable std::vector<bool> viewsFresh_;
    int threads_ = 1;
    int scratchThreads_ = 0;  // threads the attention scratch has room for
};

}  // namespace attn::gpt2
