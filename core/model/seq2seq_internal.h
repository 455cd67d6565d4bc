// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What the encoder-decoder's whole pass (seq2seq_forward.cpp) and its incremental decoding
// (seq2seq_decode.cpp) share. Internal to core/model.

#include <span>

#include "core/model/seq2seq_model.h"

namespace attn::model::detail {

// The ids of one side ("source" or "target") are some, no more than the model's positions, each
// in the vocabulary.
attn::Status checkSeq2SeqSide(const Seq2SeqConfig& c, std::span<const int> ids, const char* side);

// The first residual stream of a stack for `ids` at positions offset, offset + 1, ...
void embedSeq2Seq(const Seq2SeqModel& model, const Seq2SeqStack& stack, std::span<const int> ids,
                  long offset, FloatMatrix& x);

// The feed-forward block's output for its (normed, for T5) input.
void seq2seqFeedForward(const Seq2SeqConfig& c, const Seq2SeqLayer& L, const FloatMatrix& x,
                        FloatMatrix& y);

// The logits of the decoder's output rows `y` (T5 tied: rescaled; BART, Marian: plus
// final_logits_bias).
void seq2seqLogits(const Seq2SeqModel& model, FloatMatrix y, FloatMatrix& logits);

}  // namespace attn::model::detail
