// SPDX-License-Identifier: GPL-3.0-or-later
// What a tokenizer cannot represent is never lost silently: it becomes the unknown token where
// the model has one, is otherwise left out as a whole character, and is reported with its text
// and its place in the text typed.
#include <filesystem>
#include <gtest/gtest.h>
#include <string>
#include <vector>

#include "core/tokenize/bert_tokenizer.h"
#include "core/tokenize/gpt2_tokenizer.h"
#include "core/tokenize/hf_tokenizer.h"
#include "core/tokenize/tokenizer_loader.h"
#include "core/tokenize/unicode.h"
#include "tokenize/tokenizer_test_support.h"

namespace attn::tok {

// Failures show the entries, not their bytes.
void PrintTo(const Dropped& d, std::ostream* os)
{
    *os << "{\"" << d.text << "\", " << d.offset << ", " << d.length << ", "
        << (d.fate == Dropped::Fate::Unknown ? "Unknown" : "Omitted") << "}";
}

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

// ---- GPT-2's byte-level vocabularies: no unknown token ----------------------------------------

std::filesystem::path builtInModel(const std::string& name)
{
    return std::filesystem::path(ATTNLAB_FIXTURE_DIR) / "../../../resources/models" / name;
}

Gpt2Tokenizer gpt2From(const std::filesystem::path& folder)
{
    auto loaded = Gpt2Tokenizer::fromFiles(folder / "vocab.json", folder / "merges.txt");
    if (auto* err = std::get_if<attn::Status>(&loaded)) {
        ADD_FAILURE() << describe(*err);
        std::abort();
    }
    return std::get<Gpt2Tokenizer>(std::move(loaded));
}

TEST(DroppedCharacters, TheInductionModelReportsTheLettersItLacks)
{
    // A character-level vocabulary of a..z: capitals and the space have no token.
    const Gpt2Tokenizer t = gpt2From(builtInModel("induction"));
    std::vector<Dropped> dropped;
    EXPECT_EQ(t.encode("abcXYZ def", dropped), (std::vector<int>{0, 1, 2, 3, 4, 5}));
    EXPECT_EQ(dropped, (std::vector<Dropped>{{"X", 3, 1, Fate::Omitted},
                                             {"Y", 4, 1, Fate::Omitted},
                                             {"Z", 5, 1, Fate::Omitted},
                                             {" ", 6, 1, Fate::Omitted}}));
}

TEST(DroppedCharacters, TheTangModelLeavesOutWholeCharactersNeverOrphanBytes)
{
    // 🤖 (F0 9F A4 96): the vocabulary has 9F, A4 and 96 (from other characters) but not F0.
    const Gpt2Tokenizer t = gpt2From(builtInModel("tang"));
    const std::string robot = "\xF0\x9F\xA4\x96";
    const std::vector<int> ids = t.encode("月Q" + robot + "月");
    EXPECT_EQ(t.decode(ids), "月月");
    std::vector<Dropped> dropped;
    EXPECT_EQ(t.encode("月Q" + robot + "月", dropped), ids);
    EXPECT_EQ(dropped,
              (std::vector<Dropped>{{"Q", 3, 1, Fate::Omitted}, {robot, 4, 4, Fate::Omitted}}));
}

TEST(DroppedCharacters, AGpt2VocabularyWithoutALetterLeavesItOutWhereverItIs)
{
    nlohmann::json vocab = nlohmann::json::object();
    for (int b = 0; b < 256; ++b) {
        if (b == 'h') continue;
        std::string symbol;
        unicode::appendUtf8(symbol, Gpt2Tokenizer::byteToUnicode(static_cast<std::uint8_t>(b)));
        vocab[symbol] = static_cast<int>(vocab.size());
    }
    auto loaded = Gpt2Tokenizer::fromStrings(vocab.dump(), "#version: 0.2\n");
    ASSERT_TRUE(std::holds_alternative<Gpt2Tokenizer>(loaded));
    const Gpt2Tokenizer& t = std::get<Gpt2Tokenizer>(loaded);
    std::vector<Dropped> dropped;
    const std::vector<int> ids = t.encode("xh h", dropped);
    EXPECT_EQ(t.decode(ids), "x ");
    EXPECT_EQ(dropped,
              (std::vector<Dropped>{{"h", 1, 1, Fate::Omitted}, {"h", 3, 1, Fate::Omitted}}));
}

// ---- BERT: [UNK] for a word WordPiece cannot split -------------------------------------------

TEST(DroppedCharacters, ABertWordThatBecomesUnkIsReportedWholeWhereItWasTyped)
{
    auto loaded =
        BertTokenizer::fromVocabText("[PAD]\n[UNK]\n[CLS]\n[SEP]\nthe\nanimal\n,\nnaive\n##s\n");
    ASSERT_TRUE(std::holds_alternative<BertTokenizer>(loaded));
    const BertTokenizer& t = std::get<BertTokenizer>(loaded);
    std::vector<Dropped> dropped;
    // "Naïve" loses its accent and is a word; "zebra" and "!" are not in the vocabulary; the
    // bell character is cleaned away; [MASK] is written but the vocabulary has none.
    const std::vector<int> ids = t.encode("The animal, zebra\x07! Na\xC3\xAFves [MASK]", dropped);
    EXPECT_EQ(ids, (std::vector<int>{2, 4, 5, 6, 1, 1, 7, 8, 1, 3}));
    EXPECT_EQ(dropped, (std::vector<Dropped>{{"zebra", 12, 5, Fate::Unknown},
                                             {"\x07", 17, 1, Fate::Omitted},
                                             {"!", 18, 1, Fate::Unknown},
                                             {"[MASK]", 28, 6, Fate::Unknown}}));
    // A word of accented letters that becomes [UNK] is reported with all its bytes.
    EXPECT_EQ(t.encode("Cr\xC3\xA8me", dropped), (std::vector<int>{2, 1, 3}));
    EXPECT_EQ(dropped, (std::vector<Dropped>{{"Cr\xC3\xA8me", 0, 6, Fate::Unknown}}));
    // [UNK] written in the text is no loss.
    EXPECT_EQ(t.encode("[UNK]", dropped), (std::vector<int>{2, 1, 3}));
    EXPECT_TRUE(dropped.empty());
}

// ---- the tokenizer of a model folder ------------------------------------------------------------

TEST(DroppedCharacters, ATokenizerGivesItsTokensWithWhatItDropped)
{
    auto loaded = loadTokenizer(builtInModel("induction"), "gpt2", 26);
    ASSERT_TRUE(std::holds_alternative<Tokenizer>(loaded));
    const Tokenizer& t = std::get<Tokenizer>(loaded);
    const Encoded e = t.encodeReported("abcXYZ def");
    ASSERT_TRUE(e.status.ok());
    std::string letters;
    for (const Token& token : e.tokens) letters += token.text;
    EXPECT_EQ(letters, "abcdef");
    EXPECT_EQ(e.dropped.size(), 4u);
    EXPECT_EQ(t.encodeTokens("abcXYZ def").size(), e.tokens.size());

    // A tokenizer.json stage that refuses the text: no tokens, and the status says why.
    const auto dir = testing::freshTempDir("growing");
    const nlohmann::json grow = {
        {"type", "Replace"}, {"pattern", {{"String", "a"}}}, {"content", std::string(20, 'a')}};
    nlohmann::json json = tinyJson("{}");
    json["normalizer"] = {{"type", "Sequence"}, {"normalizers", {grow, grow}}};
    testing::writeFile(dir / "tokenizer.json", json.dump());
    loaded = loadTokenizer(dir, "llama");
    ASSERT_TRUE(std::holds_alternative<Tokenizer>(loaded));
    const Encoded refused = std::get<Tokenizer>(loaded).encodeReported(std::string(100, 'a'));
    EXPECT_EQ(refused.status.code, StatusCode::TokenizerGrowth);
    EXPECT_TRUE(refused.tokens.empty());
    EXPECT_TRUE(std::get<Tokenizer>(loaded).encode(std::string(100, 'a')).empty());
}

}  // namespace
}  // namespace attn::tok
