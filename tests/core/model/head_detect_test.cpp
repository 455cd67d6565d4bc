// SPDX-License-Identifier: GPL-3.0-or-later
// The head detectors: scores of the tiny GPT-2 and BERT checkpoints against PyTorch
// (tests/reference/make_head_score_reference.py), the score definitions against hand-made
// weights, and the sequences they are measured on.
#include "core/model/head_detect.h"

#include <gtest/gtest.h>

#include "model_files.h"

namespace attn::model {
namespace {

using test::json;

constexpr double kScoreTolerance = 1e-5;  // float32 attention of two layers, means of <= 16 rows

class HeadDetectFixture : public ::testing::TestWithParam<const char*> {};

TEST_P(HeadDetectFixture, ScoresMatchPyTorch)
{
    Model model;
    ASSERT_TRUE(Model::load(test::modelFixture(GetParam()).string(), model).ok());
    const json want = json::parse(test::readBytes(test::modelFixture(GetParam()) / "heads.json"));
    const auto sequences = want["sequences"].get<std::vector<std::vector<int>>>();
    HeadScoreTable got;
    const attn::Status s = scoreSequences(model, want["m"].get<long>(), sequences, got);
    ASSERT_TRUE(s.ok()) << describe(s);
    ASSERT_EQ(got.size(), want["layers"].size());
    double worst = 0.0;
    for (std::size_t l = 0; l < got.size(); ++l) {
        const json& heads = want["layers"][l]["heads"];
        ASSERT_EQ(got[l].size(), heads.size());
        for (std::size_t h = 0; h < got[l].size(); ++h) {
            for (HeadKind k : kHeadKinds) {
                const double diff =
                    std::abs(scoreOf(got[l][h], k) - heads[h][headKindKey(k)].get<double>());
                worst = std::max(worst, diff);
                EXPECT_LT(diff, kScoreTolerance)
                    << "layer " << l << " head " << h << " " << headKindKey(k);
            }
        }
    }
    std::printf("[ figures  ] %s: largest score difference from PyTorch %.3g\n", GetParam(), worst);
}

INSTANTIATE_TEST_SUITE_P(Models, HeadDetectFixture, ::testing::Values("gpt2_tiny", "bert_tiny"));

TEST(HeadScores, HandMadeHeadsScoreOneWhereTheyLook)
{
    const long m = 5, T = 2 * m;
    // A previous-token head (row 0 on itself), an induction head (rows >= m on i - m + 1, the
    // rest on token 0) and a sink (everything on token 0).
    std::vector<double> previous(T * T, 0.0), induction(T * T, 0.0), sink(T * T, 0.0);
    for (long i = 0; i < T; ++i) {
        previous[i * T + std::max(0L, i - 1)] = 1.0;
        induction[i * T + (i >= m ? i - m + 1 : 0)] = 1.0;
        sink[i * T] = 1.0;
    }
    const HeadScores p = scoreRepeated(previous.data(), m);
    EXPECT_DOUBLE_EQ(p.previousToken, 1.0);
    EXPECT_DOUBLE_EQ(p.induction, 0.0);
    EXPECT_DOUBLE_EQ(p.firstToken, 1.0 / (T - 1));  // row 1 looks at token 0
    const HeadScores ind = scoreRepeated(induction.data(), m);
    EXPECT_DOUBLE_EQ(ind.induction, 1.0);
    EXPECT_DOUBLE_EQ(ind.duplicateToken, 0.0);
    EXPECT_DOUBLE_EQ(ind.firstToken, (m - 1.0) / (T - 1));  // rows 1..m-1
    const HeadScores s = scoreRepeated(sink.data(), m);
    EXPECT_DOUBLE_EQ(s.firstToken, 1.0);
    EXPECT_DOUBLE_EQ(s.previousToken, 1.0 / (T - 1));  // row 1's previous token is token 0
    int layer = -1, head = -1;
    bestHead({{p, ind}, {s}}, HeadKind::Induction, layer, head);
    EXPECT_EQ(layer, 0);
    EXPECT_EQ(head, 1);
}

TEST(HeadDetect, SequencesRepeatTheirFirstHalfAndDrawOnlyCandidates)
{
    DetectSpec spec;
    spec.m = 7;
    spec.candidates = {3, 9, 40};
    for (long k = 0; k < 5; ++k) {
        const std::vector<int> ids = repeatedSequence(spec, 64, k);
        ASSERT_EQ(ids.size(), 14u);
        for (long i = 0; i < 7; ++i) {
            EXPECT_EQ(ids[i], ids[i + 7]);
            EXPECT_TRUE(ids[i] == 3 || ids[i] == 9 || ids[i] == 40) << ids[i];
        }
        EXPECT_EQ(ids, repeatedSequence(spec, 64, k)) << "the same spec draws the same ids";
    }
    EXPECT_NE(repeatedSequence(spec, 64, 0), repeatedSequence(spec, 64, 1));
}

TEST(HeadDetect, TooLongOrEmptyIsRefusedWithTheLimit)
{
    Model model;
    ASSERT_TRUE(Model::load(test::modelFixture("gpt2_tiny").string(), model).ok());
    DetectSpec spec;
    spec.m = 17;  // 34 tokens, the model has 32 positions
    HeadScoreTable out;
    attn::Status s = detectHeads(model, spec, out);
    EXPECT_EQ(s.code, StatusCode::TooLong);
    EXPECT_EQ(s.value, 34);
    EXPECT_EQ(s.limit, 32);
    spec.m = 4;
    spec.count = 0;
    EXPECT_EQ(detectHeads(model, spec, out).code, StatusCode::EmptyInput);
    EXPECT_TRUE(out.empty());
}

}  // namespace
}  // namespace attn::model
