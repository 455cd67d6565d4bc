// SPDX-License-Identifier: GPL-3.0-or-later
// The float32 training path (Precision::Float, core/train/gpt2_train.h) against the double one
// on the test cases of gpt2_cases.h: the first forward's loss and every parameter's gradient
// agree within float tolerances; float training is reproducible bit for bit across runs and
// thread counts; and it learns what the double path learns.
//
// Tolerances. Float's unit round-off is 6e-8; a loss or gradient entry here is the end of a few
// hundred roundings through two blocks, so errors of order 1e-6 relative are expected:
//   |loss_f - loss_d| <= kLossTolerance (absolute; the loss is about 2.4)
//   per tensor ||g_f - g_d|| / max(||g_d||, kFloatNormFloor) <= kGradientTolerance
// (the floor, as in gpt2_gradient_test.cpp, keeps a tensor whose gradient is exactly 0, the
// key bias's, from dividing round-off by round-off).

#include <cmath>
#include <cstdio>
#include <cstring>
#include <gtest/gtest.h>
#include <string>
#include <vector>

#include "train/gpt2_cases.h"

namespace attn::gpt2::test {
namespace {

constexpr double kLossTolerance = 1e-6;
constexpr double kGradientTolerance = 1e-5;
constexpr double kFloatNormFloor = 1e-3;

Trainer formulaTrainer(const Config& c, Precision precision, const AdamSettings& settings = {})
{
    Parameters params;
    EXPECT_TRUE(makeParameters(c, params).ok());
    fillFromFormula(params, 42);
    return Trainer(std::move(params), settings, precision);
}

TEST(Gpt2Float, FirstLossAndGradientsAgreeWithDoubleWithinFloatTolerance)
{
    for (bool attentionOnly : {false, true}) {
        SCOPED_TRACE(attentionOnly ? "attention-only" : "full");
        Trainer d = formulaTrainer(tinyConfig(attentionOnly), Precision::Double);
        Trainer f = formulaTrainer(tinyConfig(attentionOnly), Precision::Float);
        EXPECT_EQ(f.precision(), Precision::Float);
        const TinyBatch data;
        double lossD = 0.0;
        double lossF = 0.0;
        ASSERT_TRUE(d.forward(data.batch(), lossD).ok());
        ASSERT_TRUE(f.forward(data.batch(), lossF).ok());
        EXPECT_NEAR(lossF, lossD, kLossTolerance);
        EXPECT_NE(lossF, lossD) << "the float pass should not be the double one";
        d.backward();
        f.backward();
        double worst = 0.0;
        std::string worstName;
        for (const Tensor& t : d.parameters().tensors) {
            double diff2 = 0.0;
            double norm2 = 0.0;
            for (std::size_t i = t.offset; i < t.offset + t.count; ++i) {
                const double e = f.gradients()[i] - d.gradients()[i];
                diff2 += e * e;
                norm2 += d.gradients()[i] * d.gradients()[i];
            }
            const double relative = std::sqrt(diff2) / std::max(std::sqrt(norm2), kFloatNormFloor);
            EXPECT_LE(relative, kGradientTolerance) << t.name;
            if (relative > worst) {
                worst = relative;
                worstName = t.name;
            }
        }
        std::printf("[ figures  ] %s: |loss_f - loss_d| = %.2e, worst gradient %.2e (%s)\n",
                    attentionOnly ? "attention-only" : "full", std::abs(lossF - lossD), worst,
                    worstName.c_str());
        // The accessors widen the float activations: the same values as the double pass's
        // to float precision.
        ASSERT_EQ(f.logits().size(), d.logits().size());
        for (std::size_t i = 0; i < d.logits().size(); ++i)
            ASSERT_NEAR(f.logits()[i], d.logits()[i], 1e-5) << "logit " << i;
        for (int l = 0; l < 2; ++l) {
            ASSERT_EQ(f.attention(l).size(), d.attention(l).size());
            for (std::size_t i = 0; i < d.attention(l).size(); ++i)
                ASSERT_NEAR(f.attention(l)[i], d.attention(l)[i], 1e-6) << "layer " << l;
        }
    }
}

TEST(Gpt2Float, TrainingIsBitIdenticalAcrossRunsAndThreadCounts)
{
    AdamSettings settings;
    settings.learningRate = 1e-2;
    settings.weightDecay = 0.1;
    settings.clipNorm = 0.5;
    for (bool attentionOnly : {false, true}) {
        SCOPED_TRACE(attentionOnly ? "attention-only" : "full");
        std::vector<Trainer> runs;
        for (int threads : {1, 1, 2, 3}) {
            runs.push_back(formulaTrainer(tinyConfig(attentionOnly), Precision::Float, settings));
            runs.back().setThreads(threads);
        }
        const TinyBatch data;
        for (int k = 0; k < 8; ++k) {
            double first = 0.0;
            for (std::size_t r = 0; r < runs.size(); ++r) {
                double loss = 0.0;
                ASSERT_TRUE(runs[r].step(data.batch(), loss).ok());
                if (r == 0) first = loss;
                EXPECT_EQ(std::memcmp(&loss, &first, sizeof loss), 0)
                    << "step " << k << ", run " << r << " (" << runs[r].threads() << " threads)";
            }
        }
        const Buffer& reference = runs[0].parameters().values;
        for (std::size_t r = 1; r < runs.size(); ++r) {
            const Buffer& values = runs[r].parameters().values;
            ASSERT_EQ(values.size(), reference.size());
            EXPECT_EQ(std::memcmp(values.data(), reference.data(), values.size() * sizeof(double)),
                      0)
                << "run " << r << " (" << runs[r].threads() << " threads)";
        }
    }
}

TEST(Gpt2Float, ShortTrainingLowersTheLossAsDoubleDoes)
{
    // The repeated-sequence task of gpt2_train_test.cpp: both precisions fall tenfold in 60
    // steps and end close together (their paths drift apart only by float round-off).
    const std::vector<int> sequence{2, 7, 1, 8, 2, 8, 1};
    const long B = 4, T = 6;
    std::vector<int> tokens, targets;
    for (long b = 0; b < B; ++b)
        for (long t = 0; t < T; ++t) {
            tokens.push_back(sequence[static_cast<std::size_t>(t)]);
            targets.push_back(sequence[static_cast<std::size_t>(t + 1)]);
        }
    const Batch batch{tokens, targets, B, T};
    AdamSettings settings;
    settings.learningRate = 1e-2;
    for (bool attentionOnly : {false, true}) {
        SCOPED_TRACE(attentionOnly ? "attention-only" : "full");
        double firsts[2] = {0.0, 0.0};
        double lasts[2] = {0.0, 0.0};
        for (int p = 0; p < 2; ++p) {
            Parameters params;
            ASSERT_TRUE(makeParameters(tinyConfig(attentionOnly), params).ok());
            initialise(params, 3, 0.2);
            Trainer trainer(std::move(params), settings,
                            p == 0 ? Precision::Double : Precision::Float);
            for (int k = 0; k < 60; ++k) {
                ASSERT_TRUE(trainer.step(batch, lasts[p]).ok());
                if (k == 0) firsts[p] = lasts[p];
            }
            ASSERT_TRUE(trainer.forward(batch, lasts[p]).ok());
        }
        std::printf("[ figures  ] %s: loss %.4f -> %.4f (double), %.4f -> %.4f (float)\n",
                    attentionOnly ? "attention-only" : "full", firsts[0], lasts[0], firsts[1],
                    lasts[1]);
        EXPECT_NEAR(firsts[1], firsts[0], kLossTolerance);
        EXPECT_LT(lasts[1], firsts[1] / 10);
        EXPECT_NEAR(lasts[1], lasts[0], 0.1 * lasts[0]);
    }
}

}  // namespace
}  // namespace attn::gpt2::test
