// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A T5 folder's tokenizer.json read as the SentencePiece model it was made from, so that
// Google's libsentencepiece runs it (SpmTokenizer::fromBytes) and no second Unigram is written.
// transformers' T5Converter writes such a file from spiece.model; this is the way back:
//
//   model          "Unigram": vocab [[piece, score], ...], unk_id, byte_fallback; trailing
//                  "<extra_id_K>" entries are T5Tokenizer's extra ids (SpmOptions::extraIds),
//                  not pieces of the model
//   normalizer     "Precompiled" (SentencePiece's own precompiled_charsmap, base64), alone or in
//                  a "Sequence" with "Strip" and "Replace" of " {2,}" (SentencePiece's
//                  remove_extra_whitespaces)
//   pre_tokenizer  "Metaspace" with "▁" and a prefix space (SentencePiece's add_dummy_prefix
//                  and escape_whitespaces), alone or after "WhitespaceSplit"
//
// Each becomes a field of the ModelProto (sentencepiece_model.proto, written here in protobuf's
// wire format): the pieces with their scores and types (the unknown token UNKNOWN, special
// added tokens CONTROL, "<0xNN>" BYTE under byte_fallback, the rest NORMAL), the trainer spec's
// model type (UNIGRAM) and special ids, and the normalizer spec. Anything else that would change
// the ids (another model type, normalizer or pre-tokenizer, a Metaspace without its prefix
// space) is refused by name.

#include <string>
#include <string_view>

#include "core/tokenize/loaded.h"

namespace attn::tok {

struct UnigramSpm {
    std::string model;  // a serialized ModelProto
    int extraIds = 0;   // trailing <extra_id_K> entries, K from extraIds - 1 down to 0
};

// `text` is the tokenizer.json, named `name` in messages.
Loaded<UnigramSpm> spmFromTokenizerJson(std::string_view text, const std::string& name);

}  // namespace attn::tok
