// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The tokenizers of an encoder-decoder's folder, one for the source text and one for the target
// (Marian has a SentencePiece model for each, over one shared vocabulary; BART and T5 use one
// for both). Each encode() gives the ids as Hugging Face's tokenizer gives them, the special
// tokens included (the target's are the labels, as text_target= gives them):
//   bart    vocab.json + merges.txt (byte-level BPE, RoBERTa's numbering), <s> ... </s>
//   marian  source.spm / target.spm through libsentencepiece, each piece's id in vocab.json
//           (<unk> for a piece it lacks), then </s>
//   t5      spiece.model through libsentencepiece, its own ids, then </s>; the 100
//           <extra_id_K> of T5Tokenizer counted after its pieces. A folder with only
//           tokenizer.json: the SentencePiece model it was made from (unigram_spm.h), through
//           the same library, so the ids are the same
// A missing file is refused naming it; a tokenizer that does not fit the model's vocabulary as
// loadTokenizer() refuses one.

#include <filesystem>
#include <string_view>

#include "core/tokenize/tokenizer_loader.h"

namespace attn::tok {

struct Seq2SeqTokenizers {
    Tokenizer source;
    Tokenizer target;
};

// T5Tokenizer's default extra_ids.
inline constexpr int kT5ExtraIds = 100;

Loaded<Seq2SeqTokenizers> loadSeq2SeqTokenizers(const std::filesystem::path& folder,
                                                std::string_view modelType, long modelVocab = -1);

}  // namespace attn::tok
