// SPDX-License-Identifier: GPL-3.0-or-later
// Generation: greedy writes what the argmax of a whole run gives at each length; it stops after
// the asked number of tokens, at an end-of-text id (kept) or at the model's last position; a
// seed gives the same text; the steps record the model's own probabilities; bad words are never
// written; a checkpoint's generation settings are read as Hugging Face reads them.
#include "core/model/generate.h"

#include <algorithm>
#include <gtest/gtest.h>

#include "core/model/generation_config.h"
#include "same_run.h"

namespace attn::model {
namespace {

// The naive reference: the whole text run again for every token, the argmax taken.
std::vector<int> greedyByWholeRuns(const Model& model, std::vector<int> ids, int count)
{
    std::vector<int> out;
    for (int i = 0; i < count; ++i) {
        ForwardResult r;
        EXPECT_TRUE(forward(model, ids, {}, r).ok());
        Eigen::Index best = 0;
        r.logits.row(0).maxCoeff(&best);
        out.push_back(static_cast<int>(best));
        ids.push_back(static_cast<int>(best));
    }
    return out;
}

TEST(Generate, GreedyWritesTheArgmaxOfAWholeRunAtEachLength)
{
    for (const test::fs::path& folder :
         {test::modelFixture("gpt2_tiny"), test::decoderFixture("mistral_window_f32"),
          test::decoderFixture("qwen3_qknorm_bf16")}) {
        SCOPED_TRACE(folder.string());
        const Model model = test::loadModel(folder);
        const std::vector<int> prompt = {5, 9, 2, 7};
        GenerateOptions o;
        o.maxNewTokens = 12;
        Generation g;
        ASSERT_TRUE(generate(model, prompt, o, g).ok());
        EXPECT_EQ(g.generated(), greedyByWholeRuns(model, prompt, 12));
        ASSERT_EQ(g.steps.size(), 12u);
        // A step's probability and top list are the model's own, at temperature 1.
        std::vector<int> ids = prompt;
        for (const GeneratedStep& step : g.steps) {
            ForwardResult r;
            ASSERT_TRUE(forward(model, ids, {}, r).ok());
            EXPECT_NEAR(step.probability, tokenProbability(r.logits.row(0).transpose(), step.id),
                        1e-5);
            EXPECT_EQ(step.top.front().id, step.id);
            ids.push_back(step.id);
        }
        EXPECT_EQ(g.decoding.ids(), ids);
    }
}

TEST(Generate, ItStopsAfterAnEndOfTextIdWhichItKeeps)
{
    const Model model = test::loadModel(test::modelFixture("gpt2_tiny"));
    const std::vector<int> prompt = {5, 9, 2, 7};
    const std::vector<int> free = greedyByWholeRuns(model, prompt, 8);
    GenerateOptions o;
    o.maxNewTokens = 8;
    o.eos = {free[3]};
    Generation g;
    ASSERT_TRUE(generate(model, prompt, o, g).ok());
    const auto first = std::find(free.begin(), free.end(), free[3]);
    EXPECT_EQ(g.generated(), std::vector<int>(free.begin(), first + 1));
    EXPECT_TRUE(g.endedAtEos);
}

TEST(Generate, TheModelsLastPositionEndsIt)
{
    const Model model = test::loadModel(test::modelFixture("gpt2_tiny"));
    std::vector<int> prompt(static_cast<std::size_t>(model.config().positions - 3), 4);
    GenerateOptions o;
    o.maxNewTokens = 10;
    Generation g;
    ASSERT_TRUE(generate(model, prompt, o, g).ok());
    EXPECT_EQ(g.steps.size(), 3u);
    EXPECT_EQ(g.decoding.length(), model.config().positions);
    EXPECT_TRUE(generationDone(g, o));
}

TEST(Generate, ASeedGivesTheSameTextAndBadWordsAreNeverWritten)
{
    const Model model = test::loadModel(test::decoderFixture("llama3_tied_bf16"));
    const std::vector<int> prompt = {1, 17, 40};
    GenerateOptions o;
    o.maxNewTokens = 24;
    o.sampling.temperature = 1.5;
    o.seed = 11;
    Generation a, b, other;
    ASSERT_TRUE(generate(model, prompt, o, a).ok());
    ASSERT_TRUE(generate(model, prompt, o, b).ok());
    EXPECT_EQ(a.generated(), b.generated());
    o.seed = 12;
    ASSERT_TRUE(generate(model, prompt, o, other).ok());
    EXPECT_NE(a.generated(), other.generated());
    // Every id written at least twice above is banned: none appears.
    std::vector<int> seen = a.generated();
    std::sort(seen.begin(), seen.end());
    o.seed = 11;
    for (const int id : seen) o.sampling.badWords.push_back({id});
    Generation banned;
    ASSERT_TRUE(generate(model, prompt, o, banned).ok());
    for (const int id : banned.generated())
        EXPECT_FALSE(std::binary_search(seen.begin(), seen.end(), id)) << id;
}

TEST(Generate, ABadRequestIsRefusedByName)
{
    GenerateOptions o;
    EXPECT_EQ(checkGenerate(o).field, "max_new_tokens");
    o.maxNewTokens = 1;
    o.sampling.temperature = -1;
    EXPECT_EQ(checkGenerate(o).field, "temperature");
    o.sampling.temperature = 1;
    o.sampling.topP = 0;
    EXPECT_EQ(checkGenerate(o).field, "top_p");
    o.sampling.topP = 1;
    EXPECT_TRUE(checkGenerate(o).ok());
    const Model bert = test::loadModel(test::modelFixture("bert_tiny"));
    Generation g;
    const std::vector<int> ids = {1, 2};
    EXPECT_EQ(generate(bert, ids, o, g).code, StatusCode::UnsupportedModel);
}

TEST(GenerationSettings, GenerationConfigOverridesConfigAndOnlyTheHonouredAreChecked)
{
    GenerationSettings s;
    ASSERT_TRUE(parseGenerationSettings(
                    R"({"eos_token_id": 2, "num_beams": 4, "vocab_size": 9, "do_sample": true})",
                    "config.json", s)
                    .ok());
    ASSERT_TRUE(parseGenerationSettings(
                    R"({"eos_token_id": [2, 7], "bad_words_ids": [[5], [3, 4]], "num_beams": 1})",
                    "generation_config.json", s)
                    .ok());
    EXPECT_EQ(s.eos, (std::vector<int>{2, 7}));
    EXPECT_EQ(s.badWords, (std::vector<std::vector<int>>{{5}, {3, 4}}));
    const std::vector<std::pair<std::string, std::string>> shown = {
        {"do_sample", "true"},
        {"num_beams", "1"},
        {"bad_words_ids", "[[5],[3,4]]"},
        {"eos_token_id", "[2,7]"}};
    EXPECT_EQ(s.shown, shown);

    GenerationSettings bad;
    attn::Status refused = parseGenerationSettings(R"({"bad_words_ids": [[1], 2]})", "g.json", bad);
    EXPECT_EQ(refused.code, StatusCode::ConfigField);
    EXPECT_EQ(refused.field, "bad_words_ids");
    EXPECT_EQ(refused.file, "g.json");
    refused = parseGenerationSettings(R"({"eos_token_id": -3})", "g.json", bad);
    EXPECT_EQ(refused.field, "eos_token_id");
    EXPECT_TRUE(bad.eos.empty());
}

TEST(GenerationSettings, AFolderIsReadConfigFirstThenGenerationConfig)
{
    test::TempDir dir;
    test::writeBytes(dir.path() / "config.json",
                     test::readBytes(test::modelFixture("gpt2_tiny") / "config.json"));
    GenerationSettings s;
    ASSERT_TRUE(readGenerationSettings(dir.path().string(), s).ok());
    EXPECT_EQ(s.eos, std::vector<int>{63});
    test::writeBytes(dir.path() / "generation_config.json", R"({"eos_token_id": 5})");
    ASSERT_TRUE(readGenerationSettings(dir.path().string(), s).ok());
    EXPECT_EQ(s.eos, std::vector<int>{5});
    test::writeBytes(dir.path() / "generation_config.json", "{");
    const attn::Status s2 = readGenerationSettings(dir.path().string(), s);
    EXPECT_EQ(s2.code, StatusCode::ConfigField);
    EXPECT_NE(s2.file.find("generation_config.json"), std::string::npos);
}

}  // namespace
}  // namespace attn::model
