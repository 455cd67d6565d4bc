// SPDX-License-Identifier: GPL-3.0-or-later
// What a tokenizer cannot represent is never lost silently: it becomes the unknown token where
// the model has one, is otherwise left out as a whole character, and is reported with its text
// and its place in the text typed.
#include <gtest/gtest.h>
#include <string>
#include <vector>

#include "core/tokenize/gpt2_tokenizer.h"
#include "core/tokenize/hf_tokenizer.h"
#include "core/tokenize/unicode.h"
#include "tokenize/tokenizer_test_support.h"

namespace attn::tok {
namespace {

using testing::tinyJson;
using Fate = Dropped::Fate;

HfTokenizer hfFrom(const nlohmann::json& json)
{
    auto loaded = HfTokenizer::fromStrings(json.dump());
    if (auto* err = std::get_if<attn::Status>(&loaded)) {
        ADD_FAILURE() << describe(*err);
        std::abort();
    }
    return std::get<HfTokenizer>(std::move(loaded));
}

std::vector<Dropped> droppedBy(const HfTokenizer& t, const std::string& text)
{
    std::vector<int> ids;
    std::vector<Dropped> dropped;
    EXPECT_TRUE(t.encode(text, false, ids, dropped).ok());
    return dropped;
}

// A byte-level tokenizer.json whose vocabulary holds every byte but `missing`, and "ab".
nlohmann::json byteLevelWithout(unsigned char missing)
{
    nlohmann::json vocab = nlohmann::json::object();
    int id = 0;
    for (int b = 0; b < 256; ++b) {
        if (b == missing) continue;
        std::string symbol;
        unicode::appendUtf8(symbol, Gpt2Tokenizer::byteToUnicode(static_cast<std::uint8_t>(b)));
        vocab[symbol] = id++;
    }
    vocab["ab"] = id;
    return {{"model", {{"type", "BPE"}, {"vocab", vocab}, {"merges", {"a b"}}}},
            {"pre_tokenizer", {{"type", "ByteLevel"}, {"add_prefix_space", false}}},
            {"decoder", {{"type", "ByteLevel"}}}};
}

TEST(DroppedCharacters, AnUnknownCharacterIsReportedWhereItWasTypedThroughTheNormalizers)
{
    // SentencePiece-style: "▁" before the text and for each space, so "q" moves in the
    // normalized text; it is reported at its place in the text given.
    const HfTokenizer t = hfFrom(tinyJson(R"({"model": {"unk_token": "<unk>"},
        "normalizer": {"type": "Sequence", "normalizers": [{"type": "Prepend", "prepend": "▁"},
            {"type": "Replace", "pattern": {"String": " "}, "content": "▁"}]}})"));
    EXPECT_EQ(droppedBy(t, "a qq"),
              (std::vector<Dropped>{{"q", 2, 1, Fate::Unknown}, {"q", 3, 1, Fate::Unknown}}));
    // Byte fallback represents a character exactly: nothing is reported.
    const HfTokenizer bytes = hfFrom(tinyJson(R"({"model": {"byte_fallback": true,
        "unk_token": "<unk>"}})"));
    EXPECT_TRUE(droppedBy(bytes, "a\xC3\xA9").empty());
    EXPECT_EQ(droppedBy(bytes, "\xE2\x82\xAC"),
              (std::vector<Dropped>{{"\xE2\x82\xAC", 0, 3, Fate::Unknown}}));
}

TEST(DroppedCharacters, WithoutAnUnknownTokenACharacterIsLeftOutAndReported)
{
    const HfTokenizer t = hfFrom(tinyJson("{}"));
    std::vector<int> ids;
    std::vector<Dropped> dropped;
    ASSERT_TRUE(t.encode("aqb\xFF", false, ids, dropped).ok());
    EXPECT_EQ(ids, (std::vector<int>{5}));  // "ab": the neighbours merge as if q were not there
    EXPECT_EQ(dropped, (std::vector<Dropped>{{"q", 1, 1, Fate::Omitted},
                                             {"\xEF\xBF\xBD", 3, 1, Fate::Omitted}}));
}

TEST(DroppedCharacters, AByteLevelVocabularyLeavesOutAWholeCharacterNeverSomeOfItsBytes)
{
    // 🤖 is F0 9F A4 96; without F0 the other three bytes would be orphan tokens.
    const HfTokenizer t = hfFrom(byteLevelWithout(0xF0));
    const std::string robot = "\xF0\x9F\xA4\x96";
    std::vector<int> ids;
    std::vector<Dropped> dropped;
    ASSERT_TRUE(t.encode("ab" + robot + "b", false, ids, dropped).ok());
    EXPECT_EQ(t.decode(ids), "abb");
    EXPECT_EQ(dropped, (std::vector<Dropped>{{robot, 2, 4, Fate::Omitted}}));
    // The same through the old signature: no byte of it is left.
    EXPECT_EQ(t.decode(t.encode(robot)), "");
}

}  // namespace
}  // namespace attn::tok
