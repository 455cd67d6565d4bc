// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The JSON of `attnlab model`: the model, the tokens, every head's map and the predictions
// (and, with edits, those of the run before them). The maps are most of it (layers x heads x
// n x n weights), so the text is written straight into one buffer, each weight as the shortest
// text that reads back as the same float, and its size is known before the run: a request that
// would write more than the limit is refused before it computes.

#include <cstddef>
#include <vector>

#include <QByteArray>
#include <QString>
#include <QStringList>

#include "core/model/forward.h"
#include "core/tokenize/tokenizer_loader.h"

namespace attnlab::cli {

// The tokens' readable labels: one per token, a character that byte-level BPE split named on
// its first piece (core/tokenize/token_display.h).
QStringList displayLabels(const attn::tok::Tokenizer& tokenizer,
                          const std::vector<attn::tok::Token>& tokens);
// A predicted token as the window lists it: readable, or the bytes of a character it only
// starts, with "…" ("<E5><AE>…").
QString guessLabel(const attn::tok::Tokenizer& tokenizer, int id);

// At most how many bytes modelJson writes for `tokens` tokens of a model of `layers` x `heads`
// maps (`withBefore`: the maps twice).
std::size_t modelJsonBytes(long layers, long heads, long tokens, bool withBefore);

// {"model", "tokens", "display", "ids", "dropped", "layers", "predictions"} of `shown`, and
// with `before` "before": {"predictions", "layers"}. "dropped": what of the text no token stands
// for, [{"text", "byte" (from 1), "bytes", "fate": "omitted" | "unknown"}].
QByteArray modelJson(const attn::model::Model& model, const attn::tok::Tokenizer& tokenizer,
                     const std::vector<attn::tok::Token>& tokens,
                     const std::vector<attn::tok::Dropped>& dropped,
                     const attn::model::ForwardResult& shown,
                     const attn::model::ForwardResult* before);

}  // namespace attnlab::cli
