// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Helpers for the gradient tests: an objective (the losses of core/train/loss.h plus linear
// terms on P and on the scaled scores, so that every cotangent path of backward() is used),
// its analytic gradients, and a finite-difference check of every parameter matrix.
//
// Finite differences: the fourth-order central difference
//   g_fd = (8 (f(x+h) - f(x-h)) - (f(x+2h) - f(x-2h))) / (12 h),  h = 1e-3,
// whose truncation error is about h^4 |f^(5)| / 30 (~1e-14 here) and whose round-off is about
// 1.5 eps |f| / h (~3e-13 |f|): both are several orders below the 1e-6 being tested. Each
// estimate is also made with h / 2; the two must agree (fdSpread) or the reference itself is
// not trusted.
//
// Measure, per parameter matrix: ||g - g_fd||_F / max(||g||_F, ||g_fd||_F). A matrix whose
// gradient is exactly zero on both sides (e.g. W_K under shared projections) counts as 0.

#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include "core/attention.h"
#include "core/random_init.h"
#include "core/train/gradients.h"
#include "core/train/loss.h"

namespace attn::test {

struct Objective {
    LossSpec spec;
    std::vector<Matrix> onWeights;  // per head: adds sum(C .* P), or empty
    std::vector<Matrix> onScaled;   // per head: adds sum(D .* Z), or empty
};

// The objective's value at `input` in double (NaN if the forward pass fails).
double objectiveValue(const AttentionInput& input, const Objective& objective);

// Its analytic gradients (embeddings included) in T; false if a step fails.
template <typename T>
bool objectiveGradients(const AttentionInput& input, const Objective& objective,
                        GradientsT<T>& grads, T* value = nullptr);

// One parameter matrix of an input and the matching gradient, as flat storage.
struct ParamView {
    std::string name;
    double* value;
    const double* grad;
    long size;
};

// Every parameter matrix that has entries: W_Q, W_K, W_V, b_*, additive W_a, U_a, v per head,
// W_O, X and (cross) Y. `grads` must come from objectiveGradients for `input`.
std::vector<ParamView> parameterViews(AttentionInput& input, const GradientsT<double>& grads);

struct MatrixCheck {
    std::string name;
    double relError = 0;  // ||g - g_fd|| / max(||g||, ||g_fd||)
    double fdSpread = 0;  // ||g_fd(h) - g_fd(h/2)|| / max(||g_fd||): the reference's own error
    double norm = 0;      // ||g_fd||
};

struct FdReport {
    std::vector<MatrixCheck> matrices;
    double worst = 0;
    std::string worstName;
    double worstSpread = 0;
    double value = 0;
};

// Compares `grads` (for `input`) with finite differences of objectiveValue.
FdReport finiteDifferenceCheck(const AttentionInput& input, const Objective& objective,
                               const GradientsT<double>& grads);

// Random extras used by the cases: biases, additive parameters, masks, edits, targets.
Vector randomVector(long size, Rng& rng, double stddev = 1.0);
Matrix randomPattern(long rows, long cols, Rng& rng);  // uniform [0, 1), some exact zeros
// An objective with a pattern target per head (two on head 0), an output target and random
// linear terms on P and Z.
Objective randomObjective(const AttentionInput& input, Rng& rng);

}  // namespace attn::test
