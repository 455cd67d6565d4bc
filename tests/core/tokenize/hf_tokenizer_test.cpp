// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/tokenize/hf_tokenizer.h"

#include <gtest/gtest.h>
#include <map>
#include <string>
#include <vector>

#include "tokenize/tokenizer_test_support.h"

namespace attn::tok {
namespace {

using testing::readJsonFixture;
using testing::tinyJson;

std::filesystem::path hfDir(const std::string& name)
{
    return std::filesystem::path(ATTNLAB_HF_TOKENIZER_DIR) / name;
}

// The real tokenizers are large (Llama 3: 128,000 tokens and 280,000 merges): each is read once.
const HfTokenizer& real(const std::string& name)
{
    static std::map<std::string, HfTokenizer> cache;
    if (const auto it = cache.find(name); it != cache.end()) return it->second;
    auto loaded = HfTokenizer::fromFiles(hfDir(name) / "tokenizer.json",
                                         hfDir(name) / "tokenizer_config.json");
    if (auto* err = std::get_if<attn::Status>(&loaded)) {
        ADD_FAILURE() << describe(*err);
        std::abort();
    }
    return cache.emplace(name, std::get<HfTokenizer>(std::move(loaded))).first->second;
}

// Every committed text, with and without the post-processor's special tokens, must give the ids
// of Hugging Face's implementation exactly.
void expectFixtureIds(const std::string& name)
{
    const auto fixture = readJsonFixture("hf/" + name + "_cases.json");
    const auto& cases = fixture.at("cases");
    ASSERT_GE(cases.size(), 300u);
    std::size_t equal = 0;
    for (const auto& c : cases) {
        const std::string text = c.at("text").get<std::string>();
        const auto ids = real(name).encode(text, false);
        const auto special = real(name).encode(text, true);
        EXPECT_EQ(ids, c.at("ids").get<std::vector<int>>()) << name << " text: \"" << text << "\"";
        EXPECT_EQ(special, c.at("ids_special").get<std::vector<int>>())
            << name << " (with special tokens) text: \"" << text << "\"";
        if (ids == c.at("ids").get<std::vector<int>>() &&
            special == c.at("ids_special").get<std::vector<int>>())
            ++equal;
    }
    EXPECT_EQ(equal, cases.size());
}

TEST(HfTokenizer, Qwen3MatchesHuggingFaceOnEveryFixtureText)
{
    expectFixtureIds("qwen3");
}

TEST(HfTokenizer, Llama3MatchesHuggingFaceOnEveryFixtureText)
{
    expectFixtureIds("llama3");
}

TEST(HfTokenizer, MistralMatchesHuggingFaceOnEveryFixtureText)
{
    expectFixtureIds("mistral");
}

TEST(HfTokenizer, ByteLevelDecodeGivesTheTextBack)
{
    // Llama 3 has no normalizer: its byte-level tokens decode to the text byte for byte.
    for (const std::string text :
         {"Hello, world!", "那只动物没过街，因为它太累了",
          "👨‍👩‍👧‍👦 family\n\n  x", "<|begin_of_text|>Hi"}) {
        EXPECT_EQ(real("llama3").decode(real("llama3").encode(text)), text);
    }
}

TEST(HfTokenizer, SentencePieceDecodeStripsThePrependedSpaceAndJoinsFallbackBytes)
{
    const HfTokenizer& t = real("mistral");
    // "鑫" is not in Mistral's vocabulary: three <0xNN> byte tokens stand for its UTF-8 bytes.
    const auto ids = t.encode("a 鑫 b");
    int byteTokens = 0;
    for (const int id : ids) byteTokens += t.piece(id).starts_with("<0x") ? 1 : 0;
    EXPECT_EQ(byteTokens, 3);
    EXPECT_EQ(t.decode(ids), "a 鑫 b");
    // For display each byte token is its own byte, part of a character.
    std::string joined;
    for (const int id : ids) joined += t.tokenBytes(id);
    EXPECT_EQ(joined, " a 鑫 b");
}

// ---- small tokenizers written here ------------------------------------------------------------

HfTokenizer tiny(const std::string& pipelineJson)
{
    auto loaded = HfTokenizer::fromStrings(tinyJson(pipelineJson).dump());
    if (auto* err = std::get_if<attn::Status>(&loaded)) {
        ADD_FAILURE() << describe(*err);
        std::abort();
    }
    return std::get<HfTokenizer>(std::move(loaded));
}

std::vector<std::string> pieces(const HfTokenizer& t, const std::string& text)
{
    std::vector<std::string> out;
    for (const int id : t.encode(text)) out.push_back(t.piece(id));
    return out;
}

TEST(HfTokenizer, SplitBehavioursCutTheTextAsHuggingFaceDocumentsThem)
{
    // The example of Hugging Face's SplitDelimiterBehavior: "the-final--countdown" split on "-".
    const std::map<std::string, std::vector<std::string>> want = {
        {"Removed", {"the", "final", "countdown"}},
        {"Isolated", {"the", "-", "final", "-", "-", "countdown"}},
        {"MergedWithPrevious", {"the-", "final-", "-", "countdown"}},
        {"MergedWithNext", {"the", "-final", "-", "-countdown"}},
        {"Contiguous", {"the", "-", "final", "--", "countdown"}},
    };
    for (const auto& [behavior, expected] : want) {
        std::string error;
        const auto p = hf::readPreTokenizer(nlohmann::json{{"type", "Split"},
                                                           {"pattern", {{"Regex", "-"}}},
                                                           {"behavior", behavior},
                                                           {"invert", false}},
                                            "pre_tokenizer", error);
        ASSERT_TRUE(p) << error;
        EXPECT_EQ(p->apply("the-final--countdown", true), expected) << behavior;
    }
}

TEST(HfTokenizer, SplitWithInvertKeepsTheMatchesAsTheWords)
{
    std::string error;
    const auto p = hf::readPreTokenizer(nlohmann::json{{"type", "Split"},
                                                       {"pattern", {{"Regex", "\\p{L}+"}}},
                                                       {"behavior", "Removed"},
                                                       {"invert", true}},
                                        "pre_tokenizer", error);
    ASSERT_TRUE(p) << error;
    EXPECT_EQ(p->apply("héllo, wörld 42 ok", true),
              (std::vector<std::string>{"héllo", "wörld", "ok"}));
}

TEST(HfTokenizer, OnigurumaCaseInsensitiveContractionsMatchAnyCase)
{
    // Llama 3's contraction group: "'VE" and "'Ll" are contractions, unlike in GPT-2's pattern.
    std::string error;
    const auto p = hf::readPreTokenizer(
        nlohmann::json{
            {"type", "Split"},
            {"pattern", {{"Regex", "(?i:'s|'t|'re|'ve|'m|'ll|'d)|\\p{L}+|\\s+(?!\\S)|\\s+"}}},
            {"behavior", "Isolated"},
            {"invert", false}},
        "pre_tokenizer", error);
    ASSERT_TRUE(p) << error;
    EXPECT_EQ(p->apply("we'VE you'Ll   go", true),
              (std::vector<std::string>{"we", "'VE", " ", "you", "'Ll", "  ", " ", "go"}));
}

TEST(HfTokenizer, BpeMergesLowestRankFirst)
{
    const HfTokenizer t = tiny("{}");
    EXPECT_EQ(pieces(t, "abc"), (std::vector<std::string>{"abc"}));
    EXPECT_EQ(pieces(t, "abcab"), (std::vector<std::string>{"abc", "ab"}));
    EXPECT_EQ(pieces(t, "cba"), (std::vector<std::string>{"c", "b", "a"}));
}

TEST(HfTokenizer, UnknownCharactersBecomeUnkFusedOrByteTokens)
{
    const std::string unk = R"({"model": {"unk_token": "<unk>", "fuse_unk": false}})";
    EXPECT_EQ(pieces(tiny(unk), "aqqb"), (std::vector<std::string>{"a", "<unk>", "<unk>", "b"}));
    const std::string fused = R"({"model": {"unk_token": "<unk>", "fuse_unk": true}})";
    EXPECT_EQ(pieces(tiny(fused), "aqqb"), (std::vector<std::string>{"a", "<unk>", "b"}));
    // "é" is C3 A9: both byte tokens exist; "q" has none, so it falls back to <unk>.
    const std::string bytes =
        R"({"model": {"unk_token": "<unk>", "fuse_unk": true, "byte_fallback": true}})";
    EXPECT_EQ(pieces(tiny(bytes), "aéq"),
              (std::vector<std::string>{"a", "<0xC3>", "<0xA9>", "<unk>"}));
    // Without an unknown token such a character is dropped before merging, so its neighbours
    // merge as if it had never been there (Hugging Face's BPE::merge_word skips it).
    EXPECT_EQ(pieces(tiny("{}"), "aqb"), (std::vector<std::string>{"ab"}));
}

TEST(HfTokenizer, PrependAndReplaceNormalizersMakeSentencePieceWords)
{
    const HfTokenizer t = tiny(R"({"normalizer": {"type": "Sequence", "normalizers": [
        {"type": "Prepend", "prepend": "▁"},
        {"type": "Replace", "pattern": {"String": " "}, "content": "▁"}]}})");
    EXPECT_EQ(pieces(t, "a a"), (std::vector<std::string>{"▁a", "▁a"}));
    EXPECT_TRUE(t.encode("").empty());  // an empty text gets no "▁"
}

TEST(HfTokenizer, MetaspacePrependsOnlyToTheFirstSectionWithSchemeFirst)
{
    const std::string added =
        R"("added_tokens": [{"id": 14, "content": "[X]", "special": true, "normalized": false}])";
    const HfTokenizer first = tiny(R"({"pre_tokenizer": {"type": "Metaspace", "replacement": "▁",
        "prepend_scheme": "first", "split": true}, )" +
                                   added + "}");
    EXPECT_EQ(pieces(first, "a[X]a a"), (std::vector<std::string>{"▁a", "[X]", "a", "▁a"}));
    const HfTokenizer always = tiny(R"({"pre_tokenizer": {"type": "Metaspace", "replacement": "▁",
        "prepend_scheme": "always", "split": true}, )" +
                                    added + "}");
    EXPECT_EQ(pieces(always, "a[X]a a"), (std::vector<std::string>{"▁a", "[X]", "▁a", "▁a"}));
}

TEST(HfTokenizer, AddedTokensHonourStripAndSingleWordFlags)
{
    const auto with = [](const std::string& flags) {
        return tiny(R"({"added_tokens": [{"id": 14, "content": "[X]", "special": true,
            "normalized": false, )" +
                    flags + "}]}");
    };
    const HfTokenizer plain = with(R"("lstrip": false, "rstrip": false)");
    EXPECT_EQ(pieces(plain, "a [X] b"), (std::vector<std::string>{"a", " ", "[X]", " ", "b"}));
    const HfTokenizer strip = with(R"("lstrip": true, "rstrip": true)");
    EXPECT_EQ(pieces(strip, "a  [X]  b"), (std::vector<std::string>{"a", "[X]", "b"}));
    const HfTokenizer single = with(R"("single_word": true)");
    // Touching a letter, "[X]" is not the token but text (its characters: unknown, dropped).
    EXPECT_EQ(pieces(single, "a[X]"), (std::vector<std::string>{"a"}));
    EXPECT_EQ(pieces(single, "a [X]"), (std::vector<std::string>{"a", " ", "[X]"}));
}

TEST(HfTokenizer, LongestAddedTokenWinsAtTheSamePosition)
{
    const HfTokenizer t = tiny(R"({"added_tokens": [
        {"id": 1, "content": "<s>", "special": true, "normalized": false},
        {"id": 16, "content": "<s>x", "special": true, "normalized": false}]})");
    EXPECT_EQ(t.encode("<s>x<s>"), (std::vector<int>{16, 1}));
}

TEST(HfTokenizer, TemplateProcessingAddsBosOnlyWhenAsked)
{
    const HfTokenizer t = tiny(R"({"post_processor": {"type": "TemplateProcessing",
        "single": [{"SpecialToken": {"id": "<s>", "type_id": 0}}, {"Sequence": {"id": "A", "type_id": 0}}],
        "special_tokens": {"<s>": {"id": "<s>", "ids": [1], "tokens": ["<s>"]}}}})");
    EXPECT_EQ(t.encode("ab", false), (std::vector<int>{5}));
    EXPECT_EQ(t.encode("ab", true), (std::vector<int>{1, 5}));
}

TEST(HfTokenizer, SequencePostProcessorKeepsTheTemplatesTokens)
{
    // Meta's own Llama 3 file: ByteLevel (offsets only) then a template adding the BOS token.
    const HfTokenizer t = tiny(R"({"post_processor": {"type": "Sequence", "processors": [
        {"type": "ByteLevel", "add_prefix_space": true, "trim_offsets": false, "use_regex": true},
        {"type": "TemplateProcessing",
         "single": [{"SpecialToken": {"id": "<s>", "type_id": 0}}, {"Sequence": {"id": "A", "type_id": 0}}],
         "special_tokens": {"<s>": {"id": "<s>", "ids": [1], "tokens": ["<s>"]}}}]}})");
    EXPECT_EQ(t.encode("c", true), (std::vector<int>{1, 4}));
    EXPECT_EQ(t.encode("c", false), (std::vector<int>{4}));
}

TEST(HfTokenizer, LlamaConfigDecidesBosAndEos)
{
    const std::string json = tinyJson(R"({"added_tokens": [
        {"id": 1, "content": "<s>", "special": true, "normalized": false}]})")
                                 .dump();
    const std::string config =
        R"({"tokenizer_class": "LlamaTokenizer", "add_bos_token": false, "add_eos_token": true,
            "bos_token": "<s>", "eos_token": {"content": "x"}})";
    auto loaded = HfTokenizer::fromStrings(json, config);
    ASSERT_TRUE(std::holds_alternative<HfTokenizer>(loaded));
    EXPECT_EQ(std::get<HfTokenizer>(loaded).encode("ab", true), (std::vector<int>{5, 9}));
}

// ---- refusals -----------------------------------------------------------------------------------

std::string refusal(const std::string& json, const std::string& config = {})
{
    const auto loaded = HfTokenizer::fromStrings(json, config);
    const auto* err = std::get_if<attn::Status>(&loaded);
    return err ? describe(*err) : std::string("(loaded)");
}

TEST(HfTokenizer, MalformedFilesAreRefusedNamingTheField)
{
    const auto broken = [](const char* patch) {
        nlohmann::json j = tinyJson("{}");
        j.merge_patch(nlohmann::json::parse(patch));
        return j.dump();
    };
    const std::vector<std::pair<std::string, std::string>> cases = {
        {"not json {", "not valid JSON"},
        {"[1, 2]", "top level"},
        {broken(R"({"model": null})"), "model:"},
        {broken(R"({"model": {"type": "WordPiece"}})"), "model.type"},
        {broken(R"({"model": {"type": "Unigram", "vocab": [["a", -1.5]]}})"), "model.type"},
        {broken(R"({"model": {"vocab": {"a": -3}}})"), "model.vocab[\"a\"]"},
        {broken(R"({"model": {"vocab": {"a": 2, "b": 2}}})"), "model.vocab"},
        {broken(R"({"model": {"merges": ["a b", "a q"]}})"), "model.merges[2]"},
        {broken(R"({"model": {"merges": ["a b c"]}})"), "model.merges[1]"},
        {broken(R"({"model": {"merges": [[1, 2]]}})"), "model.merges[1]"},
        {broken(R"({"model": {"unk_token": "<nope>"}})"), "model.unk_token"},
        {broken(R"({"model": {"dropout": 0.1}})"), "model.dropout"},
        {broken(R"({"model": {"byte_fallback": "yes"}})"), "model.byte_fallback"},
        {broken(R"({"added_tokens": [{"id": 3, "content": "[X]"}, {"id": "x", "content": "y"}]})"),
         "added_tokens[2].id"},
        {broken(R"({"added_tokens": [{"id": 3, "content": ""}]})"), "added_tokens[1].content"},
        {broken(R"({"normalizer": {"type": "NFKC"}})"), "normalizer.type"},
        {broken(
             R"({"normalizer": {"type": "Replace", "content": "x", "pattern": {"Regex": "(("}}})"),
         "normalizer.pattern.Regex"},
        {broken(R"({"pre_tokenizer": {"type": "Sequence", "pretokenizers": [
            {"type": "ByteLevel"}, {"type": "Whitespace"}]}})"),
         "pre_tokenizer.pretokenizers[2].type"},
        {broken(R"({"pre_tokenizer": {"type": "Split", "pattern": {"Regex": "a"},
            "behavior": "Sideways"}})"),
         "pre_tokenizer.behavior"},
        {broken(R"({"pre_tokenizer": {"type": "Split", "pattern": 7, "behavior": "Isolated"}})"),
         "pre_tokenizer.pattern"},
        {broken(R"({"decoder": {"type": "Strip", "content": " ", "start": -1, "stop": 0}})"),
         "decoder.start"},
        {broken(R"({"post_processor": {"type": "TemplateProcessing", "single": [
            {"SpecialToken": {"id": "<s>"}}, {"Sequence": {"id": "A"}}], "special_tokens": {}}})"),
         "post_processor.special_tokens"},
        {broken(R"({"post_processor": {"type": "TemplateProcessing", "single": [
            {"SpecialToken": {"id": "<s>"}}], "special_tokens": {"<s>": {"ids": [1]}}}})"),
         "post_processor.single"},
    };
    for (const auto& [json, field] : cases) {
        const std::string message = refusal(json);
        EXPECT_NE(message.find(field), std::string::npos)
            << "expected the message to name " << field << ", got: " << message;
    }
    // A token twice in the vocabulary (the file's text: a parsed tree would keep one of them).
    std::string twice = tinyJson("{}").dump();
    const std::size_t vocab = twice.find(R"("vocab":{)");
    ASSERT_NE(vocab, std::string::npos);
    twice.insert(vocab + 9, R"("a":7,)");
    EXPECT_NE(refusal(twice).find(R"(model.vocab["a"]: appears twice)"), std::string::npos)
        << refusal(twice);
    EXPECT_NE(refusal(tinyJson("{}").dump(),
                      R"({"tokenizer_class": "LlamaTokenizer", "bos_token": "<nope>"})")
                  .find("bos_token"),
              std::string::npos);
}

TEST(HfTokenizer, MissingFileIsRefusedNamingIt)
{
    const auto loaded = HfTokenizer::fromFiles(hfDir("none") / "tokenizer.json");
    ASSERT_TRUE(std::holds_alternative<attn::Status>(loaded));
    EXPECT_NE(describe(std::get<attn::Status>(loaded)).find("tokenizer.json"), std::string::npos);
}

}  // namespace
}  // namespace attn::tok
