// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Edits of an encoder-decoder's heads (head_edit.h's HeadEdit, with `attention` saying which of
// the three calls): scale one position's query, key or value vector of a head, or ablate a
// head's output. Positions count in the sequence the vectors come from: an encoder head's in
// the source, a decoder head's in the target, and a cross head's queries in the target but its
// keys and values in the source (they are the encoder's output).

#include <span>
#include <string>
#include <vector>

#include "core/model/head_edit.h"
#include "core/model/seq2seq_forward.h"

namespace attn::model {

// "cross key layer 1 head 2 index 3 x2" (1-based), for messages.
std::string describeSeq2Seq(const HeadEdit& edit);

// Refuses an edit whose layer (of its stack), head or position (in its sequence) is outside
// the model and the texts, a non-finite scale, or two edits of one vector (DuplicateEdit with
// `row` the earlier edit); the status names the edit as checkEdits() does.
attn::Status checkSeq2SeqEdits(const Seq2SeqModel& model, long sourceTokens, long targetTokens,
                               std::span<const HeadEdit> edits);

// The options with hooks that apply `edits` (after any hooks `base` has).
Seq2SeqOptions withSeq2SeqEdits(const Seq2SeqOptions& base, std::vector<HeadEdit> edits);

// The largest absolute change of a weight between two runs of the same ids, per kind:
// [layer][head] of the encoder, the decoder and cross-attention. Empty when they do not match.
struct Seq2SeqChange {
    std::vector<std::vector<float>> encoder, decoder, cross;
};
Seq2SeqChange seq2seqChange(const Seq2SeqResult& before, const Seq2SeqResult& after);

}  // namespace attn::model
