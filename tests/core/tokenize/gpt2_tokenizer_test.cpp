// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/tokenize/gpt2_tokenizer.h"

#include <fstream>
#include <gtest/gtest.h>
#include <iterator>
#include <string>
#include <vector>

#include "tokenize/tokenizer_test_support.h"

namespace attn::tok {
namespace {

using testing::readJsonFixture;
using testing::tokenizerFixtureDir;

const Gpt2Tokenizer& realGpt2()
{
    static const Gpt2Tokenizer tokenizer = [] {
        auto loaded = Gpt2Tokenizer::fromFiles(tokenizerFixtureDir() / "gpt2" / "vocab.json",
                                               tokenizerFixtureDir() / "gpt2" / "merges.txt");
        if (auto* err = std::get_if<attn::Status>(&loaded)) {
            ADD_FAILURE() << describe(*err);
            std::abort();
        }
        return std::get<Gpt2Tokenizer>(std::move(loaded));
    }();
    return tokenizer;
}

// A tiny byte-level vocabulary: the 256 byte symbols plus a few merges.
Gpt2Tokenizer tinyGpt2()
{
    nlohmann::json vocab = nlohmann::json::object();
    for (int b = 0; b < 256; ++b) {
        std::string symbol;
        const char32_t cp = Gpt2Tokenizer::byteToUnicode(static_cast<std::uint8_t>(b));
        // UTF-8 of cp (all below 0x800).
        if (cp < 0x80) {
            symbol.push_back(static_cast<char>(cp));
        } else {
            symbol.push_back(static_cast<char>(0xC0 | (cp >> 6)));
            symbol.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
        }
        vocab[symbol] = b;
    }
    vocab["\xC4\xA0t"] = 256;  // "Ġt"
    vocab["he"] = 257;
    vocab["\xC4\xA0the"] = 258;  // "Ġthe"
    vocab["ll"] = 259;
    const std::string merges = "#version: 0.2\n\xC4\xA0 t\nh e\n\xC4\xA0t he\nl l\n";
    auto loaded = Gpt2Tokenizer::fromStrings(vocab.dump(), merges);
    EXPECT_TRUE(std::holds_alternative<Gpt2Tokenizer>(loaded));
    return std::get<Gpt2Tokenizer>(std::move(loaded));
}

TEST(Gpt2Tokenizer, MatchesReferenceEncoderOnEveryFixture)
{
    const auto fixture = readJsonFixture("gpt2_cases.json");
    const auto& cases = fixture.at("cases");
    ASSERT_GE(cases.size(), 60u);
    int passed = 0;
    for (const auto& c : cases) {
        const std::string text = c.at("text").get<std::string>();
        const std::vector<int> expected = c.at("ids").get<std::vector<int>>();
        const std::vector<int> got = realGpt2().encode(text);
        EXPECT_EQ(got, expected) << "text: \"" << text << "\"";
        if (got == expected) ++passed;
        // Decoding gives the text back byte for byte.
        EXPECT_EQ(realGpt2().decode(got), text);
    }
    EXPECT_EQ(passed, static_cast<int>(cases.size()));
}

TEST(Gpt2Tokenizer, SplitsContractionsLikeGpt2)
{
    // "'S" is not a contraction (the pattern is case-sensitive): "'" then "S".
    const std::vector<std::string> want = {"I",   "'m", " sure", " they", "'ll",
                                           " go", "'",  "S",     " it",   "'s"};
    EXPECT_EQ(Gpt2Tokenizer::preTokenize("I'm sure they'll go'S it's"), want);
}

TEST(Gpt2Tokenizer, KeepsLastSpaceOfARunForTheNextWord)
{
    EXPECT_EQ(Gpt2Tokenizer::preTokenize("a   b"), (std::vector<std::string>{"a", "  ", " b"}));
    EXPECT_EQ(Gpt2Tokenizer::preTokenize("a  \n"), (std::vector<std::string>{"a", "  \n"}));
    EXPECT_EQ(Gpt2Tokenizer::preTokenize("a\n\nb"),
              (std::vector<std::string>{"a", "\n", "\n", "b"}));
    EXPECT_EQ(Gpt2Tokenizer::preTokenize(" 42 ?!"), (std::vector<std::string>{" 42", " ?!"}));
    EXPECT_TRUE(Gpt2Tokenizer::preTokenize("").empty());
}

TEST(Gpt2Tokenizer, ByteToUnicodeMatchesGpt2)
{
    EXPECT_EQ(Gpt2Tokenizer::byteToUnicode('!'), U'!');
    EXPECT_EQ(Gpt2Tokenizer::byteToUnicode(' '), U'\u0120');   // Ġ
    EXPECT_EQ(Gpt2Tokenizer::byteToUnicode('\n'), U'\u010A');  // Ċ
    EXPECT_EQ(Gpt2Tokenizer::byteToUnicode(0), U'\u0100');
    EXPECT_EQ(Gpt2Tokenizer::byteToUnicode(0xAD), U'\u0143');
    EXPECT_EQ(Gpt2Tokenizer::byteToUnicode(0xFF), U'\u00FF');
}

TEST(Gpt2Tokenizer, TinyVocabularyMergesByRank)
{
    const Gpt2Tokenizer t = tinyGpt2();
    EXPECT_EQ(t.mergeCount(), 4u);
    EXPECT_EQ(t.encode(" the"), (std::vector<int>{258}));
    EXPECT_EQ(t.encode("hello"), (std::vector<int>{257, 259, 'o'}));
}

TEST(Gpt2Tokenizer, LabelsShowLeadingSpaceAndBrokenBytes)
{
    const Gpt2Tokenizer& t = realGpt2();
    const int the = t.idOf("\xC4\xA0the");
    ASSERT_GE(the, 0);
    EXPECT_EQ(t.tokenBytes(the), " the");
    EXPECT_EQ(t.tokenText(the), " the");
    EXPECT_EQ(t.tokenLabel(the), "\u2423the");
    // 累 is E7 B4 AF: GPT-2 has no merge for it, so each byte is a token of its own.
    const std::vector<int> ids = t.encode("\xE7\xB4\xAF");
    ASSERT_EQ(ids.size(), 3u);
    EXPECT_EQ(t.tokenText(ids[0]) + t.tokenText(ids[1]) + t.tokenText(ids[2]),
              "\uFFFD\uFFFD\uFFFD");
    EXPECT_EQ(t.tokenLabel(ids[0]) + t.tokenLabel(ids[1]) + t.tokenLabel(ids[2]), "<E7><B4><AF>");
    // 街 (E8 A1 97) is two tokens: E8 A1 then 97, both broken sequences.
    const std::vector<int> street = t.encode("\xE8\xA1\x97");
    ASSERT_EQ(street.size(), 2u);
    EXPECT_EQ(t.tokenBytes(street[0]), "\xE8\xA1");
    EXPECT_EQ(t.tokenText(street[0]), "\uFFFD");
    EXPECT_EQ(t.tokenLabel(street[0]), "<E8><A1>");
    EXPECT_EQ(t.decode(ids), "\xE7\xB4\xAF");
    EXPECT_EQ(displayLabelForBytes("\n\t"), "\u21B5\u21E5");
    EXPECT_EQ(displayLabelForBytes("   "), "\u2423\u2423\u2423");
}

TEST(Gpt2Tokenizer, InvalidUtf8IsEncodedAsReplacementCharacters)
{
    const Gpt2Tokenizer& t = realGpt2();
    // A lone continuation byte, a truncated 3-byte sequence and an overlong form: each
    // maximal ill-formed part becomes U+FFFD before tokenizing.
    const std::string bad = "ok\x80 x\xE7\xB4 \xC0\xAF!";
    const std::vector<int> ids = t.encode(bad);
    EXPECT_EQ(t.decode(ids), "ok\uFFFD x\uFFFD \uFFFD\uFFFD!");
    EXPECT_EQ(ids, t.encode("ok\uFFFD x\uFFFD \uFFFD\uFFFD!"));
}

TEST(Gpt2Tokenizer, HandlesAVeryLongWord)
{
    const std::string word(20000, 'a');
    const std::vector<int> ids = realGpt2().encode(word);
    EXPECT_FALSE(ids.empty());
    EXPECT_EQ(realGpt2().decode(ids), word);
}

TEST(Gpt2Tokenizer, ReadsTokenizerJsonWithStringOrPairMerges)
{
    nlohmann::json vocab = nlohmann::json::object();
    const Gpt2Tokenizer tiny = tinyGpt2();
    for (int id = 0; id < static_cast<int>(tiny.vocabSize()); ++id) vocab[tiny.piece(id)] = id;
    for (const bool pairs : {false, true}) {
        nlohmann::json merges = nlohmann::json::array();
        const std::vector<std::pair<std::string, std::string>> list = {
            {"\xC4\xA0", "t"}, {"h", "e"}, {"\xC4\xA0t", "he"}, {"l", "l"}};
        for (const auto& [a, b] : list) {
            if (pairs) {
                merges.push_back({a, b});
            } else {
                merges.push_back(a + " " + b);
            }
        }
        nlohmann::json root = {{"model", {{"type", "BPE"}, {"vocab", vocab}, {"merges", merges}}}};
        auto loaded = Gpt2Tokenizer::fromTokenizerJsonString(root.dump());
        ASSERT_TRUE(std::holds_alternative<Gpt2Tokenizer>(loaded))
            << describe(std::get<attn::Status>(loaded));
        EXPECT_EQ(std::get<Gpt2Tokenizer>(loaded).encode(" the hello"), tiny.encode(" the hello"));
    }
}

std::string errorOf(const Loaded<Gpt2Tokenizer>& loaded)
{
    const auto* err = std::get_if<attn::Status>(&loaded);
    return err ? describe(*err) : std::string("(loaded)");
}

TEST(Gpt2Tokenizer, RefusesMalformedFilesWithAMessage)
{
    const std::string vocab = readJsonFixture("gpt2/vocab.json").dump();
    // Truncated vocab.json.
    EXPECT_NE(errorOf(Gpt2Tokenizer::fromStrings(vocab.substr(0, vocab.size() / 2), ""))
                  .find("vocab.json: not valid JSON"),
              std::string::npos);
    // A merges line with one token names the line.
    EXPECT_NE(errorOf(Gpt2Tokenizer::fromStrings(vocab, "#version: 0.2\n\xC4\xA0 t\nhe\n"))
                  .find("merges.txt: line 3: expected two tokens"),
              std::string::npos);
    // Not an object; ids not integers; absurd ids.
    EXPECT_NE(errorOf(Gpt2Tokenizer::fromStrings("[1,2]", "")).find("JSON object"),
              std::string::npos);
    EXPECT_NE(errorOf(Gpt2Tokenizer::fromStrings(R"({"a": "x"})", "")).find("not an integer"),
              std::string::npos);
    EXPECT_NE(errorOf(Gpt2Tokenizer::fromStrings(R"({"a": 99999999999})", "")).find("outside"),
              std::string::npos);
    EXPECT_NE(errorOf(Gpt2Tokenizer::fromStrings("{}", "")).find("empty"), std::string::npos);
    // Missing files.
    EXPECT_NE(errorOf(Gpt2Tokenizer::fromFiles("/nonexistent/vocab.json", "/nonexistent/m.txt"))
                  .find("/nonexistent/vocab.json: file not found"),
              std::string::npos);
    // tokenizer.json without a model, or not BPE.
    EXPECT_NE(errorOf(Gpt2Tokenizer::fromTokenizerJsonString("{}")).find("no \"model\""),
              std::string::npos);
    EXPECT_NE(errorOf(Gpt2Tokenizer::fromTokenizerJsonString(
                          R"({"model": {"type": "WordPiece", "vocab": {}}})"))
                  .find("expected \"BPE\""),
              std::string::npos);
    EXPECT_NE(errorOf(Gpt2Tokenizer::fromTokenizerJsonString(
                          R"({"model": {"vocab": {}, "merges": [["a"]]}})"))
                  .find("model.merges[0]"),
              std::string::npos);
}

TEST(Gpt2Tokenizer, MergesOfInvalidUtf8AreRefusedNamingTheLine)
{
    const std::string vocab = R"({"a": 0, "b": 1, "ab": 2})";
    EXPECT_EQ(errorOf(Gpt2Tokenizer::fromStrings(vocab, "#version: 0.2\na b\na \xFF\n")),
              "merges.txt: line 3 is not valid UTF-8");
}

TEST(Gpt2Tokenizer, MergesOfTokensNotInTheVocabularyAreRefusedNamingTheLine)
{
    // GPT-2's own files without "h": its merges still join "h" with its neighbours, which
    // Hugging Face's tokenizers refuses (MergeTokenOutOfVocabulary), as tokenizer.json is here.
    nlohmann::json vocab = readJsonFixture("gpt2/vocab.json");
    vocab.erase("h");
    std::ifstream in(tokenizerFixtureDir() / "gpt2" / "merges.txt", std::ios::binary);
    const std::string merges((std::istreambuf_iterator<char>(in)), {});
    const std::string message = errorOf(Gpt2Tokenizer::fromStrings(vocab.dump(), merges));
    EXPECT_EQ(message, "merges.txt: line 4: \"h\" (of \"h e\") is not in vocab.json") << message;
    const std::string small = R"({"a": 0, "b": 1, "ab": 2})";
    EXPECT_EQ(errorOf(Gpt2Tokenizer::fromStrings(small, "a b\nab c\n")),
              "merges.txt: line 2: \"c\" (of \"ab c\") is not in vocab.json");
    EXPECT_EQ(errorOf(Gpt2Tokenizer::fromStrings(R"({"a": 0, "b": 1})", "a b\n")),
              "merges.txt: line 1: \"ab\" (the merge of \"a b\") is not in vocab.json");
    // The same files as one tokenizer.json.
    const nlohmann::json json = {
        {"model", {{"vocab", nlohmann::json::parse(small)}, {"merges", {"a b", "ab c"}}}}};
    EXPECT_EQ(errorOf(Gpt2Tokenizer::fromTokenizerJsonString(json.dump())),
              "tokenizer.json: model.merges[1]: \"c\" (of \"ab c\") is not in model.vocab");
}

TEST(Gpt2Tokenizer, AVocabularyWithoutSomeBytesLeavesTheirCharactersOut)
{
    // A character-level vocabulary (what attnlab train-model writes) holds only its text's
    // bytes; as Hugging Face's tokenizers does without an unknown token, the others are left out.
    auto loaded = Gpt2Tokenizer::fromStrings(R"({"a": 0, "b": 1, "Ġ": 2})", "#version: 0.2\n");
    ASSERT_TRUE(std::holds_alternative<Gpt2Tokenizer>(loaded)) << errorOf(loaded);
    const auto& t = std::get<Gpt2Tokenizer>(loaded);
    EXPECT_EQ(t.encode("ab c!a"), (std::vector<int>{0, 1, 2, 0}));
    EXPECT_TRUE(t.encode("xyz").empty());
}

}  // namespace
}  // namespace attn::tok
