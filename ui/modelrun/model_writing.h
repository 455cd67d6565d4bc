// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The model writes after a text (ModelDocument's Generate and Step): the text's run, then the
// tokens WrittenTokens asks for, each drawn with its sampling through the core's key/value cache
// (core/model/generate.h), published as one snapshot of the whole text (every head's map grown by
// a row and a column per token, the predictions after the last token). QtCore only.

#include <functional>
#include <vector>

#include <QString>

#include "core/model/generation_config.h"
#include "ui/modelrun/model_snapshot.h"

namespace attnlab {

struct WritingRequest {
    QString text;
    std::vector<attn::model::HeadEdit> edits;
    WrittenTokens written;
    // An earlier snapshot of the same model: when it wrote a beginning of these tokens after the
    // same text with the same edits, its generation goes on from there (one token's pass per
    // token) instead of starting again.
    const ModelSnapshot* previous = nullptr;
    // The checkpoint's generation settings (writingSettings), when the caller read them already;
    // null: read here.
    const attn::model::GenerationSettings* settings = nullptr;
    // Called after each token with (written so far, asked for); false cancels.
    std::function<bool(long, long)> progress;
};

// The checkpoint's end-of-text ids and bad words (generation_config.json, else config.json), as
// the writing honours them; the other settings are listed.
attn::Status writingSettings(const LoadedModel& loaded, attn::model::GenerationSettings& out);

// The snapshot after writing. It may hold fewer tokens than asked for: the model wrote its
// end-of-text token or reached its last position (snapshot->written says how many were written).
// A model that does not write (BERT), an empty text or one that leaves no position is an error.
ModelRunOutcome runWriting(const LoadedModel& loaded, const WritingRequest& request);

// Whether `snap` cannot be written further: its last token is an end-of-text id, or it fills
// the model's positions.
bool writingEnded(const ModelSnapshot& snap);

}  // namespace attnlab
