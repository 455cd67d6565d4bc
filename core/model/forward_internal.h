// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What forward.cpp (GPT-2, BERT, the run loop) and forward_decoder.cpp (the Llama family's
// layer) share. Internal to core/model.

#include <span>
#include <string>
#include <vector>

#include "core/model/forward.h"
#include "core/rope.h"

namespace attn::model::detail {

// Rows an earlier run already has: the first `rows` of every layer, from `layers` (causal
// models only).
struct Reuse {
    long rows = 0;
    const std::vector<LayerTrace>* layers = nullptr;
    const FloatMatrix* previousResidual = nullptr;  // the earlier run's last layer output
};

// The ids are some, no more than the model's positions, each in its vocabulary
// (forward_input.cpp).
attn::Status checkIds(const Model& model, std::span<const int> ids);
// Positions to predict at (ascending, unique): options.predictAt, else a causal model's last
// position, else BERT's [MASK] positions.
attn::Status predictionPositions(const Model& model, const std::vector<int>& ids,
                                 const ForwardOptions& options, std::vector<long>& out);
// The ids' embeddings (with positions, and BERT's type and norm) as the first residual stream.
void embed(const Model& model, const std::vector<int>& ids, FloatMatrix& x);

// A value that is not finite at `stage` of head `head` of layer `layer` (from 0; -1 = none).
// Its cause is named by the caller (forward()'s blame(), runEdited(), Decoding::append).
attn::Status nonFinite(long layer, long head, std::string stage);

// "layer 2 head 3 Q/K/V" (from 0 in, from 1 out; head -1: none).
std::string layerField(long layer, long head, const char* what);

// Calls the head hook on every head (their Q, K, V set), checking it kept their shapes (n rows,
// d_h columns).
attn::Status hookHeads(const ForwardOptions& options, long li, long n, long dh,
                       std::vector<HeadResultT<float>>& heads);

// Each query head's Q, and its key/value head's K and V (ModelConfig::kvHeadOf), copied out of
// the projections: Q from from[0] at column offset[0] + j d_h, K and V likewise from from[1] and
// from[2]. Every source has the run's rows; `heads` gets c.heads entries.
void copyHeads(const ModelConfig& c, const FloatMatrix* const from[3], const long offset[3],
               std::vector<HeadResultT<float>>& heads);

// Every head's attention over every token (BERT's; one head per thread, scaled by sqrt(d_h)), the
// output hook, and the heads' last `fresh` output rows side by side in `concat` (fresh x h d_h).
// The maps move into trace.attention. `x` (the layer's input) only names the cause of a value
// that is not finite.
attn::Status attendHeads(const ForwardOptions& options, long li, const FloatMatrix& x, long fresh,
                         std::vector<HeadResultT<float>>& heads, LayerTrace& trace,
                         FloatMatrix& concat);

// attendHeads for causal heads (GPT-2's and a decoder's; forward_pooled.cpp), by attendCausal:
// only the keys a row may see are scored, and no scores are kept beside the map. `window` > 0 is
// a sliding window; scores are divided by `divisor` (sqrt(d_h), or 1 unscaled). Whole maps go to
// trace.attention; `pooled` keeps them in trace.pooled instead, never whole (a long run).
attn::Status attendHeadsCausal(const ForwardOptions& options, long li, const FloatMatrix& x,
                               long window, float divisor, bool pooled, long fresh,
                               std::vector<HeadResultT<float>>& heads, LayerTrace& trace,
                               FloatMatrix& concat);

// What attendHeads and attendHeadsCausal do once the heads are weighed (`statuses` one per
// head): name a head that failed, call the output hook, and join the heads' last `fresh` output
// rows into `concat`.
attn::Status finishHeads(const ForwardOptions& options, long li, const FloatMatrix& x,
                         const std::vector<Status>& statuses, long fresh,
                         std::vector<HeadResultT<float>>& heads, FloatMatrix& concat);

// One decoder layer (forward_decoder.cpp), with runLayer's contract (forward.cpp): reads x,
// records it and every head's map in `trace`, leaves the layer's output in x; with `reuse`,
// only rows from reuse.rows on are computed. `rope` holds the angles of every position of x.
attn::Status runDecoderLayer(const Model& model, long li, const ForwardOptions& options,
                             FloatMatrix& x, LayerTrace& trace,
                             std::vector<HeadResultT<float>>& heads, const Reuse& reuse,
                             const RopeTable& rope);

// Each head's block of `m` (n x headCount d_h): RMSNorm with `norm` where it is set (Qwen3's
// q/k norms), then the rotation of rows as positions rope.first + row0 ...
void normAndRotate(Eigen::Ref<FloatMatrix> m, long headCount, long dh, const Norm& norm, float eps,
                   const RopeTable& rope, long row0);

// GPT-2's and BERT's MLP: out = act(x W_in + b) W_out + b (`inner` is scratch, n x I).
void feedForward(const FloatMatrix& x, const LayerWeights& L, Activation activation,
                 FloatMatrix& inner, FloatMatrix& out);

// The rest of a decoder layer on rows of the residual stream, from the heads' joined outputs
// `concat`: the attention's output projection added in, then the gated MLP
// (SiLU(m W_gate) * m W_up) W_down of m = RMSNorm_2(rows) added in.
void attentionOutAndMlp(const ModelConfig& c, const LayerWeights& L, const FloatMatrix& concat,
                        Eigen::Ref<FloatMatrix> rows);

// The decoders' attention input of one layer: RMSNorm(hidden) with the layer's ln1.
void rmsNormRows(const FloatMatrix& x, const Norm& norm, float eps, FloatMatrix& y);

// The sum over row[0, d) of (row[j] - shift), or of its squares, in double, for LayerNorm and
// RMSNorm: eight running sums side by side, which the compiler keeps in vector registers (one
// sum is a chain of d dependent additions, and made the norms 2 % of a 128-token pass).
double rowSum(const float* row, long d, double shift, bool squares);

}  // namespace attn::model::detail
