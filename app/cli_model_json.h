// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The JSON of `attnlab model`: the model, the tokens, every head's map and the predictions
// (and, with edits, those of the run before them). The maps are most of it (layers x heads x
// n x n weights), so the text is written straight into one buffer, each weight as the shortest
// text that reads back as the same float, and its size is known before the run: a request that
// would write more than the limit is refused before it computes.

#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include <QByteArray>
#include <QString>
#include <QStringList>

#include "ui/modelrun/model_snapshot.h"
#include "ui/modelrun/seq2seq_run.h"

namespace attnlab::cli {

// {"heads": [{"weights": [[row], ...]}, ...]} of one layer's maps appended to `out`, each weight
// as the shortest text that reads back as the same float.
void appendHeads(std::string& out, const std::vector<attn::model::FloatMatrix>& heads);

// [{"position" (from 1), "top": [{"token", "display", "id", "p"}]}]
std::string predictionsJsonText(const std::vector<ModelPrediction>& predictions);

// At most how many bytes modelJson writes for `tokens` tokens of a model of `layers` x `heads`
// maps (`withBefore`: the maps twice).
std::size_t modelJsonBytes(long layers, long heads, long tokens, bool withBefore);

// {"model", "tokens", "display", "ids", "dropped", "layers", "predictions"} of the run, and
// with edits "before": {"predictions", "layers"} of the run without them. "dropped": what of
// the text no token stands for, [{"text", "byte" (from 1), "bytes", "fate": "omitted" |
// "unknown"}].
QByteArray modelJson(const LoadedModel& loaded, const ModelSnapshot& run);

// "encoder": [layer: heads], "decoder": [...], "cross": [...] of an encoder-decoder's run,
// appended to `out` (without braces).
void appendSeq2SeqMaps(std::string& out, const attn::model::Seq2SeqResult& run);

// At most how many bytes appendSeq2SeqMaps writes, with the tokens and predictions around them,
// for m source and n target tokens.
std::size_t seq2seqJsonBytes(const attn::model::Seq2SeqConfig& c, long m, long n);

// {"tokens", "display", "ids"} of one side of an encoder-decoder's run.
nlohmann::ordered_json seq2seqSideJson(const Seq2SeqSide& side);

}  // namespace attnlab::cli
