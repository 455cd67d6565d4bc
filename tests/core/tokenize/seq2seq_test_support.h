// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The encoder-decoders' committed tokenizer fixtures (tests/reference/tokenizers/seq2seq),
// loaded for the tokenizer tests.

#include <gtest/gtest.h>

#include "core/tokenize/seq2seq_tokenizer.h"
#include "tokenizer_test_support.h"

namespace attn::tok::testing {

inline std::filesystem::path seq2seqDir(const std::string& name)
{
    return tokenizerFixtureDir() / "seq2seq" / name;
}

// The fixture folder `name` loaded as model type `type`; a load that fails fails the test.
inline Seq2SeqTokenizers loaded(const std::string& name, const char* type)
{
    auto t = loadSeq2SeqTokenizers(seq2seqDir(name), type);
    if (const auto* e = std::get_if<Status>(&t)) ADD_FAILURE() << describe(*e);
    return std::get<Seq2SeqTokenizers>(std::move(t));
}

}  // namespace attn::tok::testing
