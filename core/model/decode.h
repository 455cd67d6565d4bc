// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Incremental decoding of a causal model (GPT-2 and the Llama family) with a key/value cache:
// the prompt runs once in full (forward()), then every appended token runs through the layers
// as one row. For the token at position n, in each layer:
//
//   x (1 x d), the residual stream entering the layer, appended to the layer's kept inputs
//   a = LayerNorm_1(x) (GPT-2) or RMSNorm_1(x) (decoders)
//   [q k v] = a W + b, one row; decoders norm (Qwen3) and turn q and k as position n; the row is
//   appended to the layer's kept [Q | K | V], the cache
//   head j: p = softmax(q_j K_j^T / s) over the keys it may see (all n + 1, or a sliding
//   window), o_j = p V_j: O(n d_h) per head, O(n d) per layer; p is the map's new row
//   x += [o_0 .. o_h-1] W_o + b, then the MLP on the one row
//
// and at the end the final norm and the logits of the one row. Every weight is read once per
// token; nothing of the earlier rows is computed again. The kept rows grow by doubling their
// capacity (amortised O(1) per row); each head's map is kept as its lower triangle, one
// growing array per head.
//
// Head edits (head_edit.h) apply at every step as forward() applies them: the hook is handed a
// head's whole Q, K and V (every row so far) and the new row is weighed from what it left; the
// output hook sees the new row only, which is all a zeroing needs. An ablation by the mean over
// positions reads every row, later ones included, so with one the text runs whole at each token.
//
// A Decoding is a value: copying it copies its cache (a window edits a copy and publishes it).

#include <span>
#include <vector>

#include "core/model/decode_rows.h"
#include "core/model/forward.h"
#include "core/model/head_edit.h"

namespace attn::model {

class Decoding {
public:
    // Runs `prompt` in full with `edits` applied (checked as runEdited() checks them, their
    // positions inside the model's; one past the prompt applies from the token written there).
    // Refuses a model without a language-model head or a bidirectional one (BERT: it does not
    // write), and what forward() refuses. On failure the decoding is left empty.
    //
    // With poolAbove > 0, a decoder's (Llama family) text longer than poolAbove tokens keeps every
    // head's map pooled to at most poolSide cells a side (ForwardOptions' long path) and never
    // whole: from the prompt's run when it is that long, else from the token that passes it. Each
    // new row is pooled as it is made, and the block grows by merging cells, so the pooled maps
    // equal a whole pooled run's of the same ids.
    attn::Status start(const Model& model, std::span<const int> prompt,
                       std::vector<HeadEdit> edits = {}, int topK = 10, long poolAbove = 0,
                       long poolSide = 512);

    // Appends token `id` (one row through every layer). Refuses an id outside the vocabulary or a
    // text as long as the model's positions; on failure the decoding is as it was.
    attn::Status append(int id);

    [[nodiscard]] bool started() const { return model_ != nullptr; }
    [[nodiscard]] const Model* model() const { return model_; }
    [[nodiscard]] long positions() const
    {
        return model_ != nullptr ? model_->config().positions : 0;
    }
    [[nodiscard]] const std::vector<int>& ids() const { return ids_; }
    [[nodiscard]] long length() const { return static_cast<long>(ids_.size()); }
    [[nodiscard]] const std::vector<HeadEdit>& edits() const { return edits_; }
    // The logits of the next token after the last position (V).
    [[nodiscard]] const Eigen::VectorXf& logits() const { return logits_; }
    // False when an ablation by the mean makes every token run the text whole.
    [[nodiscard]] bool incremental() const { return !wholeRuns_; }
    // Whether every head's map is kept pooled (the text passed poolAbove).
    [[nodiscard]] bool pooled() const;
    // Bytes held: the kept inputs and [Q | K | V] rows of every layer (capacity included), every
    // head's map, the final rows.
    [[nodiscard]] std::size_t cacheBytes() const;

    // The run as forward() gives it for ids() with the edits: every layer's input and every
    // head's whole map (n x n; pooled past poolAbove), the residual and final rows, the logits
    // and prediction of the last position (ForwardOptions' defaults with topK and the pooling).
    // O(n^2) per head when whole: for a view, not per token of a long run.
    void result(ForwardResult& out) const;

private:
    using Rows = detail::GrowingRows;
    struct Layer {
        Rows hidden;       // the residual stream entering the layer
        Rows projections;  // [Q | K | V] as forward() keeps them (decoders: normed and turned)
        std::vector<std::vector<float>> maps;   // per head: row i's i + 1 weights, row after row
        std::vector<PooledMap> pooled;          // per head, instead of maps past poolAbove
        std::vector<double> firstSum;           // per head, pooled: rows 1.. weights on token 0
        std::vector<std::vector<float>> fresh;  // per head: the new row, until every layer ran
    };

    void adopt(const ForwardResult& run);
    void truncate(long n);
    void commitRows();
    void poolMaps();
    attn::Status appendRow(int id);
    attn::Status stepLayer(long li, FloatMatrix& x);
    attn::Status weighHeads(long li, FloatMatrix& concat);

    const Model* model_ = nullptr;
    ForwardOptions options_;
    std::vector<HeadEdit> edits_;
    int topK_ = 10;
    bool wholeRuns_ = false;
    long poolAbove_ = 0, poolSide_ = 512;
    std::vector<int> ids_;
    std::vector<Layer> layers_;
    Rows residual_, finalHidden_;
    Eigen::VectorXf logits_;
    ForwardResult whole_;  // the last whole run, when every token runs the text whole
};

}  // namespace attn::model
