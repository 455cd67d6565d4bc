// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The teacher-forced forward pass of an encoder-decoder in float32, keeping every head's map of
// the kernel's three calls (the textbook's section on attention):
//   encoder  self-attention: Q, K and V from the source; every source token sees every other
//            (m x m);
//   decoder  masked self-attention: Q, K and V from the target; future positions are set to
//            -inf before the softmax (n x n, a triangle);
//   cross    the queries from the decoder's previous sub-layer, the keys and values from the
//            encoder's final output, so that every target word looks back at the source (n x m).
//
// Shapes (m source and n target tokens, d = d_model, h heads of d_h, F the FFN width):
//   embeddings  BART:   LN_emb(E[ids] + P[2 + pos]);  Marian: sqrt(d) E[ids] + sin/cos(pos);
//               T5:     E[ids] (positions enter the scores)
//   attention   head j: softmax(Q_j K_j^T / sqrt(d_h) [+ B_j]) V_j, B_j T5's bias per bucket of
//               key - query (not scaled: T5 does not divide by sqrt(d_h)); heads joined and
//               projected by `out`
//   layers      seq2seq_model.h (post-LN for BART and Marian, pre-RMSNorm for T5)
//   output      T5: the stacks end in an RMSNorm; logits = y W_lm^T, y the decoder's output
//               (T5 tied: times d^-0.5); BART and Marian add final_logits_bias.
// Every head's attention step is attn::attendProjected(), the core's head pass.

#include <functional>
#include <span>
#include <vector>

#include "core/model/attention_kind.h"
#include "core/model/forward.h"
#include "core/model/seq2seq_model.h"

namespace attn::model {

// Called once per head after its Q, K and V are formed and before its attention: it may edit
// them (same shapes). Cross heads get the decoder's queries and the encoder's keys and values.
using Seq2SeqHeadHook =
    std::function<void(AttentionKind kind, int layer, int head, HeadResultT<float>& qkv)>;
// Called once per head with its output P V (rows x d_h) before the heads are joined.
using Seq2SeqOutputHook =
    std::function<void(AttentionKind kind, int layer, int head, FloatMatrix& output)>;

struct Seq2SeqOptions {
    int topK = 10;
    Seq2SeqHeadHook hook;
    Seq2SeqOutputHook outputHook;
    // Before each layer of either stack (encoder first) and once before the output; false
    // cancels the run (StatusCode::Cancelled).
    ProgressCallback progress;
    // Logits and predictions for the last target position only (greedy decoding reads no
    // other): logits is then 1 x V and predictions has one entry.
    bool lastOnly = false;
};

struct Seq2SeqResult {
    std::vector<int> sourceIds;
    std::vector<int> targetIds;  // the decoder's input: the start token, then the target
    // Per layer: the residual stream entering it and its self-attention maps (encoder m x m,
    // decoder n x n).
    std::vector<LayerTrace> encoder;
    std::vector<LayerTrace> decoder;
    std::vector<std::vector<FloatMatrix>> cross;  // [decoder layer][head], n x m
    // [decoder layer] n x d: what its cross-attention's queries are made from (after the
    // self-attention sub-layer; T5: its RMSNorm too).
    std::vector<FloatMatrix> crossInputs;
    FloatMatrix encoderOutput;            // m x d: every cross-attention's keys and values
    FloatMatrix finalHidden;              // n x d: the decoder's output
    FloatMatrix logits;                   // n x V
    std::vector<Prediction> predictions;  // one per target position
};

// Runs `model` on the source ids and the decoder's input ids. Refuses an empty side, more
// tokens than the model's positions on either side (named "source" or "target", no
// truncation) and ids outside the vocabulary. On failure `result` may be partly written.
attn::Status forwardSeq2Seq(const Seq2SeqModel& model, std::span<const int> source,
                            std::span<const int> target, const Seq2SeqOptions& options,
                            Seq2SeqResult& result);

// The two halves of forwardSeq2Seq: the encoder (sourceIds, encoder, encoderOutput), then the
// decoder on `target` against result.encoderOutput (targetIds, decoder, cross, finalHidden,
// logits, predictions). Decoding again with another target reuses the encoder's output.
attn::Status encodeSeq2Seq(const Seq2SeqModel& model, std::span<const int> source,
                           const Seq2SeqOptions& options, Seq2SeqResult& result);
attn::Status decodeSeq2Seq(const Seq2SeqModel& model, std::span<const int> target,
                           const Seq2SeqOptions& options, Seq2SeqResult& result);

// The greedy translation of `source`: from decoder_start_token_id, the most probable next token
// (ties: the lower id) until the end token or `maxTokens` tokens (at most the model's
// positions less one). `tokens` receives them without the start token, with the end token when
// it came; `result` the run of the last step's input. The options' hooks apply at every step
// (edits change the translation); their `progress` (if set) is asked before each token (done
// so far, maxTokens), and false cancels; topK and lastOnly are the decoding's own.
attn::Status translateGreedy(const Seq2SeqModel& model, std::span<const int> source, long maxTokens,
                             const Seq2SeqOptions& options, std::vector<int>& tokens,
                             Seq2SeqResult& result);

// T5's position bias of one head: bias(i, j) = the table's entry for the bucket of j - i.
FloatMatrix relativePositionBias(const Seq2SeqConfig& config, const float* table, long queries,
                                 long keys, bool bidirectional, long head);

}  // namespace attn::model
