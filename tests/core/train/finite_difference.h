// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The gradient check shared by the training passes' tests (GPT-2's and the translator's): for
// every parameter tensor, fourth-order central finite differences of the trainer's own loss in
// double,
//   g_fd = (-L(p + 2h) + 8 L(p + h) - 8 L(p - h) + L(p - 2h)) / (12 h),  h = 1e-3,
// whose truncation error (h^4 terms, ~1e-12 here) and rounding error (eps |L| / h, ~1e-12) are far
// below the limit, compared over a sample of each tensor's entries:
//   ||g - g_fd|| / max(||g_fd||, 1e-3) <= 1e-6
// (the floor keeps a tensor whose gradient is exactly 0, as a key bias's is, from dividing
// round-off by round-off; 1e-6 of 1e-3 is still a strict absolute bound).

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <gtest/gtest.h>
#include <string>

#include "core/random_init.h"

namespace attn::train_test {

inline constexpr double kStep = 1e-3;
inline constexpr double kFiniteDifferenceLimit = 1e-6;
inline constexpr double kNormFloor = 1e-3;

// `trainer` (any trainer with forward, backward, gradients() and parameters().tensors/values),
// checked on `batch` with `samples` entries per tensor; prints the worst tensor under `label`.
template <class Trainer, class Batch>
void checkEveryTensor(Trainer& trainer, const Batch& batch, int samples, const char* label)
{
    const auto lossAt = [&] {
        double loss = 0.0;
        EXPECT_TRUE(trainer.forward(batch, loss).ok());
        return loss;
    };
    lossAt();
    trainer.backward();
    const auto grads = trainer.gradients();
    Rng rng(7);
    double worst = 0.0;
    std::string worstName;
    for (const auto& t : trainer.parameters().tensors) {
        double diff2 = 0.0;
        double fd2 = 0.0;
        for (int k = 0; k < samples; ++k) {
            const std::size_t i =
                t.offset + static_cast<std::size_t>(rng.uniform() * static_cast<double>(t.count));
            double& p = trainer.parameters().values[i];
            const double original = p;
            const auto at = [&](double shift) {
                p = original + shift;
                return lossAt();
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

}  // namespace attn::train_test
