// SPDX-License-Identifier: GPL-3.0-or-later
// A T5 folder with only tokenizer.json (a Unigram model with SentencePiece's charsmap, as
// transformers' T5Converter writes it: tests/reference/make_t5_tokenizer_json.py) gives the ids
// that spiece.model gives through Google's libsentencepiece (cases.json's "t5", from
// python3-sentencepiece), the extra ids included; what would change the ids and is not
// SentencePiece's is refused by name.
#include "core/tokenize/unigram_spm.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "core/tokenize/seq2seq_tokenizer.h"
#include "tokenizer_test_support.h"

namespace attn::tok {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using testing::freshTempDir;
using testing::readJsonFixture;
using testing::tokenizerFixtureDir;
using testing::writeFile;

fs::path jsonFolder()
{
    return tokenizerFixtureDir() / "seq2seq" / "t5_json";
}

TEST(UnigramTokenizerJson, AT5TokenizerJsonAloneGivesSpieceModelsIds)
{
    auto fromJson = loadSeq2SeqTokenizers(jsonFolder(), "t5");
    ASSERT_TRUE(std::holds_alternative<Seq2SeqTokenizers>(fromJson))
        << describe(std::get<Status>(fromJson));
    auto fromSpm = loadSeq2SeqTokenizers(tokenizerFixtureDir() / "seq2seq" / "t5", "t5");
    ASSERT_TRUE(std::holds_alternative<Seq2SeqTokenizers>(fromSpm));
    const Tokenizer& t = std::get<Seq2SeqTokenizers>(fromJson).source;
    const Tokenizer& spm = std::get<Seq2SeqTokenizers>(fromSpm).source;
    const json cases = readJsonFixture("seq2seq/cases.json");
    ASSERT_GE(cases["cases"].size(), 15u);
    for (const json& c : cases["cases"]) {
        const std::string text = c["text"].get<std::string>();
        EXPECT_EQ(t.encode(text), c["t5"].get<std::vector<int>>()) << text;
    }
    EXPECT_EQ(t.vocabSize(), spm.vocabSize());
    for (const int id : {0, 1, 2, 3, 100, 799, 800, 899})
        EXPECT_EQ(t.token(id).piece, spm.token(id).piece) << id;
    EXPECT_EQ(t.token(899).piece, "<extra_id_0>");
}

TEST(UnigramTokenizerJson, WhatIsNotSentencePiecesIsRefusedByName)
{
    std::string good;
    ASSERT_FALSE(readWholeFile(jsonFolder() / "tokenizer.json", good).has_value());
    const json base = json::parse(good);
    const auto refused = [](const json& j, const std::string& says) {
        auto r = spmFromTokenizerJson(j.dump(), "tokenizer.json");
        ASSERT_TRUE(std::holds_alternative<Status>(r)) << says;
        const std::string text = describe(std::get<Status>(r));
        EXPECT_NE(text.find(says), std::string::npos) << text;
        EXPECT_NE(text.find("tokenizer.json"), std::string::npos) << text;
    };
    json j = base;
    j["model"]["type"] = "BPE";
    refused(j, "model.type: \"BPE\" is not a Unigram model");
    j = base;
    j["model"]["vocab"] = json::object();
    refused(j, "model.vocab");
    j = base;
    j["model"]["vocab"][5] = json::array({"x"});
    refused(j, "model.vocab[6]");
    j = base;
    j["model"]["unk_id"] = 100000;
    refused(j, "model.unk_id");
    j = base;
    j["normalizer"]["normalizers"][0]["precompiled_charsmap"] = "not base64!";
    refused(j, "precompiled_charsmap");
    j = base;
    j["normalizer"] = json{{"type", "NFKC"}};
    refused(j, "normalizer.type: \"NFKC\"");
    j = base;
    j["pre_tokenizer"] = json{{"type", "ByteLevel"}};
    refused(j, "pre_tokenizer.type: \"ByteLevel\"");
    j = base;
    j["pre_tokenizer"]["prepend_scheme"] = "never";
    refused(j, "prefix space");
    refused(json::array({1, 2}), "model: missing");
    auto r = spmFromTokenizerJson("{\"model\": ", "tokenizer.json");
    ASSERT_TRUE(std::holds_alternative<Status>(r));
    EXPECT_NE(describe(std::get<Status>(r)).find("not valid JSON"), std::string::npos);
}

TEST(UnigramTokenizerJson, AFolderWithNeitherFileNamesBoth)
{
    const fs::path dir = freshTempDir("t5_neither");
    auto t = loadSeq2SeqTokenizers(dir, "t5");
    ASSERT_TRUE(std::holds_alternative<Status>(t));
    EXPECT_NE(describe(std::get<Status>(t)).find("spiece.model or tokenizer.json"),
              std::string::npos);
    writeFile(dir / "tokenizer.json", "{\"model\": {\"type\": \"WordPiece\"}}");
    t = loadSeq2SeqTokenizers(dir, "t5");
    ASSERT_TRUE(std::holds_alternative<Status>(t));
    EXPECT_NE(describe(std::get<Status>(t)).find((dir / "tokenizer.json").string()),
              std::string::npos);
    fs::remove_all(dir);
}

}  // namespace
}  // namespace attn::tok
