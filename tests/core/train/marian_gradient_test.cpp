// SPDX-License-Identifier: GPL-3.0-or-later
// The translator's training pass (core/train/marian_train.h) against two references, in double:
//  * fourth-order central finite differences of its own loss, for every parameter tensor
//    (train/finite_difference.h: relative error <= 1e-6 per tensor);
//  * PyTorch autograd in float64 (tests/reference/fixtures/marian_train_reference.json, written
//    by tests/reference/make_marian_train_reference.py from Hugging Face's definition of
//    Marian): the loss, every gradient entry and the last cross-attention map within 1e-12.
// Both on a padded batch (sources of 6, 4 and 2 tokens), so the masks are checked too.

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "train/finite_difference.h"
#include "train/marian_cases.h"

#ifndef ATTNLAB_FIXTURE_DIR
#error "ATTNLAB_FIXTURE_DIR must name tests/reference/fixtures"
#endif

namespace attn::marian::test {
namespace {

constexpr double kTorchLimit = 1e-12;

double lossAt(Trainer& trainer, const Batch& batch)
{
    double loss = 0.0;
    EXPECT_TRUE(trainer.forward(batch, loss).ok());
    return loss;
}

void checkFiniteDifferences(FfnActivation activation, const char* label)
{
    Trainer trainer(formulaParameters(tinyConfig(activation), 42));
    const TinyBatch data;
    train_test::checkEveryTensor(trainer, data.batch(), 5, label);
}

TEST(MarianTrain, GradientsMatchFourthOrderFiniteDifferencesForEveryTensor)
{
    checkFiniteDifferences(FfnActivation::Silu, "silu, 2 + 2 layers");
    checkFiniteDifferences(FfnActivation::Gelu, "gelu, 1 + 2 layers");
}

double worstDifference(const std::vector<double>& ours, const std::vector<double>& theirs)
{
    EXPECT_EQ(ours.size(), theirs.size());
    double worst = 0.0;
    for (std::size_t i = 0; i < std::min(ours.size(), theirs.size()); ++i)
        worst = std::max(worst, std::abs(ours[i] - theirs[i]));
    return worst;
}

TEST(MarianTrain, LossGradientsAndCrossAttentionMatchPyTorchAutogradInFloat64)
{
    std::ifstream in(std::string(ATTNLAB_FIXTURE_DIR) + "/marian_train_reference.json");
    ASSERT_TRUE(in.good()) << "missing fixture marian_train_reference.json";
    const auto fixture = nlohmann::json::parse(in);
    const TinyBatch data;
    ASSERT_EQ(fixture["source"].get<std::vector<int>>(), data.source);
    ASSERT_EQ(fixture["targets"].get<std::vector<int>>(), data.targets);
    ASSERT_EQ(fixture["variants"].size(), 2U);
    for (const auto& variant : fixture["variants"]) {
        const bool silu = variant["config"]["activation"] == "silu";
        const Config c = tinyConfig(silu ? FfnActivation::Silu : FfnActivation::Gelu);
        ASSERT_EQ(variant["config"]["encoderLayers"].get<long>(), c.encoderLayers);
        Trainer trainer(formulaParameters(c, fixture["seed"].get<std::uint64_t>()));
        const double loss = lossAt(trainer, data.batch());
        trainer.backward();
        const double lossError = std::abs(loss - variant["loss"].get<double>());
        EXPECT_LE(lossError, kTorchLimit);
        const double crossError =
            worstDifference(trainer.crossAttention(static_cast<int>(c.decoderLayers - 1)),
                            variant["cross"].get<std::vector<double>>());
        EXPECT_LE(crossError, kTorchLimit);
        double worst = 0.0;
        for (const Tensor& t : trainer.parameters().tensors) {
            ASSERT_TRUE(variant["grads"].contains(t.name)) << t.name;
            const auto& g = trainer.gradients();
            const std::vector<double> ours(g.begin() + static_cast<long>(t.offset),
                                           g.begin() + static_cast<long>(t.offset + t.count));
            const double error =
                worstDifference(ours, variant["grads"][t.name].get<std::vector<double>>());
            EXPECT_LE(error, kTorchLimit) << t.name;
            worst = std::max(worst, error);
        }
        EXPECT_EQ(variant["grads"].size(), trainer.parameters().tensors.size());
        std::printf("[ figures  ] %s: loss error %.1e, cross map %.1e, worst gradient %.1e\n",
                    silu ? "silu" : "gelu", lossError, crossError, worst);
    }
}

}  // namespace
}  // namespace attn::marian::test
