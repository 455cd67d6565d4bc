// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A target pattern from a file, for "your own pattern" (the Trainer dock's "Take P from another
// session…" and `attnlab train --task pattern:FILE`): a CSV with one line per query row, or a
// session (.json) whose head `head` weights are the target.

#include <QString>

#include "core/attention_input.h"

namespace attnlab {

// False with a translated `error` when the file cannot be read or holds no pattern.
bool readPatternFile(const QString& path, int head, attn::Matrix& out, QString& error);

}  // namespace attnlab
