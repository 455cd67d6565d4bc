// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Incremental decoding of an encoder-decoder (BART, Marian, T5): the source runs once through
// the encoder, each decoder layer's cross-attention keys and values are made from its output
// once (m x d each, kept for the whole text), and then the target grows a token at a time from
// decoder_start_token_id. For the token at position n, in each decoder layer:
//
//   x (1 x d) appended to the layer's kept inputs
//   self   [q k v] from x (T5: from RMSNorm(x)), appended to the kept rows; head j's new map row
//          softmax(q_j K_j^T / sqrt(d_h) [+ T5's bias of j - n]) over keys 0..n, o_j = p V_j
//   cross  q from the sub-layer's output; p = softmax(q_j Kenc_j^T / sqrt(d_h)) over the m
//          source keys, a new row of the n x m map
//   FFN    on the one row; BART and Marian norm after each sub-layer, T5 before
//
// then the stack's end (T5: RMSNorm) and the logits of the one row. O(n d + m d) attention per
// layer, one pass of the decoder's weights, nothing of the earlier rows computed again. The
// kept rows grow by doubling (decode_rows.h).
//
// Head edits (seq2seq_edit.h) apply at every step as a whole run applies them: the hooks are
// handed each head's whole Q, K and V so far, and an edit of a target position not written
// yet applies from the step that writes it. An ablation by the mean of a decoder or cross head
// reads every target row, later ones included, so with one the target runs whole at each token.
//
// A Seq2SeqDecoding is a value: copying it copies its cache.

#include <span>
#include <vector>

#include "core/model/decode_rows.h"
#include "core/model/head_edit.h"
#include "core/model/seq2seq_forward.h"

namespace attn::model {

class Seq2SeqDecoding {
public:
    // Encodes `source` with `edits` applied, keeps every cross-attention's keys and values, and
    // runs decoder_start_token_id. Refuses what forwardSeq2Seq() refuses and what
    // checkSeq2SeqEdits() refuses (a target position may reach the model's positions). On
    // failure the decoding is left empty.
    attn::Status start(const Seq2SeqModel& model, std::span<const int> source,
                       std::vector<HeadEdit> edits = {}, int topK = 10);

    // Appends token `id` to the target (one row through every decoder layer). Refuses an id
    // outside the vocabulary or a target as long as the model's positions; on failure the
    // decoding is as it was.
    attn::Status append(int id);

    [[nodiscard]] bool started() const { return model_ != nullptr; }
    [[nodiscard]] const Seq2SeqModel* model() const { return model_; }
    [[nodiscard]] long positions() const;
    // The decoder's input so far: the start token, then every appended token.
    [[nodiscard]] const std::vector<int>& ids() const { return ids_; }
    [[nodiscard]] const std::vector<int>& sourceIds() const { return encoded_.sourceIds; }
    [[nodiscard]] long length() const { return static_cast<long>(ids_.size()); }
    [[nodiscard]] const std::vector<HeadEdit>& edits() const { return edits_; }
    // The logits of the next token after the last position (V).
    [[nodiscard]] const Eigen::VectorXf& logits() const { return logits_; }
    // False when an ablation by the mean makes every token run the target whole.
    [[nodiscard]] bool incremental() const { return !wholeRuns_; }
    // Bytes held: the encoder's run, the cross keys and values, every decoder layer's kept
    // rows (capacity included) and maps, the final rows.
    [[nodiscard]] std::size_t cacheBytes() const;

    // The run as forwardSeq2Seq() gives it for sourceIds() and ids() with the edits and
    // lastOnly: every map of the three kinds, the layers' inputs, the decoder's output, the last
    // position's logits and prediction.
    void result(Seq2SeqResult& out) const;

private:
    using Rows = detail::GrowingRows;
    struct Layer {
        Rows hidden;      // the residual stream entering the layer
        Rows self;        // [Q | K | V] of the self-attention
        Rows crossInput;  // what the cross-attention's queries are made from
        Rows crossQ;
        FloatMatrix crossK, crossV;            // m x d, from the encoder's output
        std::vector<std::vector<float>> maps;  // self, per head: row i's i + 1 weights
        std::vector<Rows> crossMaps;           // per head, n x m
    };
    struct Call;  // one attention call of the new row

    void truncate(long n);
    attn::Status appendRow(int id);
    attn::Status stepLayer(long li, FloatMatrix& x);
    attn::Status hookCall(const Call& call, std::vector<HeadResultT<float>>& hooked) const;
    attn::Status attendRow(const Call& call, FloatMatrix& concat);

    const Seq2SeqModel* model_ = nullptr;
    Seq2SeqOptions options_;
    std::vector<HeadEdit> edits_;
    int topK_ = 10;
    bool wholeRuns_ = false;
    std::vector<int> ids_;
    Seq2SeqResult encoded_;  // the encoder's run; when the target runs whole, every run
    std::vector<Layer> layers_;
    Rows finalHidden_;
    Eigen::VectorXf logits_;
};

}  // namespace attn::model
