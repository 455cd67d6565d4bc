// SPDX-License-Identifier: GPL-3.0-or-later
// The bounds of a tokenizer.json: what its stages may make of a text, and what a file may ask
// for (a Replace's content, a post-processor's template), each refused with the stage's path,
// the size it would reach and the limit.
#include <gtest/gtest.h>
#include <string>
#include <vector>

#include "core/tokenize/hf_tokenizer.h"
#include "tokenize/tokenizer_test_support.h"

namespace attn::tok {
namespace {

using testing::tinyJson;

std::string limitRefusal(const nlohmann::json& json)
{
    const auto loaded = HfTokenizer::fromStrings(json.dump());
    const auto* err = std::get_if<attn::Status>(&loaded);
    return err ? describe(*err) : std::string("(loaded)");
}

HfTokenizer tinyFrom(const nlohmann::json& json)
{
    auto loaded = HfTokenizer::fromStrings(json.dump());
    if (auto* err = std::get_if<attn::Status>(&loaded)) {
        ADD_FAILURE() << describe(*err);
        std::abort();
    }
    return std::get<HfTokenizer>(std::move(loaded));
}

TEST(HfLimits, ATemplateOfAHundredThousandSpecialTokensIsRefusedWithTheLimit)
{
    nlohmann::json single = nlohmann::json::array();
    for (int i = 0; i < 100'000; ++i) single.push_back({{"SpecialToken", {{"id", "<s>"}}}});
    single.push_back({{"Sequence", {{"id", "A"}}}});
    nlohmann::json json = tinyJson("{}");
    json["post_processor"] = {{"type", "TemplateProcessing"},
                              {"single", single},
                              {"special_tokens", {{"<s>", {{"id", "<s>"}, {"ids", {1}}}}}}};
    EXPECT_EQ(limitRefusal(json),
              "tokenizer.json: post_processor.single: has 100001 items; a template may have at "
              "most 64");
    // Few items that add many ids between them are refused too.
    single = {{{"SpecialToken", {{"id", "<s>"}}}}, {{"Sequence", {{"id", "A"}}}}};
    json["post_processor"]["single"] = single;
    json["post_processor"]["special_tokens"]["<s>"]["ids"] = std::vector<int>(65, 1);
    EXPECT_EQ(limitRefusal(json),
              "tokenizer.json: post_processor: adds 65 special tokens to a text; a template may "
              "add at most 64");
}

TEST(HfLimits, AnAbsurdReplaceContentIsRefusedWhenTheFileIsRead)
{
    nlohmann::json json = tinyJson("{}");
    json["normalizer"] = {{"type", "Sequence"},
                          {"normalizers",
                           {{{"type", "Replace"},
                             {"pattern", {{"String", "a"}}},
                             {"content", std::string(1'000'000, 'a')}}}}};
    EXPECT_EQ(limitRefusal(json),
              "tokenizer.json: normalizer.normalizers[1].content: has 1000000 bytes; a Replace "
              "may put at most 256 bytes in place of a match");
    json["normalizer"] = {{"type", "Prepend"}, {"prepend", std::string(300, 'x')}};
    EXPECT_EQ(limitRefusal(json),
              "tokenizer.json: normalizer.prepend: has 300 bytes; a Prepend may put at most 256 "
              "bytes before a text");
    json["normalizer"] = nullptr;
    json["decoder"] = {
        {"type", "Replace"}, {"pattern", {{"String", "a"}}}, {"content", std::string(257, 'a')}};
    EXPECT_EQ(limitRefusal(json),
              "tokenizer.json: decoder.content: has 257 bytes; a Replace may put at most 256 "
              "bytes in place of a match");
}

// Three Replaces that each make "a" twenty times longer: 100 bytes would become 800,000.
nlohmann::json growingNormalizer()
{
    const nlohmann::json grow = {
        {"type", "Replace"}, {"pattern", {{"String", "a"}}}, {"content", std::string(20, 'a')}};
    nlohmann::json json = tinyJson("{}");
    json["normalizer"] = {{"type", "Sequence"}, {"normalizers", {grow, grow, grow}}};
    return json;
}

TEST(HfLimits, ANormalizerThatGrowsTheTextBeyondItsBoundIsRefusedNotRun)
{
    const HfTokenizer t = tinyFrom(growingNormalizer());
    EXPECT_TRUE(t.encode(std::string(100, 'a')).empty());
    EXPECT_TRUE(t.encode("a").empty());
    // A text the stages do not grow is encoded as ever.
    EXPECT_EQ(t.encode(std::string(100, 'b')).size(), 100u);
    // The refusal names the stage, the size it would reach and the limit.
    std::vector<int> ids;
    std::vector<Dropped> dropped;
    const attn::Status s = t.encode(std::string(100, 'a'), true, ids, dropped);
    EXPECT_EQ(s.code, StatusCode::TokenizerGrowth);
    EXPECT_EQ(s.stage, "normalizer.normalizers[1] (Replace)");
    EXPECT_EQ(s.value, 2000);
    EXPECT_EQ(s.limit, 16 * 100 + 256);
    EXPECT_EQ(describe(s),
              "tokenizer.json: normalizer.normalizers[1] (Replace) would make a text of 100 bytes "
              "2000 bytes long; a stage may make 16 times the text plus 256 bytes (1856)");
    EXPECT_TRUE(ids.empty());
    // The second stage is the one that outgrows a short text.
    EXPECT_EQ(t.encode("a", true, ids, dropped).stage, "normalizer.normalizers[2] (Replace)");
}

TEST(HfLimits, EachTextBetweenAddedTokensHasItsOwnBound)
{
    nlohmann::json json = growingNormalizer();
    json["added_tokens"] = {{{"id", 14}, {"content", "[X]"}, {"special", true}}};
    const HfTokenizer t = tinyFrom(json);
    // "a" alone would grow to 8,000 bytes; between added tokens each "b" stays one byte.
    std::string text;
    for (int i = 0; i < 50; ++i) text += "b[X]";
    EXPECT_EQ(t.encode(text).size(), 100u);
}

TEST(HfLimits, ADecoderWhoseReplacesCouldMultiplyATokenIsRefused)
{
    nlohmann::json json = tinyJson("{}");
    const nlohmann::json grow = {
        {"type", "Replace"}, {"pattern", {{"Regex", ""}}}, {"content", std::string(200, 'x')}};
    json["decoder"] = {{"type", "Sequence"}, {"decoders", {grow, grow}}};
    EXPECT_EQ(limitRefusal(json),
              "tokenizer.json: decoder: its Replace steps could make a token 160801 times longer; "
              "a decoder may make it at most 16 times longer");
    // Mistral's: "▁" becomes " ", a token never grows.
    json["decoder"] = {
        {"type", "Sequence"},
        {"decoders",
         {{{"type", "Replace"}, {"pattern", {{"String", "\u2581"}}}, {"content", " "}},
          {{"type", "ByteFallback"}},
          {{"type", "Fuse"}}}}};
    EXPECT_EQ(limitRefusal(json), "(loaded)");
}

}  // namespace
}  // namespace attn::tok
