// SPDX-License-Identifier: GPL-3.0-or-later
// Special tokens spelled in the text of an encoder-decoder: "</s>" typed into a Marian source,
// "<extra_id_0>" into a T5 one, read as those tokens the way Hugging Face's tokenizers read them,
// and Marian's language codes (">>fra<<") as one token. The peers: transformers' rules over
// Google's python3-sentencepiece (tests/reference/make_seq2seq_special_cases.py), and for T5's
// tokenizer.json, Hugging Face's own JavaScript tokenizers (make_seq2seq_tokenizer_cases.mjs).
#include <gtest/gtest.h>

#include "seq2seq_test_support.h"

namespace attn::tok {
namespace {

using testing::loaded;
using testing::readJsonFixture;

TEST(Seq2SeqSpecials, SpelledSpecialTokensAreReadAsThoseTokensAsTransformersReadsThem)
{
    const auto cases = readJsonFixture("seq2seq/special_cases.json");
    const Seq2SeqTokenizers marian = loaded("marian", "marian");
    const Seq2SeqTokenizers t5 = loaded("t5", "t5");
    EXPECT_EQ(testing::expectFixtureIds(cases, marian, t5), 21);
    // "</s>" typed alone: the typed one, then the one the tokenizer adds.
    EXPECT_EQ(t5.source.encode("</s>"), (std::vector<int>{1, 1}));
}

TEST(Seq2SeqSpecials, T5TokenizerJsonCutsItsAddedTokensAsHuggingFacesTokenizerDoes)
{
    const auto cases = readJsonFixture("seq2seq/t5_json_cases.json");
    const Seq2SeqTokenizers t5 = loaded("t5_json", "t5");
    int checked = 0;
    for (const auto& c : cases["cases"]) {
        const std::string text = c["text"];
        EXPECT_EQ(t5.source.encode(text), c["ids"].get<std::vector<int>>()) << text;
        ++checked;
    }
    EXPECT_EQ(checked, 36);
    const auto extra0 = t5.source.encode("<extra_id_0>");
    ASSERT_EQ(extra0.size(), 2u);
    EXPECT_EQ(t5.source.token(extra0[0]).piece, "<extra_id_0>");
}

TEST(Seq2SeqSpecials, AMarianLanguageCodeTheVocabularyLacksIsReportedAsUnknown)
{
    const Seq2SeqTokenizers marian = loaded("marian", "marian");
    const std::string text = "</s>>>fra<< Hello";
    const Encoded e = marian.source.encodeReported(text);
    ASSERT_FALSE(e.dropped.empty());
    EXPECT_EQ(e.dropped.front().text, ">>fra<<");
    EXPECT_EQ(e.dropped.front().offset, 4u);
    EXPECT_EQ(e.dropped.front().fate, Dropped::Fate::Unknown);
    ASSERT_GE(e.tokens.size(), 3u);
    EXPECT_EQ(e.tokens[0].piece, "</s>");
    EXPECT_EQ(e.tokens[1].piece, "<unk>");
    // A code holding bytes that are not UTF-8 is reported as valid UTF-8, with its place.
    const Encoded broken = marian.source.encodeReported(">>\xff<< x");
    ASSERT_FALSE(broken.dropped.empty());
    EXPECT_EQ(broken.dropped.front().text, ">>\xEF\xBF\xBD<<");
    EXPECT_EQ(broken.dropped.front().offset, 0u);
    EXPECT_EQ(broken.dropped.front().length, 5u);
    // Not at the start of a stretch, the code is text, tokenized as any other.
    for (const Dropped& d : marian.source.encodeReported("Hello >>fra<<").dropped)
        EXPECT_NE(d.text, ">>fra<<");
    EXPECT_GT(marian.source.encode("Hello >>fra<<").size(), 3u);
}

}  // namespace
}  // namespace attn::tok
