// SPDX-License-Identifier: GPL-3.0-or-later
// A whole training run (core/train/gpt2_run.h): the same spec gives the same run bit for bit
// however often it is measured; what it writes is a GPT-2 folder that core/model and the
// tokenizer open, whose heads score as the trainer measured them; bad corpora are refused.
#include "core/train/gpt2_run.h"

#include <cstring>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "core/model/head_detect.h"
#include "core/tokenize/tokenizer_loader.h"

namespace attn::gpt2::test {
namespace {

constexpr double kScoreAgreement = 1e-4;  // trainer's float32 pass vs the float32 checkpoint

RunSpec smallSpec()
{
    RunSpec s;
    s.layers = 2;
    s.heads = 2;
    s.channels = 16;
    s.context = 16;
    s.attentionOnly = true;
    s.steps = 12;
    s.batch = 4;
    s.learningRate = 3e-3;
    s.warmup = 3;
    s.finalFraction = 0.1;
    s.probeCount = 8;
    s.detectCount = 3;
    return s;
}

std::vector<double> lossesOf(RunSpec spec)
{
    std::unique_ptr<ModelRun> run;
    EXPECT_TRUE(ModelRun::create(spec, run).ok());
    while (!run->finished()) EXPECT_TRUE(run->step().ok());
    return run->losses();
}

TEST(ModelRun, TheSameSpecGivesTheSameLossesHoweverOftenItIsMeasured)
{
    RunSpec a = smallSpec();
    a.evalEvery = 0;
    RunSpec b = smallSpec();
    b.evalEvery = 2;
    const std::vector<double> la = lossesOf(a), lb = lossesOf(b);
    ASSERT_EQ(la.size(), 12u);
    ASSERT_EQ(lb.size(), 12u);
    EXPECT_EQ(std::memcmp(la.data(), lb.data(), la.size() * sizeof(double)), 0);
    RunSpec c = smallSpec();
    c.seed = 2;
    EXPECT_NE(lossesOf(c), la);
}

TEST(ModelRun, TheScheduleWarmsUpThenDecaysToItsFloor)
{
    std::unique_ptr<ModelRun> run;
    ASSERT_TRUE(ModelRun::create(smallSpec(), run).ok());
    EXPECT_DOUBLE_EQ(run->rateAt(1), 1e-3);
    EXPECT_DOUBLE_EQ(run->rateAt(3), 3e-3);
    EXPECT_NEAR(run->rateAt(12), 3e-4, 1e-15);
    EXPECT_GT(run->rateAt(7), run->rateAt(8));
}

TEST(ModelRun, WritesAGpt2FolderWhoseHeadsScoreAsMeasured)
{
    std::unique_ptr<ModelRun> run;
    ASSERT_TRUE(ModelRun::create(smallSpec(), run).ok());
    while (!run->finished()) ASSERT_TRUE(run->step().ok());
    ASSERT_EQ(run->measures().size(), 1u);  // evalEvery 100: only after the last step
    const Measure& last = run->measures().back();
    EXPECT_EQ(last.step, 12);
    EXPECT_GE(last.copyAccuracy, 0.0);
    EXPECT_LE(last.copyAccuracy, 1.0);

    const auto dir = std::filesystem::temp_directory_path() / "attnlab-run-test";
    std::filesystem::remove_all(dir);
    ASSERT_TRUE(run->write(dir.string(), "attnlab train-model --test", 1.5).ok());
    model::Model model;
    const Status loaded = model::Model::load(dir.string(), model);
    ASSERT_TRUE(loaded.ok()) << describe(loaded);
    auto tokenizer = tok::loadTokenizer(dir, "gpt2");
    ASSERT_TRUE(std::holds_alternative<tok::Tokenizer>(tokenizer));
    EXPECT_EQ(std::get<tok::Tokenizer>(tokenizer).encode("cab"), (std::vector<int>{2, 0, 1}));

    HeadScoreTable fromFile;
    ASSERT_TRUE(model::scoreSequences(model, 8, run->detectSequences(), fromFile).ok());
    ASSERT_EQ(fromFile.size(), last.heads.size());
    for (std::size_t l = 0; l < fromFile.size(); ++l)
        for (std::size_t h = 0; h < fromFile[l].size(); ++h)
            for (HeadKind k : kHeadKinds)
                EXPECT_NEAR(scoreOf(fromFile[l][h], k), scoreOf(last.heads[l][h], k),
                            kScoreAgreement);

    std::ifstream in(dir / "training.json");
    const nlohmann::json j = nlohmann::json::parse(in);
    EXPECT_EQ(j["command"], "attnlab train-model --test");
    EXPECT_EQ(j["seed"], 1);
    EXPECT_EQ(j["training"]["precision"], "float32") << "a run trains in float by default";
    const std::vector<double> recorded = j["loss"].get<std::vector<double>>();
    ASSERT_EQ(recorded.size(), run->losses().size());
    EXPECT_EQ(std::memcmp(recorded.data(), run->losses().data(), recorded.size() * sizeof(double)),
              0)
        << "the record must read back bit for bit";
    EXPECT_EQ(j["measures"][0]["layers"].size(), 2u);
    std::filesystem::remove_all(dir);
}

TEST(ModelRun, ACorpusTrainsOnItsCharactersAndABadOneIsRefused)
{
    RunSpec s = smallSpec();
    s.data = DataKind::Corpus;
    s.corpusName = "poems.txt";
    s.corpus = "白日依山尽，黄河入海流。\n欲穷千里目，更上一层楼。\n";
    std::unique_ptr<ModelRun> run;
    ASSERT_TRUE(ModelRun::create(s, run).ok());
    EXPECT_GE(run->vocabulary().characters, 20);
    ASSERT_TRUE(run->step().ok());
    EXPECT_LT(run->copyAccuracy(), 0.0) << "copy accuracy is the induction task's measure";

    s.corpus = "白日依山尽";  // five characters, a window needs 17
    Status st = ModelRun::create(s, run);
    EXPECT_EQ(st.code, StatusCode::TooLong);
    EXPECT_EQ(st.limit, 17);
    s.corpus = std::string(40, 'a') + "\xFF";
    st = ModelRun::create(s, run);
    EXPECT_EQ(st.code, StatusCode::TokenizerSyntax);
    EXPECT_NE(describe(st).find("poems.txt"), std::string::npos) << describe(st);
}

}  // namespace
}  // namespace attn::gpt2::test
