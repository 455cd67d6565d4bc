// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Checkpoint folders for UI and command-line tests: the committed tiny GPT-2 and BERT fixtures
// (tests/reference/fixtures/models) with a small tokenizer written beside them, so that
// every id the tokenizer makes is inside the model's vocabulary.

#include <QString>

class QTemporaryDir;

namespace attnlab::test {

// GPT-2: a byte-level vocabulary of the 256 byte symbols plus "th" (one merge, "t h"), the
// model's word embedding widened to match. BERT: a vocabulary of 12 words with the specials.
QString modelFolder(const QTemporaryDir& dir, const char* fixture, bool gpt2);

// The GPT-2 tokenizer of modelFolder (vocab.json of the 256 byte symbols and "th", merges.txt
// with "t h") in `folder`; returns the vocabulary's size (257).
int writeByteTokenizer(const QString& folder);

// Writes `bytes` to `path` (a test failure when it cannot).
void writeFile(const QString& path, const QByteArray& bytes);

}  // namespace attnlab::test
