// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The numbers of a result, for `attnlab compute` and the Export menu:
//  - JSON: {"tokens": {"queries", "keys"}, "heads": [{"Q", "K", "V", "scores", "scaled",
//    "mask", "weights", "output"}, ...], "concat", "output", "diagnostics": [{"entropy",
//    "maxWeight", "argmax", "jacobianNorm", "fullyMasked"}, ...]}; matrices as lists of rows,
//    the mask as booleans, doubles as the shortest text that reads back bit-identical (at
//    most 17 significant digits),
//    non-finite numbers as null.
//  - One long CSV table: head,stage,row,col,row_token,col_token,value (head 0 = all heads for
//    "concat" and "output"; diagnostics as stages with col empty).
//  - Wide CSV files, one per matrix: a header row of column tokens, a first column of row
//    tokens ("head1.weights.csv", ...).

#include <utility>
#include <vector>

#include <QByteArray>
#include <QString>

#include "core/attention.h"
#include "ui/readers/session.h"

namespace attnlab {

// The stage names of the JSON, in order.
QStringList numberStageKeys();

QByteArray resultToJson(const Session& session, const attn::AttentionResult& result);
QByteArray resultToLongCsv(const Session& session, const attn::AttentionResult& result);

// File name (no folder) and contents of every wide CSV file.
std::vector<std::pair<QString, QByteArray>> resultToCsvFiles(const Session& session,
                                                             const attn::AttentionResult& result);

// One matrix as a wide CSV: `corner` in the top-left cell.
QByteArray matrixToCsv(const attn::Matrix& m, const QStringList& rowLabels,
                       const QStringList& columnLabels, const QString& corner);

// A double as the shortest text (at most 17 significant digits) that reads back bit-identical.
QByteArray exactNumber(double v);

// About how many bytes resultToJson (csv: resultToLongCsv) writes for `input`, from its sizes
// alone: so that a run is refused before it computes and builds gigabytes (n = 9,000 writes
// about 5 GB of JSON; the text is built in memory first, on top of the core's result).
enum class NumbersFormat { Json, LongCsv };
std::size_t estimateNumbersBytes(const attn::AttentionInput& input, NumbersFormat format);
// The largest numbers export the command line writes without --max-output, and the window
// without asking.
inline constexpr std::size_t kMaxNumbersBytes = std::size_t{512} << 20;
// "This would write about 4.9 GB and needs about 12 GB of memory" (translated).
QString numbersCostText(const attn::AttentionInput& input, NumbersFormat format);

// Writes bytes atomically; on failure returns false with a translated `error`.
bool writeBytes(const QString& path, const QByteArray& bytes, QString& error);

}  // namespace attnlab
