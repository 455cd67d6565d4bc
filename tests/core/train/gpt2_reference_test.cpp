// SPDX-License-Identifier: GPL-3.0-or-later
// The GPT-2 training pass's loss and gradients against PyTorch autograd (float64): the
// fixture tests/reference/fixtures/gpt2_grad_reference.json, written by
// tests/reference/make_gpt2_grad_reference.py (model, parameter formula and layout described
// there). Every gradient entry of every tensor within 1e-12 (absolute; the gradients are of
// order 0.1), the loss within 1e-12, for the full and the attention-only model.

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "train/gpt2_cases.h"

#ifndef ATTNLAB_FIXTURE_DIR
#error "ATTNLAB_FIXTURE_DIR must name tests/reference/fixtures"
#endif

namespace attn::gpt2::test {
namespace {

using nlohmann::json;

constexpr double kTorchLimit = 1e-12;

json loadFixture()
{
    std::ifstream in(std::string(ATTNLAB_FIXTURE_DIR) + "/gpt2_grad_reference.json");
    EXPECT_TRUE(in.good()) << "missing fixture gpt2_grad_reference.json";
    return in.good() ? json::parse(in) : json();
}

void checkVariant(const json& fixture, const json& variant)
{
    const bool attentionOnly = variant["attentionOnly"].get<bool>();
    SCOPED_TRACE(attentionOnly ? "attention-only" : "full");
    Config c;
    c.vocab = fixture["config"]["vocab"];
    c.maxT = fixture["config"]["maxT"];
    c.layers = fixture["config"]["layers"];
    c.heads = fixture["config"]["heads"];
    c.channels = fixture["config"]["channels"];
    c.attentionOnly = attentionOnly;
    Parameters params;
    ASSERT_TRUE(makeParameters(c, params).ok());
    fillFromFormula(params, fixture["seed"].get<std::uint64_t>());
    Trainer trainer(params);
    const auto tokens = fixture["tokens"].get<std::vector<int>>();
    const auto targets = fixture["targets"].get<std::vector<int>>();
    const Batch batch{tokens, targets, fixture["B"].get<long>(), fixture["T"].get<long>()};
    double loss = 0.0;
    ASSERT_TRUE(trainer.forward(batch, loss).ok());
    trainer.backward();

    const double lossError = std::abs(loss - variant["loss"].get<double>());
    EXPECT_LE(lossError, kTorchLimit);
    const json& grads = variant["grads"];
    ASSERT_EQ(grads.size(), trainer.parameters().tensors.size());
    double worst = 0.0;
    std::string worstName;
    for (const Tensor& t : trainer.parameters().tensors) {
        ASSERT_TRUE(grads.contains(t.name)) << t.name;
        const auto expected = grads[t.name].get<std::vector<double>>();
        ASSERT_EQ(expected.size(), t.count) << t.name;
        double error = 0.0;
        for (std::size_t i = 0; i < t.count; ++i)
            error = std::max(error, std::abs(trainer.gradients()[t.offset + i] - expected[i]));
        EXPECT_LE(error, kTorchLimit) << t.name;
        if (error >= worst) {
            worst = error;
            worstName = t.name;
        }
    }
    std::printf("[ figures  ] %s: loss error %.1e, worst gradient error %.1e (%s)\n",
                attentionOnly ? "attention-only" : "full", lossError, worst, worstName.c_str());
}

TEST(Gpt2Train, LossAndGradientsMatchPyTorchAutogradForEveryTensor)
{
    const json fixture = loadFixture();
    ASSERT_TRUE(fixture.contains("variants"));
    ASSERT_EQ(fixture["variants"].size(), 2u);
    for (const json& variant : fixture["variants"]) checkVariant(fixture, variant);
}

}  // namespace
}  // namespace attn::gpt2::test
