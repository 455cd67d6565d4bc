// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/tokenize/bert_tokenizer.h"

#include <gtest/gtest.h>
#include <string>
#include <vector>

#include "tokenize/tokenizer_test_support.h"

namespace attn::tok {
namespace {

using testing::readJsonFixture;
using testing::tokenizerFixtureDir;

const std::filesystem::path& bertVocabPath()
{
    static const auto path = tokenizerFixtureDir() / "bert-base-uncased" / "vocab.txt";
    return path;
}

BertTokenizer loadBert(const BertOptions& options)
{
    std::string text;
    EXPECT_FALSE(readWholeFile(bertVocabPath(), text).has_value());
    auto loaded = BertTokenizer::fromVocabText(text, options);
    if (auto* err = std::get_if<attn::Status>(&loaded)) {
        ADD_FAILURE() << describe(*err);
        std::abort();
    }
    return std::get<BertTokenizer>(std::move(loaded));
}

BertTokenizer tinyBert(BertOptions options = {})
{
    const std::string vocab =
        "[PAD]\n[UNK]\n[CLS]\n[SEP]\n[MASK]\nthe\nanimal\nun\n##aff\n##able\n,\n.\n!\n街\ncafe\n";
    auto loaded = BertTokenizer::fromVocabText(vocab, options);
    EXPECT_TRUE(std::holds_alternative<BertTokenizer>(loaded));
    return std::get<BertTokenizer>(std::move(loaded));
}

TEST(BertTokenizer, MatchesReferenceOnEveryFixture)
{
    const auto fixture = readJsonFixture("bert_cases.json");
    const auto& cases = fixture.at("cases");
    ASSERT_GE(cases.size(), 60u);
    const BertTokenizer uncased = loadBert({});
    int passed = 0;
    for (const auto& c : cases) {
        const std::string text = c.at("text").get<std::string>();
        const auto& opts = c.at("options");
        BertOptions options;
        if (opts.contains("do_lower_case")) options.lowerCase = opts["do_lower_case"].get<bool>();
        if (opts.contains("strip_accents"))
            options.stripAccents = opts["strip_accents"].get<bool>();
        if (opts.contains("tokenize_chinese_chars")) {
            options.tokenizeChineseChars = opts["tokenize_chinese_chars"].get<bool>();
        }
        const BertTokenizer custom = opts.empty() ? BertTokenizer(uncased) : loadBert(options);
        const auto expectedTokens = c.at("tokens").get<std::vector<std::string>>();
        const auto expectedIds = c.at("ids").get<std::vector<int>>();
        const auto tokens = custom.tokenize(text);
        const auto ids = custom.encode(text);
        EXPECT_EQ(tokens, expectedTokens) << "text: \"" << text << "\" options " << opts.dump();
        EXPECT_EQ(ids, expectedIds) << "text: \"" << text << "\"";
        if (tokens == expectedTokens && ids == expectedIds) ++passed;
    }
    EXPECT_EQ(passed, static_cast<int>(cases.size()));
}

TEST(BertTokenizer, RealVocabularyHasTheExpectedSpecialIds)
{
    const BertTokenizer t = loadBert({});
    EXPECT_EQ(t.vocabSize(), 30522u);
    EXPECT_EQ(t.padId(), 0);
    EXPECT_EQ(t.unkId(), 100);
    EXPECT_EQ(t.clsId(), 101);
    EXPECT_EQ(t.sepId(), 102);
    EXPECT_EQ(t.maskId(), 103);
    EXPECT_EQ(t.piece(1), "[unused0]");
}

TEST(BertTokenizer, KeepsMaskWholeAndAddsClsSep)
{
    const BertTokenizer t = tinyBert();
    EXPECT_EQ(
        t.tokenize("The animal [MASK], unaffable!"),
        (std::vector<std::string>{"the", "animal", "[MASK]", ",", "un", "##aff", "##able", "!"}));
    EXPECT_EQ(t.encode(""), (std::vector<int>{2, 3}));
    EXPECT_EQ(t.encode("the [MASK]"), (std::vector<int>{2, 5, 4, 3}));
}

TEST(BertTokenizer, StripsAccentsAndSplitsCjk)
{
    const BertTokenizer t = tinyBert();
    EXPECT_EQ(t.basicTokenize("CAFÉ\t街街"), (std::vector<std::string>{"cafe", "街", "街"}));
    BertOptions cased;
    cased.lowerCase = false;
    EXPECT_EQ(tinyBert(cased).basicTokenize("Cafe\u0301"), (std::vector<std::string>{"Caf\u00e9"}));
}

TEST(BertTokenizer, UnknownAndOverlongWordsBecomeUnk)
{
    const BertTokenizer t = tinyBert();
    EXPECT_EQ(t.tokenize("zebra"), (std::vector<std::string>{"[UNK]"}));
    // 101 characters. Appended, not `"un" + std::string(...)`: GCC 12 at -O3 warns falsely
    // (-Warray-bounds) on that concatenation.
    std::string longWord = "un";
    longWord.append(99, 'e');
    EXPECT_EQ(t.tokenize(longWord), (std::vector<std::string>{"[UNK]"}));
}

TEST(BertTokenizer, DropsInvalidUtf8AndControlCharacters)
{
    const BertTokenizer t = tinyBert();
    // Invalid bytes turn into U+FFFD, which BERT's cleaning drops; so do NUL and controls.
    EXPECT_EQ(t.tokenize("the\xFF\xFE animal\x01 \x80"),
              (std::vector<std::string>{"the", "animal"}));
    EXPECT_EQ(t.tokenize(std::string("the\0animal", 10)), t.tokenize("theanimal"));
}

std::string errorOf(const Loaded<BertTokenizer>& loaded)
{
    const auto* err = std::get_if<attn::Status>(&loaded);
    return err ? describe(*err) : std::string("(loaded)");
}

TEST(BertTokenizer, RefusesMalformedFilesWithAMessage)
{
    EXPECT_EQ(errorOf(BertTokenizer::fromVocabText("")), "vocab.txt: the file is empty");
    EXPECT_EQ(errorOf(BertTokenizer::fromVocabText("[CLS]\n[SEP]\n")),
              "vocab.txt: the vocabulary has no [UNK] token");
    EXPECT_EQ(errorOf(BertTokenizer::fromVocabText("[UNK]\n[CLS]\n[SEP]\n\xFF\n")),
              "vocab.txt: line 4 is not valid UTF-8");
    EXPECT_NE(errorOf(BertTokenizer::fromFiles("/nonexistent/vocab.txt")).find("file not found"),
              std::string::npos);
    auto bad = BertTokenizer::optionsFromConfigJson(R"({"do_lower_case": "yes")", "cfg.json");
    ASSERT_TRUE(std::holds_alternative<attn::Status>(bad));
    EXPECT_NE(describe(std::get<attn::Status>(bad)).find("cfg.json: not valid JSON"),
              std::string::npos);
    bad = BertTokenizer::optionsFromConfigJson(R"({"do_lower_case": "yes"})", "cfg.json");
    ASSERT_TRUE(std::holds_alternative<attn::Status>(bad));
    EXPECT_EQ(describe(std::get<attn::Status>(bad)),
              "cfg.json: \"do_lower_case\" must be true or false");
    auto good = BertTokenizer::optionsFromConfigJson(
        R"({"do_lower_case": false, "strip_accents": null, "model_max_length": 512})", "cfg.json");
    ASSERT_TRUE(std::holds_alternative<BertOptions>(good));
    EXPECT_FALSE(std::get<BertOptions>(good).lowerCase);
    EXPECT_FALSE(std::get<BertOptions>(good).stripAccents.has_value());
}

}  // namespace
}  // namespace attn::tok
