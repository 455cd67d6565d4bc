// SPDX-License-Identifier: GPL-3.0-or-later
// The phase change (core/train/phase_change.h): found where the loss and the best induction
// score move together, in the record of the built-in induction model and in made-up measures;
// not found where only one of them moves. And the live maps a window shows while training.
#include "core/train/phase_change.h"

#include <cmath>
#include <fstream>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace attn::gpt2::test {
namespace {

constexpr double kRowSum = 1e-5;  // a float32 softmax row

// One head per layer of two; `induction` is layer 2's score, layer 1 stays at 0.02.
Measure measureAt(long step, double induction)
{
    Measure m;
    m.step = step;
    m.heads.assign(2, std::vector<HeadScores>(1));
    m.heads[0][0].induction = 0.02;
    m.heads[1][0].induction = induction;
    return m;
}

// `perStep` losses for steps 1..steps, as a function of the step.
template <typename F>
std::vector<double> lossesFor(long steps, F loss)
{
    std::vector<double> out;
    for (long k = 1; k <= steps; ++k) out.push_back(loss(k));
    return out;
}

TEST(PhaseChange, IsFoundInTheBuiltInInductionModelsRecordAtStep1100)
{
    std::ifstream in(std::string(ATTNLAB_FIXTURE_DIR) +
                     "/../../../resources/models/induction/training.json");
    ASSERT_TRUE(in.good());
    const nlohmann::json j = nlohmann::json::parse(in);
    const std::vector<double> losses = j["loss"].get<std::vector<double>>();
    std::vector<Measure> measures;
    for (const auto& m : j["measures"]) {
        Measure x;
        x.step = m["step"].get<long>();
        for (const auto& layer : m["layers"]) {
            x.heads.emplace_back();
            for (const auto& h : layer["heads"]) {
                HeadScores s;
                s.induction = h["induction"].get<double>();
                s.previousToken = h["previous_token"].get<double>();
                x.heads.back().push_back(s);
            }
        }
        measures.push_back(x);
    }
    const PhaseChange p = findPhaseChange(measures, losses);
    ASSERT_TRUE(p.found());
    EXPECT_EQ(p.step, 1100);
    EXPECT_EQ(p.fromStep, 1000);
    EXPECT_GT(p.lossBefore - p.lossAfter, 0.2);
    EXPECT_GT(p.inductionAfter - p.inductionBefore, 0.1);
    EXPECT_EQ(p.layer, 1);  // layer 2 (from 0), as `attnlab heads` finds it
}

TEST(PhaseChange, IsFoundAtTheMeasureWhereBothMoveTogether)
{
    // Loss 3.26 until step 500, 2.2 from step 550; induction 0.03 until 500, 0.4 from 550.
    const auto losses = lossesFor(1000, [](long k) { return k <= 500 ? 3.26 : 2.2; });
    std::vector<Measure> measures;
    for (long s = 50; s <= 1000; s += 50) measures.push_back(measureAt(s, s <= 500 ? 0.03 : 0.4));
    const PhaseChange p = findPhaseChange(measures, losses);
    ASSERT_TRUE(p.found());
    EXPECT_EQ(p.step, 550);
    EXPECT_EQ(p.layer, 1);
    EXPECT_EQ(p.head, 0);
    EXPECT_NEAR(p.lossBefore, 3.26, 1e-12);
    EXPECT_NEAR(p.lossAfter, 2.2, 1e-12);
}

TEST(PhaseChange, IsNotFoundWhenOnlyOneOfThemMoves)
{
    std::vector<Measure> rising, flat;
    for (long s = 100; s <= 2000; s += 100) {
        rising.push_back(measureAt(s, s <= 1000 ? 0.03 : 0.4));
        flat.push_back(measureAt(s, 0.03));
    }
    // One layer: the loss falls steadily (to 2.65 as measured), no induction head.
    const auto falling = lossesFor(2000, [](long k) { return 3.26 - 0.6 * k / 2000.0; });
    const auto dropping = lossesFor(2000, [](long k) { return k <= 1000 ? 3.26 : 2.2; });
    const auto constant = lossesFor(2000, [](long) { return 3.26; });
    EXPECT_FALSE(findPhaseChange(rising, constant).found());  // the score alone
    EXPECT_FALSE(findPhaseChange(flat, dropping).found());    // the loss alone
    EXPECT_FALSE(findPhaseChange(flat, falling).found());
    EXPECT_FALSE(findPhaseChange({}, constant).found());
}

TEST(PhaseChange, MeanLossUpToAveragesTheLastStepsOfTheWindow)
{
    const std::vector<double> losses = {4, 3, 2, 1};
    EXPECT_DOUBLE_EQ(meanLossUpTo(losses, 4, 2), 1.5);
    EXPECT_DOUBLE_EQ(meanLossUpTo(losses, 2, 10), 3.5);
    EXPECT_DOUBLE_EQ(meanLossUpTo(losses, 9, 1), 1.0);  // clipped to the steps taken
    EXPECT_DOUBLE_EQ(meanLossUpTo(losses, 0, 5), 0.0);
}

TEST(ModelRunLiveMaps, AreCausalRowsOfWeightsAndLeaveTheRunAsItWas)
{
    RunSpec spec;
    spec.layers = 2;
    spec.heads = 2;
    spec.channels = 16;
    spec.context = 16;
    spec.attentionOnly = true;
    spec.steps = 6;
    spec.batch = 4;
    spec.probeCount = 8;
    spec.detectCount = 2;
    std::unique_ptr<ModelRun> watched, plain;
    ASSERT_TRUE(ModelRun::create(spec, watched).ok());
    ASSERT_TRUE(ModelRun::create(spec, plain).ok());
    while (!watched->finished()) {
        ASSERT_TRUE(watched->step().ok());
        ASSERT_TRUE(plain->step().ok());
        const HeadMaps maps = watched->liveMaps();
        ASSERT_EQ(maps.layers, 2);
        ASSERT_EQ(maps.heads, 2);
        ASSERT_EQ(maps.T, 16);
        for (long l = 0; l < 2; ++l)
            for (long h = 0; h < 2; ++h)
                for (long i = 0; i < maps.T; ++i) {
                    double sum = 0.0;
                    for (long j = 0; j < maps.T; ++j) {
                        const float w = maps.at(l, h)[i * maps.T + j];
                        if (j > i) {
                            EXPECT_EQ(w, 0.0f);
                        }
                        sum += w;
                    }
                    EXPECT_NEAR(sum, 1.0, kRowSum);
                }
    }
    EXPECT_EQ(watched->losses(), plain->losses());
    EXPECT_EQ(watched->trainer().parameters().values, plain->trainer().parameters().values);
}

}  // namespace
}  // namespace attn::gpt2::test
