// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A Llama-family checkpoint folder with a real tokenizer for UI and command-line tests: the
// committed tiny Qwen3 fixture (tests/reference/fixtures/decoders/qwen3_qknorm_bf16: 2 layers,
// 4 query heads sharing 2 key/value heads) with its word embedding widened to Qwen3's
// vocabulary (the fixture's rows kept, the others random, F32) and Qwen3's own tokenizer.json,
// so that any text the tokenizer reads runs.

#include <QString>

class QTemporaryDir;

namespace attnlab::test {

QString qwen3Folder(const QTemporaryDir& dir);

}  // namespace attnlab::test
