// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/tokenize/tokenizer_loader.h"

#include <algorithm>
#include <fstream>
#include <gtest/gtest.h>

#include "tokenize/tokenizer_test_support.h"

namespace attn::tok {
namespace {

using testing::freshTempDir;
using testing::tokenizerFixtureDir;
using testing::writeFile;

std::string errorOf(const Loaded<Tokenizer>& loaded)
{
    const auto* err = std::get_if<attn::Status>(&loaded);
    return err ? describe(*err) : std::string("(loaded)");
}

TEST(TokenizerLoader, PicksGpt2FromVocabAndMerges)
{
    auto loaded = loadTokenizer(tokenizerFixtureDir() / "gpt2", "gpt2");
    ASSERT_TRUE(std::holds_alternative<Tokenizer>(loaded)) << errorOf(loaded);
    const Tokenizer& t = std::get<Tokenizer>(loaded);
    EXPECT_EQ(t.modelType(), "gpt2");
    const auto tokens = t.encodeTokens("Hello world");
    ASSERT_EQ(tokens.size(), 2u);
    EXPECT_EQ(tokens[0].id, 15496);
    EXPECT_EQ(tokens[1].piece, "\xC4\xA0world");
    EXPECT_EQ(tokens[1].text, " world");
    EXPECT_EQ(tokens[1].label, "\u2423world");
}

TEST(TokenizerLoader, PicksBertFromVocabTxtAndConfig)
{
    const auto dir = freshTempDir("bert");
    std::filesystem::copy_file(tokenizerFixtureDir() / "bert-base-uncased" / "vocab.txt",
                               dir / "vocab.txt");
    auto loaded = loadTokenizer(dir, "bert");
    ASSERT_TRUE(std::holds_alternative<Tokenizer>(loaded)) << errorOf(loaded);
    EXPECT_EQ(std::get<Tokenizer>(loaded).encode("the animal [MASK]"),
              (std::vector<int>{101, 1996, 4111, 103, 102}));
    writeFile(dir / "tokenizer_config.json", R"({"do_lower_case": false})");
    loaded = loadTokenizer(dir, "bert");
    ASSERT_TRUE(std::holds_alternative<Tokenizer>(loaded)) << errorOf(loaded);
    EXPECT_FALSE(std::get<Tokenizer>(loaded).bert()->options().lowerCase);
    writeFile(dir / "tokenizer_config.json", R"({"do_lower_case": )");
    EXPECT_NE(errorOf(loadTokenizer(dir, "bert")).find("tokenizer_config.json: not valid JSON"),
              std::string::npos);
}

TEST(TokenizerLoader, FallsBackToTokenizerJson)
{
    const auto dir = freshTempDir("fast");
    nlohmann::json vocab = nlohmann::json::object();
    for (int b = 0; b < 256; ++b) {
        std::string s;
        const char32_t cp = Gpt2Tokenizer::byteToUnicode(static_cast<std::uint8_t>(b));
        if (cp < 0x80) {
            s.push_back(static_cast<char>(cp));
        } else {
            s.push_back(static_cast<char>(0xC0 | (cp >> 6)));
            s.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
        }
        vocab[s] = b;
    }
    vocab["hi"] = 256;
    nlohmann::json root = {{"model", {{"vocab", vocab}, {"merges", {"h i"}}}}};
    writeFile(dir / "tokenizer.json", root.dump());
    auto loaded = loadTokenizer(dir, "gpt2");
    ASSERT_TRUE(std::holds_alternative<Tokenizer>(loaded)) << errorOf(loaded);
    EXPECT_EQ(std::get<Tokenizer>(loaded).encode("hi"), (std::vector<int>{256}));
}

TEST(TokenizerLoader, NamesTheMissingFile)
{
    const auto dir = freshTempDir("empty");
    EXPECT_EQ(errorOf(loadTokenizer(dir, "gpt2")),
              (dir / "vocab.json").string() +
                  ": file not found: a GPT-2 tokenizer needs vocab.json and merges.txt, or "
                  "tokenizer.json");
    writeFile(dir / "vocab.json", "{}");
    EXPECT_NE(errorOf(loadTokenizer(dir, "gpt2")).find("merges.txt: file not found"),
              std::string::npos);
    EXPECT_EQ(errorOf(loadTokenizer(dir, "bert")),
              (dir / "vocab.txt").string() + ": file not found: a BERT tokenizer needs vocab.txt");
    EXPECT_EQ(errorOf(loadTokenizer(dir, "llama")),
              (dir / "tokenizer.json").string() +
                  ": file not found: the tokenizer of a \"llama\" model needs tokenizer.json");
    EXPECT_NE(errorOf(loadTokenizer(dir / "nope", "bert")).find("does not exist"),
              std::string::npos);
    writeFile(dir / "vocab.txt", "");
    EXPECT_EQ(errorOf(loadTokenizer(dir, "bert")),
              (dir / "vocab.txt").string() + ": the file is empty");
}

TEST(TokenizerLoader, AVocabularyFarSmallerThanTheModelsIsRefused)
{
    // The first 1,000 lines of bert-base-uncased's vocab.txt for its model of 30,522 ids:
    // nearly every word would become [UNK].
    const auto dir = freshTempDir("bert_short");
    std::ifstream in(tokenizerFixtureDir() / "bert-base-uncased" / "vocab.txt");
    std::string lines, line;
    for (int i = 0; i < 1000 && std::getline(in, line); ++i) lines += line + "\n";
    writeFile(dir / "vocab.txt", lines);
    const auto loaded = loadTokenizer(dir, "bert", 30522);
    ASSERT_TRUE(std::holds_alternative<attn::Status>(loaded));
    const attn::Status& s = std::get<attn::Status>(loaded);
    EXPECT_EQ(s.code, StatusCode::TokenizerMismatch);
    EXPECT_EQ(describe(s), (dir / "vocab.txt").string() +
                               ": has 1000 tokens, but the model (config.json's vocab_size) has "
                               "30522 ids; a tokenizer may leave at most 3815 of them without a "
                               "token");
    // Without the model's size nothing is checked.
    EXPECT_TRUE(std::holds_alternative<Tokenizer>(loadTokenizer(dir, "bert")));
}

TEST(TokenizerLoader, AModelPaddedBeyondItsTokenizerIsAccepted)
{
    const auto gpt2 = tokenizerFixtureDir() / "gpt2";
    // GPT-2's 50,257 tokens in a model of 50,304 rows (nanoGPT pads to a multiple of 64).
    for (const long rows : {50257L, 50304L, 50257L + 50257L / 8})
        EXPECT_TRUE(std::holds_alternative<Tokenizer>(loadTokenizer(gpt2, "gpt2", rows))) << rows;
    EXPECT_FALSE(std::holds_alternative<Tokenizer>(loadTokenizer(gpt2, "gpt2", 2 * 50257L)));
    // The built-in models fit their own configurations.
    const auto models = std::filesystem::path(ATTNLAB_FIXTURE_DIR) / "../../../resources/models";
    for (const auto& [name, rows] : {std::pair{"induction", 26L}, std::pair{"tang", 2870L}}) {
        const auto loaded = loadTokenizer(models / name, "gpt2", rows);
        EXPECT_TRUE(std::holds_alternative<Tokenizer>(loaded)) << name << ": " << errorOf(loaded);
    }
}

TEST(TokenizerLoader, ATokenIdBeyondTheModelsVocabularyIsRefused)
{
    const auto gpt2 = tokenizerFixtureDir() / "gpt2";
    const auto loaded = loadTokenizer(gpt2, "gpt2", 50000);
    ASSERT_TRUE(std::holds_alternative<attn::Status>(loaded));
    const attn::Status& s = std::get<attn::Status>(loaded);
    EXPECT_EQ(s.code, StatusCode::TokenizerMismatch);
    EXPECT_EQ(s.value, 50256);
    EXPECT_EQ(s.limit, 50000);
    EXPECT_EQ(describe(s), (gpt2 / "vocab.json").string() +
                               ": the token \"<|endoftext|>\" has the id 50256, but the model "
                               "(config.json's vocab_size) has ids 0 to 49999 only");
}

TEST(TokenizerLoader, OpensTokenizerJsonOfOtherModelTypes)
{
    const auto dir = std::filesystem::path(ATTNLAB_HF_TOKENIZER_DIR) / "qwen3";
    auto loaded = loadTokenizer(dir, "qwen3");
    ASSERT_TRUE(std::holds_alternative<Tokenizer>(loaded)) << errorOf(loaded);
    const Tokenizer& t = std::get<Tokenizer>(loaded);
    ASSERT_NE(t.hf(), nullptr);
    EXPECT_EQ(t.modelType(), "qwen3");
    const auto tokens = t.encodeTokens("Hello world<|im_end|>");
    ASSERT_EQ(tokens.size(), 3u);
    EXPECT_EQ(tokens[1].piece, "\xC4\xA0world");
    EXPECT_EQ(tokens[1].text, " world");
    EXPECT_EQ(tokens[1].label, "\u2423world");
    EXPECT_EQ(tokens[2].piece, "<|im_end|>");
    // The special tokens are no ordinary text for the head detectors; words are.
    const auto ordinary = ordinaryTokenIds(t, 152000);
    EXPECT_FALSE(std::binary_search(ordinary.begin(), ordinary.end(), tokens[2].id));
    EXPECT_TRUE(std::binary_search(ordinary.begin(), ordinary.end(), tokens[1].id));
}

TEST(TokenizerLoader, ShowsByteFallbackTokensAsOneCharacter)
{
    const auto dir = std::filesystem::path(ATTNLAB_HF_TOKENIZER_DIR) / "mistral";
    auto loaded = loadTokenizer(dir, "mistral");
    ASSERT_TRUE(std::holds_alternative<Tokenizer>(loaded)) << errorOf(loaded);
    const Tokenizer& t = std::get<Tokenizer>(loaded);
    // "鑫" is outside Mistral's vocabulary: three byte tokens, shown as the character and
    // two continuation marks.
    const auto ids = t.encode("鑫");
    // The model reads what Hugging Face's tokenizer(text) gives: BOS (<s>, id 1) first.
    ASSERT_FALSE(ids.empty());
    EXPECT_EQ(ids.front(), 1);
    EXPECT_EQ(t.hf()->encode("鑫", false).size() + 1, ids.size());
    const auto shown = t.display(ids);
    ASSERT_EQ(shown.size(), ids.size());
    ASSERT_GE(shown.size(), 3u);
    EXPECT_EQ(shown[shown.size() - 3].label, "鑫");
    EXPECT_EQ(shown[shown.size() - 2].label, std::string(kContinuationMark));
    EXPECT_TRUE(shown.back().split);
}

}  // namespace
}  // namespace attn::tok
