// SPDX-License-Identifier: GPL-3.0-or-later
// Training a whole GPT-2 (core/train/gpt2_train.h): determinism, learning a trivially
// learnable task, GPT-2's initialisation, and the refusal of bad configurations and batches.

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <gtest/gtest.h>
#include <vector>

#include "train/gpt2_cases.h"

namespace attn::gpt2::test {
namespace {

Trainer seededTrainer(const Config& c, std::uint64_t seed, const AdamSettings& settings)
{
    Parameters params;
    EXPECT_TRUE(makeParameters(c, params).ok());
    initialise(params, seed, 0.2);
    return Trainer(std::move(params), settings);
}

// B copies of one fixed sequence, shifted by one for the targets: a model can learn it
// exactly (position embeddings alone tell each next token).
struct RepeatTask {
    std::vector<int> tokens, targets;
    long B = 4, T = 6;
    RepeatTask()
    {
        const std::vector<int> sequence{2, 7, 1, 8, 2, 8, 1};
        for (long b = 0; b < B; ++b)
            for (long t = 0; t < T; ++t) {
                tokens.push_back(sequence[static_cast<std::size_t>(t)]);
                targets.push_back(sequence[static_cast<std::size_t>(t + 1)]);
            }
    }
    [[nodiscard]] Batch batch() const { return {tokens, targets, B, T}; }
};

TEST(Gpt2Train, TwoRunsFromOneSeedGiveBitIdenticalParametersAndLosses)
{
    AdamSettings settings;
    settings.learningRate = 1e-2;
    settings.weightDecay = 0.1;
    settings.clipNorm = 0.5;
    for (bool attentionOnly : {false, true}) {
        Trainer a = seededTrainer(tinyConfig(attentionOnly), 5, settings);
        Trainer b = seededTrainer(tinyConfig(attentionOnly), 5, settings);
        // The threaded products and attention must not change a bit.
        b.setThreads(3);
        const TinyBatch data;
        for (int k = 0; k < 8; ++k) {
            double la = 0.0;
            double lb = 0.0;
            ASSERT_TRUE(a.step(data.batch(), la).ok());
            ASSERT_TRUE(b.step(data.batch(), lb).ok());
            EXPECT_EQ(std::memcmp(&la, &lb, sizeof la), 0) << "step " << k;
        }
        const Buffer& pa = a.parameters().values;
        const Buffer& pb = b.parameters().values;
        ASSERT_EQ(pa.size(), pb.size());
        EXPECT_EQ(std::memcmp(pa.data(), pb.data(), pa.size() * sizeof(double)), 0);
        EXPECT_EQ(a.steps(), 8);
    }
}

TEST(Gpt2Train, LossOnARepeatedSequenceFallsTenfoldInSixtySteps)
{
    AdamSettings settings;
    settings.learningRate = 1e-2;
    for (bool attentionOnly : {false, true}) {
        Trainer trainer = seededTrainer(tinyConfig(attentionOnly), 3, settings);
        const RepeatTask task;
        double first = 0.0;
        double last = 0.0;
        for (int k = 0; k < 60; ++k) {
            ASSERT_TRUE(trainer.step(task.batch(), last).ok());
            if (k == 0) first = last;
        }
        ASSERT_TRUE(trainer.forward(task.batch(), last).ok());
        std::printf("[ figures  ] %s: loss %.4f -> %.4f in 60 steps\n",
                    attentionOnly ? "attention-only" : "full", first, last);
        EXPECT_LT(last, first / 10);
    }
}

TEST(Gpt2Train, InitialisationFollowsGpt2)
{
    Config c = tinyConfig(false);
    c.channels = 64;
    c.heads = 4;
    c.vocab = 500;
    c.maxT = 64;
    Parameters p;
    ASSERT_TRUE(makeParameters(c, p).ok());
    initialise(p, 1, 0.02);
    const auto stdOf = [&](const char* name) {
        const Tensor* t = p.find(name);
        EXPECT_NE(t, nullptr) << name;
        double s = 0.0;
        for (std::size_t i = 0; i < t->count; ++i)
            s += p.values[t->offset + i] * p.values[t->offset + i];
        return std::sqrt(s / static_cast<double>(t->count));
    };
    EXPECT_NEAR(stdOf("wte.weight"), 0.02, 0.001);
    EXPECT_NEAR(stdOf("h.0.attn.c_attn.weight"), 0.02, 0.001);
    EXPECT_NEAR(stdOf("h.1.mlp.c_proj.weight"), 0.02 / std::sqrt(4.0), 0.001);
    EXPECT_NEAR(stdOf("h.1.attn.c_proj.weight"), 0.02 / std::sqrt(4.0), 0.001);
    EXPECT_EQ(stdOf("h.0.attn.c_attn.bias"), 0.0);
    EXPECT_EQ(stdOf("ln_f.weight"), 1.0);
    EXPECT_EQ(stdOf("h.1.ln_2.bias"), 0.0);
}

TEST(Gpt2Train, AttentionOnlyModelHasNoMlpOrLn2Parameters)
{
    Parameters p;
    ASSERT_TRUE(makeParameters(tinyConfig(true), p).ok());
    for (const Tensor& t : p.tensors) {
        EXPECT_EQ(t.name.find("mlp"), std::string::npos) << t.name;
        EXPECT_EQ(t.name.find("ln_2"), std::string::npos) << t.name;
    }
    EXPECT_EQ(p.tensors.size(), 2u + 2 * 6 + 2);
}

TEST(Gpt2Train, BadConfigurationsAreRefusedNamingTheField)
{
    Parameters p;
    Config c = tinyConfig(false);
    c.heads = 3;
    Status s = makeParameters(c, p);
    EXPECT_EQ(s.code, StatusCode::ConfigField);
    EXPECT_EQ(s.field, "channels");
    c = tinyConfig(false);
    c.vocab = 0;
    s = makeParameters(c, p);
    EXPECT_EQ(s.code, StatusCode::ConfigField);
    EXPECT_EQ(s.field, "vocab");
}

TEST(Gpt2Train, BadBatchesAreRefusedAndLeaveTheParametersAlone)
{
    Trainer trainer = seededTrainer(tinyConfig(false), 1, {});
    const Buffer before = trainer.parameters().values;
    TinyBatch data;
    double loss = 0.0;

    data.tokens[4] = 11;
    Status s = trainer.step(data.batch(), loss);
    EXPECT_EQ(s.code, StatusCode::TokenOutOfRange);
    EXPECT_EQ(s.field, "tokens");
    EXPECT_EQ(s.position, 4);

    data = TinyBatch();
    data.targets[7] = -1;
    s = trainer.step(data.batch(), loss);
    EXPECT_EQ(s.code, StatusCode::TokenOutOfRange);
    EXPECT_EQ(s.field, "targets");
    EXPECT_EQ(s.position, 7);

    data = TinyBatch();
    Batch wrong = data.batch();
    wrong.T = 5;
    s = trainer.step(wrong, loss);
    EXPECT_EQ(s.code, StatusCode::ShapeMismatch);
    EXPECT_EQ(s.field, "tokens");

    std::vector<int> long_(2 * 9, 1);
    s = trainer.step({long_, long_, 2, 9}, loss);
    EXPECT_EQ(s.code, StatusCode::TooLong);
    EXPECT_EQ(s.limit, 8);

    EXPECT_EQ(trainer.parameters().values, before);
    EXPECT_EQ(trainer.steps(), 0);
}

TEST(Gpt2Train, FirstAdamWStepMovesEachParameterByTheLearningRateAndDecaysOnlyMatrices)
{
    AdamSettings settings;
    settings.learningRate = 1e-3;
    settings.weightDecay = 0.5;
    Trainer trainer = seededTrainer(tinyConfig(false), 8, settings);
    const TinyBatch data;
    double loss = 0.0;
    ASSERT_TRUE(trainer.forward(data.batch(), loss).ok());
    trainer.backward();
    const Buffer grads = trainer.gradients();
    const Buffer before = trainer.parameters().values;
    ASSERT_TRUE(trainer.step(data.batch(), loss).ok());
    // Step 1 with bias correction: m / (1 - b1) = g and v / (1 - b2) = g^2, so the update is
    // lr (g / (|g| + eps) + decay p).
    for (const Tensor& t : trainer.parameters().tensors) {
        const double decay = t.shape.size() == 2 ? settings.weightDecay : 0.0;
        for (std::size_t i = t.offset; i < t.offset + t.count; ++i) {
            const double g = grads[i];
            const double expected =
                before[i] -
                settings.learningRate * (g / (std::abs(g) + settings.epsilon) + decay * before[i]);
            ASSERT_NEAR(trainer.parameters().values[i], expected, 1e-15) << t.name;
        }
    }
}

TEST(Gpt2Train, GradientClippingScalesTheGradientToTheGivenNorm)
{
    // Adam's first step ignores the gradient's scale, its second does not: after a clipped
    // step the moments hold the clipped gradient, so two trainers whose clipping norms differ
    // by a factor agree on step 1 and differ on step 2, while a norm above the gradient's
    // leaves the run as without clipping.
    const TinyBatch data;
    const auto run = [&](double clip) {
        AdamSettings settings;
        settings.learningRate = 1e-2;
        settings.clipNorm = clip;
        Trainer trainer = seededTrainer(tinyConfig(true), 2, settings);
        double loss = 0.0;
        for (int k = 0; k < 3; ++k) EXPECT_TRUE(trainer.step(data.batch(), loss).ok());
        return trainer.parameters().values;
    };
    const Buffer unclipped = run(0.0);
    EXPECT_EQ(run(1e6), unclipped);
    EXPECT_NE(run(1e-3), unclipped);
}

TEST(Gpt2Train, NonFiniteLossIsRefusedAndLeavesTheParametersAlone)
{
    Trainer trainer = seededTrainer(tinyConfig(false), 1, {});
    trainer.parameters().values[trainer.parameters().wte] = std::nan("");
    const Buffer before = trainer.parameters().values;
    const TinyBatch data;
    double loss = 0.0;
    const Status s = trainer.step(data.batch(), loss);
    EXPECT_EQ(s.code, StatusCode::NonFinite);
    EXPECT_EQ(s.field, "loss");
    EXPECT_EQ(trainer.steps(), 0);
    for (std::size_t i = 1; i < before.size(); ++i)
        ASSERT_EQ(trainer.parameters().values[i], before[i]);
}

}  // namespace
}  // namespace attn::gpt2::test
