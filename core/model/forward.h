// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// GPT-2 and BERT forward passes in float32 that keep, for every layer, every head's attention
// weights and the layer's input, so that a run can restart at any layer from the cached
// residual stream (e.g. after editing one head there).
//
// Shapes (n tokens, d = width, h heads, d_h = d / h, I = MLP width, V = vocabulary):
//   embeddings  GPT-2: x = wte[ids] + wpe[0..n)                          (n x d)
//               BERT:  x = LN(word[ids] + position[0..n) + token_type[0])  (n x d)
//   per layer   GPT-2 (pre-LN, causal):  a = ln_1(x); [Q K V] = a W_attn + b (n x 3d);
//                 head j: P_j = softmax(Q_j K_j^T / sqrt(d_h)) under the causal mask (n x n),
//                 O_j = P_j V_j (n x d_h); x += [O_0 .. O_h-1] W_proj + b;
//                 x += gelu_new(ln_2(x) W_fc + b) W_proj2 + b           (I = MLP width)
//               BERT (post-LN, bidirectional): Q, K, V = x W + b; heads as above without mask;
//                 x = LN(x + concat W_o + b); x = LN(x + gelu(x W_i + b) W_o2 + b)
//   output      GPT-2: logits = ln_f(x) wte^T (V per row)
//               BERT:  logits = LN(gelu(x W_t + b)) decoder^T + bias (MLM head, if present)
// The attention step of a BERT head is attn::attendProjected(), the core's head pass; a GPT-2
// head's is attendCausal() (causal_head.h), which scores only the keys a row may see and equals
// the head pass to float rounding.

#include <functional>
#include <span>
#include <vector>

#include "core/attention.h"
#include "core/model/model.h"

namespace attn::model {

using FloatMatrix = MatrixT<float>;

// What a run keeps of one layer. `hidden` is the cache a re-run from this layer starts from
// (n x d floats per layer); `normed` and `projections` are kept only with
// ForwardOptions::keepTypingCache (4 n x d more per layer), for forwardReusing.
// A long decoder run (ForwardOptions::poolAbove) keeps every head's map pooled to screen
// resolution instead (`pooled`; `attention` is then empty); exactMap() makes any head's map
// again from the layer's input `hidden`.

// A map pooled to screen resolution: each cell the largest weight of a block x block square of
// the map (as the workbench's pyramid pools, so that one strong cell stays visible at any zoom).
struct PooledMap {
    long n = 0;         // the map it pools is n x n
    long block = 1;     // map cells per pooled cell, along each side
    FloatMatrix cells;  // ceil(n / block) square
};

struct LayerTrace {
    FloatMatrix hidden;                  // n x d: the residual stream entering the layer
    FloatMatrix normed;                  // with the typing cache: the attention's input
    FloatMatrix projections;             // with the typing cache: [Q | K | V] (GPT-2: n x 3d;
                                         // decoders: turned, n x (h + 2 kv) d_h)
    std::vector<FloatMatrix> attention;  // per head, n x n weights (rows sum to 1)
    std::vector<PooledMap> pooled;       // per head, when the run pooled its maps
    std::vector<float> firstShare;       // per head: the mean weight queries 1.. put on token 0
    [[nodiscard]] bool isPooled() const { return attention.empty() && !pooled.empty(); }
};

struct TokenProbability {
    int id = 0;
    float probability = 0.0f;
};

struct Prediction {
    long position = 0;                  // the row of the logits it comes from
    std::vector<TokenProbability> top;  // most probable first
};

struct ForwardResult {
    std::vector<int> ids;
    std::vector<LayerTrace> layers;
    FloatMatrix residual;         // the last layer's output (n x d)
    FloatMatrix finalHidden;      // GPT-2: ln_f(x); BERT: the last layer's output
    std::vector<long> logitRows;  // positions whose logits were computed, ascending
    FloatMatrix logits;           // logitRows.size() x V
    std::vector<Prediction> predictions;
};

// Called once per head after its Q, K and V are formed and before its attention, on the
// calling thread: it may edit them (same shapes) to study a change.
using HeadHook = std::function<void(int layer, int head, HeadResultT<float>& qkv)>;

// Called once per head after its attention, with its output P V (n x d_h, before the heads are
// joined and projected), on the calling thread: it may change the values, not the shape.
using HeadOutputHook = std::function<void(int layer, int head, FloatMatrix& output)>;

// Called on the calling thread before each layer (layersDone of layersTotal finished) and once
// more before the output; returning false stops the run with attn::StatusCode::Cancelled. A window
// runs the model on a worker and cancels it through this when the text changes.
using ProgressCallback = std::function<bool(int layersDone, int layersTotal)>;

struct ForwardOptions {
    // Positions to predict at. Empty: GPT-2 predicts the next token after the last position;
    // BERT predicts at every position holding `maskTokenId` (none if it is negative).
    std::vector<long> predictAt;
    int maskTokenId = -1;
    int topK = 10;
    bool allLogits = false;  // logits for every position (else only for the predicted ones)
    // Keep GPT-2's ln_1 output and Q|K|V per layer (LayerTrace), so that forwardReusing can
    // take an earlier run's rows: typing costs about one token's pass, for 4 n x d more floats
    // per layer. Off: a layer keeps its input `hidden` only.
    bool keepTypingCache = false;
    // Decoders: with more tokens than this (> 0), every head's map is kept pooled to at most
    // poolSide cells a side (LayerTrace::pooled) and never whole; exactMap() makes one again
    // from the layer's input. 8,192 tokens of Qwen3-0.6B then keep 0.45 GiB of maps beside the
    // 0.9 GiB of layer inputs, instead of 112 GiB of maps.
    long poolAbove = 0;
    long poolSide = 512;
    HeadHook hook;
    HeadOutputHook outputHook;
    ProgressCallback progress;
};

// Runs the model on `ids`. On failure `result` may be partly overwritten. Refuses an empty
// sequence, more tokens than the model's positions (no truncation), ids outside the vocabulary and
// positions outside the sequence.
attn::Status forward(const Model& model, std::span<const int> ids, const ForwardOptions& options,
                     ForwardResult& result);

// The same result as forward(model, ids, …), computing only what differs from `previous`, an
// earlier complete forward() of the same model with keepTypingCache: GPT-2 is causal, so up to the
// first id that differs every layer's rows are the previous run's, and only the rows from there on
// (at least the last) are computed; the attention maps are whole (the core's head pass on every
// row). Typing at the end of a text thus costs about one token's pass. BERT (bidirectional), a head
// hook, or nothing in common run forward() in full. `previous` and `result` must differ.
attn::Status forwardReusing(const Model& model, std::span<const int> ids,
                            const ForwardOptions& options, const ForwardResult& previous,
                            ForwardResult& result);

// Re-runs layers `startLayer`.. and the output from result.layers[startLayer].hidden (cached by
// an earlier forward() on the same model and ids); earlier layers are kept as they are.
attn::Status forwardFrom(const Model& model, int startLayer, const ForwardOptions& options,
                         ForwardResult& result);

// What layer `layer`'s attention block reads in `result` (a run of `model`): ln_1(hidden) for
// GPT-2 (the kept copy, or computed again), hidden for BERT. n x d.
FloatMatrix attentionInput(const Model& model, const ForwardResult& result, int layer);

// Head `head`'s whole map in layer `layer` of `result`: a copy of a kept map, or, in a pooled
// run, made again from the layer's kept input as the run made it (the head's queries and keys
// projected, normed and turned, then attendCausal: equal to a whole run's map to float
// rounding). `hook` must be the run's ForwardOptions::hook (its edits of Q and K are made
// again); it is called with the head's Q, K and V. BadLayer for a layer or head outside the run.
attn::Status exactMap(const Model& model, const ForwardResult& result, int layer, int head,
                      FloatMatrix& out, const HeadHook& hook = {});

// One layer's queries and keys in a pooled decoder run, for all its heads at once, as the run
// made them (RMSNorm, q_proj/k_proj, the q/k norms, the rotation). Enlarging heads one by one
// otherwise projects the layer's input again for each (160 of the 441 ms of a Qwen3-0.6B head at
// 8,192 tokens).
struct LayerVectors {
    int layer = -1;
    FloatMatrix Q;  // n x heads d_h
    FloatMatrix K;  // n x kvHeads d_h
    FloatMatrix V;  // n x kvHeads d_h when asked for (a HeadHook is given them), else empty
};
attn::Status layerVectors(const Model& model, const ForwardResult& result, int layer, bool values,
                          LayerVectors& out);

// exactMap() from a layer's vectors: the same map, without projecting them again. `vectors` must
// be of `result`'s run (layerVectors); with a hook, made with values.
attn::Status exactMap(const Model& model, const ForwardResult& result, const LayerVectors& vectors,
                      int head, FloatMatrix& out, const HeadHook& hook = {});

// A decoder head's scaled score q_i . k_j / sqrt(d_h) (turned vectors, as the map is made from,
// without a hook's edits), made from the layer's kept input; false for a cell outside the run.
bool headScore(const Model& model, const ForwardResult& result, int layer, int head, long query,
               long key, float& score);

// Bytes of the floats a run keeps besides its whole attention maps: the per-layer traces
// (hidden, the typing cache, pooled maps), the residual and
// final hidden states, the logits.
std::size_t cachedBytes(const ForwardResult& result);

// Building blocks, exposed for tests: row-wise LayerNorm, activations, and y = x W + b
// (kernels::sgemm on the path chosen at run time, and Eigen's GEMV for one row; applyDenseEigen
// is always the portable path, Eigen's product, to compare with).
void layerNorm(const FloatMatrix& x, const Norm& norm, float eps, FloatMatrix& y);
void activate(Activation activation, FloatMatrix& x);
// SwiGLU's gate <- silu(gate) * up, element by element (same shapes), in one pass.
void swiglu(FloatMatrix& gate, const FloatMatrix& up);
void applyDense(const FloatMatrix& x, const Dense& dense, FloatMatrix& y);
void applyDenseEigen(const FloatMatrix& x, const Dense& dense, FloatMatrix& y);
// The `k` most probable tokens of softmax(logits) (ties: lower id first).
std::vector<TokenProbability> topTokens(const Eigen::Ref<const Eigen::VectorXf>& logits, int k);
// The probability of token `id` under softmax(logits) (0 for an id outside them).
float tokenProbability(const Eigen::Ref<const Eigen::VectorXf>& logits, int id);

}  // namespace attn::model
