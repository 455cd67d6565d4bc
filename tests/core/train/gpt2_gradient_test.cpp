// SPDX-License-Identifier: GPL-3.0-or-later
// The GPT-2 training pass's gradients (core/train/gpt2_train.h) against fourth-order central
// finite differences of its own loss, in double, for every parameter tensor of the full and
// of the attention-only model:
//   g_fd = (-L(p + 2h) + 8 L(p + h) - 8 L(p - h) + L(p - 2h)) / (12 h),  h = 1e-3,
// whose truncation error (h^4 terms, ~1e-12 here) and rounding error (eps |L| / h, ~1e-12)
// are far below the limit. Measure per tensor, over a sample of its entries:
//   ||g - g_fd|| / max(||g_fd||, 1e-3) <= 1e-6
// (the floor keeps a tensor whose gradient is exactly 0, as the key bias's is, from dividing
// round-off by round-off; 1e-6 of 1e-3 is still a strict absolute bound).

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <gtest/gtest.h>
#include <string>
#include <vector>

#include "core/random_init.h"
#include "train/gpt2_cases.h"

namespace attn::gpt2::test {
namespace {

constexpr double kStep = 1e-3;
constexpr double kFiniteDifferenceLimit = 1e-6;
constexpr double kNormFloor = 1e-3;
constexpr int kSamplesPerTensor = 6;

double lossAt(Trainer& trainer, const Batch& batch)
{
    double loss = 0.0;
    EXPECT_TRUE(trainer.forward(batch, loss).ok());
    return loss;
}

void checkEveryTensor(const Config& config, const Batch& batch, const char* label)
{
    Parameters params;
    ASSERT_TRUE(makeParameters(config, params).ok());
    fillFromFormula(params, 42);
    Trainer trainer(params);
    double loss = 0.0;
    ASSERT_TRUE(trainer.forward(batch, loss).ok());
    trainer.backward();
    const Buffer grads = trainer.gradients();

    Rng rng(7);
    double worst = 0.0;
    std::string worstName;
    for (const Tensor& t : trainer.parameters().tensors) {
        double diff2 = 0.0;
        double fd2 = 0.0;
        for (int k = 0; k < kSamplesPerTensor; ++k) {
            const std::size_t i =
                t.offset + static_cast<std::size_t>(rng.uniform() * static_cast<double>(t.count));
            double& p = trainer.parameters().values[i];
            const double original = p;
            const auto at = [&](double shift) {
                p = original + shift;
                return lossAt(trainer, batch);
            };
            const double fd =
                (-at(2 * kStep) + 8 * at(kStep) - 8 * at(-kStep) + at(-2 * kStep)) / (12 * kStep);
            p = original;
            diff2 += (grads[i] - fd) * (grads[i] - fd);
            fd2 += fd * fd;
        }
        const double error = std::sqrt(diff2) / std::max(std::sqrt(fd2), kNormFloor);
        EXPECT_LE(error, kFiniteDifferenceLimit) << t.name << " (|g_fd| " << std::sqrt(fd2) << ")";
        if (error >= worst) {
            worst = error;
            worstName = t.name;
        }
    }
    std::printf("[ figures  ] %s: %zu tensors, worst rel. error %.2e (%s)\n", label,
                trainer.parameters().tensors.size(), worst, worstName.c_str());
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
