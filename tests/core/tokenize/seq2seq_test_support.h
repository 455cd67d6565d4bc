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

// Checks every case of a fixture file ("text" with "marian_source", "marian_target" and "t5"
// ids) against the Marian and T5 fixture tokenizers: the ids of both Marian sides and of T5 (whose
// sides are one), and that encodeReported gives the same tokens and names, where they were
// typed, the spans that became the unknown token. Returns the number of texts.
inline int expectFixtureIds(const nlohmann::json& cases, const Seq2SeqTokenizers& marian,
                            const Seq2SeqTokenizers& t5)
{
    int texts = 0;
    for (const auto& c : cases["cases"]) {
        const std::string text = c["text"];
        EXPECT_EQ(marian.source.encode(text), c["marian_source"].get<std::vector<int>>()) << text;
        EXPECT_EQ(marian.target.encode(text), c["marian_target"].get<std::vector<int>>()) << text;
        EXPECT_EQ(t5.source.encode(text), c["t5"].get<std::vector<int>>()) << text;
        EXPECT_EQ(t5.target.encode(text), t5.source.encode(text)) << text;
        const Encoded reported = marian.source.encodeReported(text);
        std::vector<int> ids;
        for (const Token& t : reported.tokens) ids.push_back(t.id);
        EXPECT_EQ(ids, marian.source.encode(text)) << text;
        for (const Dropped& d : reported.dropped) {
            EXPECT_EQ(d.fate, Dropped::Fate::Unknown) << text;
            EXPECT_EQ(text.substr(d.offset, d.length), d.text) << text;
        }
        ++texts;
    }
    return texts;
}

}  // namespace attn::tok::testing
