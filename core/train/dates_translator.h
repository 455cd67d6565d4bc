// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The dates task (dates_task.h) as a translator's data: two SentencePiece models trained on the
// task's own text with libsentencepiece's trainer, one shared vocabulary as Marian's vocab.json
// holds it, and pairs encoded as MarianTokenizer encodes them (pieces, then </s>).
//
// The models are character models (model_type char, identity normalisation, no dummy prefix):
// every piece is one character of the text, a space written "▁", except that the target's
// model keeps the twelve month names whole (user_defined_symbols). So each target piece that
// belongs to a field needs the source to be written: a month, a digit of the day, a digit of the
// year; none is predictable from the letters before it, and a cross-attention row can be scored
// against the fields of the pieces. The
// vocabulary: </s> 0, <unk> 1, the source's pieces, the target's that the source lacks, and
// <pad> last, as opus-mt numbers them (pad is also the decoder's start token).

#include <memory>
#include <string>
#include <vector>

#include "core/status.h"
#include "core/train/dates_task.h"
#include "core/train/marian_train.h"

namespace attn::dates {

struct Vocabulary {
    std::string sourceSpm, targetSpm;  // the serialised models (source.spm, target.spm)
    std::vector<std::string> pieces;   // id -> piece
    int eos = 0;
    int unk = 1;
    int pad = 0;
};

// Trains both models on the training dates' texts (every date not held out: the source in its
// three forms, the English target); deterministic. TokenizerSyntax naming the side if the library
// refuses.
Status trainVocabulary(Vocabulary& out);

// vocab.json's text (piece -> id, in id order) and tokenizer_config.json's.
std::string vocabularyJson(const Vocabulary& vocabulary);
std::string tokenizerConfigJson(const Vocabulary& vocabulary);

// A pair as the model reads it: the source's ids and the labels (the target's ids), each ending
// in </s>, with the field of every id (None for </s>).
struct EncodedPair {
    Date date;
    DateForm form = DateForm::Arabic;
    std::vector<int> source, labels;
    std::vector<DateField> sourceFields, labelFields;
};

class PairEncoder {
public:
    // TokenizerSyntax if a model cannot be loaded.
    static Status make(const Vocabulary& vocabulary, PairEncoder& out);
    // TokenizerSyntax naming the text if a piece is unknown or is not one character.
    Status encode(const DatePair& pair, EncodedPair& out) const;
    // The target's text of ids (up to </s>).
    [[nodiscard]] std::string targetText(const std::vector<int>& ids) const;

private:
    struct Impl;
    std::shared_ptr<const Impl> impl_;
};

// B pairs padded into one batch (marian_train.h): the decoder's input is the start token (pad)
// then the labels without their last id; padded targets -1.
struct BatchData {
    std::vector<int> source, lengths, input, targets;
    long B = 0, S = 0, T = 0;
    [[nodiscard]] marian::Batch batch() const { return {source, lengths, input, targets, B, S, T}; }
};
BatchData makeBatch(const std::vector<const EncodedPair*>& pairs, int pad);

}  // namespace attn::dates
