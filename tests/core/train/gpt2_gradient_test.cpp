// SPDX-License-Identifier: GPL-3.0-or-later
// The GPT-2 training pass's gradients (core/train/gpt2_train.h) against fourth-order central
// finite differences of its own loss, in double, for every parameter tensor of the full and of
// the attention-only model (train/finite_difference.h states the measure and its limit).

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <gtest/gtest.h>
#include <string>
#include <vector>

#include "train/finite_difference.h"
#include "train/gpt2_cases.h"

namespace attn::gpt2::test {
namespace {

void checkEveryTensor(const Config& config, const Batch& batch, const char* label)
{
    Parameters params;
    ASSERT_TRUE(makeParameters(config, params).ok());
    fillFromFormula(params, 42);
    Trainer trainer(params);
    train_test::checkEveryTensor(trainer, batch, 6, label);
}

TEST(Gpt2Train, GradientsMatchFourthOrderFiniteDifferencesForEveryTensor)
{
    const TinyBatch data;
    checkEveryTensor(tinyConfig(false), data.batch(), "full");
}

TEST(Gpt2Train, AttentionOnlyGradientsMatchFourthOrderFiniteDifferencesForEveryTensor)
{
    const TinyBatch data;
    checkEveryTensor(tinyConfig(true), data.batch(), "attention-only");
}

TEST(Gpt2Train, GradientsMatchFiniteDifferencesOnASequenceLongerThanOneAttentionBlock)
{
    // T = 40: the attention runs by blocks of query rows (32, then 8) and the dense layers over
    // several row parts, which the 6-token batch never reaches.
    Config c = tinyConfig(false);
    c.layers = 1;
    c.maxT = 48;
    const long T = 40;
    std::vector<int> tokens, targets;
    for (long t = 0; t < T; ++t) {
        tokens.push_back(static_cast<int>((t * 7 + 3) % c.vocab));
        targets.push_back(static_cast<int>((t * 5 + 1) % c.vocab));
    }
    checkEveryTensor(c, {tokens, targets, 1, T}, "full, T = 40");
}

}  // namespace
}  // namespace attn::gpt2::test
