// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// An encoder-decoder (BART, Marian, T5) without the window: the open checkpoint with its source
// and target tokenizers, and one run of a source text with a target, typed or the model's own
// greedy translation, as the model window, the command line and the tests see it. QtCore only
// (library attnlab_modelrun): any thread.

#include <memory>
#include <vector>

#include <QString>
#include <QStringList>

#include "core/model/seq2seq_edit.h"
#include "core/model/seq2seq_forward.h"
#include "core/tokenize/seq2seq_tokenizer.h"
#include "ui/modelrun/model_snapshot.h"

namespace attnlab {

struct LoadedSeq2Seq {
    attn::model::Seq2SeqModel model;
    std::unique_ptr<attn::tok::Seq2SeqTokenizers> tokenizers;
    QString folder;
};

// Opens the encoder-decoder in `folder` (config.json, the weights, the tokenizers' files);
// nullptr with `problem` naming the file and the field when it cannot. Any thread.
std::shared_ptr<const LoadedSeq2Seq> loadSeq2SeqFolder(const QString& folder,
                                                       attn::Status& problem);

// One side of a run: its ids with the tokens and on-screen labels (token_display.h).
struct Seq2SeqSide {
    std::vector<int> ids;
    std::vector<attn::tok::Token> tokens;
    QStringList labels;
    std::vector<attn::tok::TokenDisplay> display;
    [[nodiscard]] long count() const { return static_cast<long>(ids.size()); }
};

// A cross head as the workbench computed it after its edits (cross_session.h), carried into
// the model: the decoder reads `targetIds` (the target when the head was taken, teacher forced)
// and that head's output is replaced by `output` (n x d_h) and its map by `weights` (n x m);
// every later layer runs as usual.
struct CrossCarry {
    int layer = 0;  // from 0
    int head = 0;
    std::vector<int> sourceIds;  // the source it was taken on; another source is refused
    std::vector<int> targetIds;
    attn::model::FloatMatrix weights;
    attn::model::FloatMatrix output;
};

struct Seq2SeqSnapshot {
    QString sourceText;
    QString targetText;       // empty when the target is the model's translation
    bool translated = false;  // the target is the model's greedy translation
    Seq2SeqSide source;       // the encoder's input, with the special tokens the tokenizer adds
    Seq2SeqSide target;       // the decoder's input: the start token, then the target but its
                              // last token (what the model predicts at the last position)
    // What of the source text no token stands for.
    std::vector<attn::tok::Dropped> dropped;
    // Head edits applied to `result` (and to the translation, when the model made it);
    // `unedited` is the run of the same ids without them, `change` their largest change of a
    // weight per kind, layer and head. Empty without edits.
    std::vector<attn::model::HeadEdit> edits;
    attn::model::Seq2SeqResult result;
    attn::model::Seq2SeqResult unedited;
    attn::model::Seq2SeqChange change;
    // The workbench's cross head carried in (`result` holds it, `unedited` is without it).
    std::shared_ptr<const CrossCarry> carry;
    std::vector<ModelPrediction> predictions;  // one per target position
    double milliseconds = 0.0;
    [[nodiscard]] bool edited() const { return !edits.empty() || carry != nullptr; }
};

// The most tokens a translation may have: twice the source and ten more (a translation is
// rarely longer), below the model's positions.
[[nodiscard]] long translationLimit(const attn::model::Seq2SeqConfig& config, long sourceTokens);

struct Seq2SeqRequest {
    QString source;
    QString target;  // empty: translate greedily
    std::vector<attn::model::HeadEdit> edits;
    std::shared_ptr<const CrossCarry> carry;  // set: the target is the carry's, not translated
    attn::model::ProgressCallback progress;   // the run's layers, or the translation's tokens
};

struct Seq2SeqOutcome {
    std::shared_ptr<const Seq2SeqSnapshot> snapshot;
    bool cancelled = false;
    attn::Status status;  // why there is no snapshot: the texts, an edit or the run
};

// Tokenizes and runs the request. The source must have a token of its own; an overlong side is
// refused with the model's limit, an edit outside the model or the texts by name.
Seq2SeqOutcome runSeq2SeqText(const LoadedSeq2Seq& loaded, const Seq2SeqRequest& request);

// One side's tokens and labels for `ids`.
Seq2SeqSide seq2seqSide(const attn::tok::Tokenizer& tokenizer, std::vector<int> ids);

// The source's tokens for `text`, with the specials the tokenizer adds; refused when the text
// has none of its own (only the end token). `dropped` (if set) receives what of the text no
// token stands for.
attn::Status readSeq2SeqSource(const LoadedSeq2Seq& loaded, const QString& text, Seq2SeqSide& side,
                               std::vector<attn::tok::Dropped>* dropped = nullptr);

// The label of one target id (predictions, the translation as text).
QString targetLabel(const LoadedSeq2Seq& loaded, int id);

}  // namespace attnlab
