// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Lesson 13, the cost of n²: measures the core on random inputs of growing length n, with
// the open session's sizes and options (mode, score function, scaling), and reports the time
// and the memory the weights take. Plain functions (no
// widgets) so that a worker thread can run them; all attention is computed by attnlab_core.

#include <cstddef>
#include <vector>

#include "core/attention.h"
#include "core/attention_input.h"
#include "core/random_init.h"

namespace attnlab {

// The sizes and options a measurement uses (taken from the open session; n varies, and
// in cross mode the source is as long as the target).
struct CostShape {
    long dModel = 8;
    long dK = 8;
    long dV = 8;
    long heads = 1;
    long dAdditive = 8;
    attn::Mode mode = attn::Mode::Self;
    attn::ScoreFunction score = attn::ScoreFunction::Dot;
    attn::Scaling scaling = attn::Scaling::SqrtDk;
    double temperature = 1.0;
    unsigned long long seed = 1;
    bool operator==(const CostShape&) const = default;
};

// Up to the largest n whose every stage fits the budget in double, attn::computeAttention<double>
// keeps them all; beyond it attn::computeLongAttention keeps only the weights, in float
// (core/long_attention.h), which reaches n = 32,768 within 6 GiB.
struct CostPoint {
    long n = 0;
    double seconds = 0.0;         // wall time of the computation into a fresh result
    bool weightsOnly = false;     // computed by the long-sequence path (float, only P kept)
    std::size_t weightBytes = 0;  // bytes of the weight matrices held: n² · h · 8 (float: · 4)
    std::size_t estimatedBytes = 0;  // everything the computation holds (attn::estimateBytes or
                                     // attn::estimateLongBytes)
};

// The session's d_model, d_k, d_v, head count, mode, score function and scaling.
CostShape costShapeOf(const attn::AttentionInput& input, unsigned long long seed);

// The n measured for a run up to `maxN`: 128, 256, ... (powers of two below maxN), then maxN.
std::vector<long> costSizes(long maxN);

// attn::estimateBytes for self-attention of length n with these sizes (nothing allocated).
std::size_t costEstimateBytes(long n, const CostShape& shape);
// attn::estimateLongBytes for the same (what keeping only the weights, in float, takes).
std::size_t costLongEstimateBytes(long n, const CostShape& shape);
// What measuring length n holds: every stage in double when that fits the budget, else the long
// path's estimate; `weightsOnly` says which.
std::size_t costBytesFor(long n, const CostShape& shape, const attn::Limits& limits,
                         bool* weightsOnly = nullptr);
// The largest n whose every stage fits within the budget in double.
long largestFittingN(const CostShape& shape, const attn::Limits& limits);
// The largest n that can be measured at all: largestFittingN, or beyond it with only the weights
// kept in float.
long largestMeasurableN(const CostShape& shape, const attn::Limits& limits);

// The random input's sizes for length n (what measureCost draws with attn::randomInput).
attn::RandomSpec costSpec(long n, const CostShape& shape);

// Draws a random input of length n (attn::randomInput), computes attention and times it.
// A refusal by the core (e.g. TooLarge) is returned and `out` is left untouched. The
// result is moved into `result` when one is given (not for a weights-only point).
attn::Status measureCost(long n, const CostShape& shape, const attn::Limits& limits, CostPoint& out,
                         attn::AttentionResult* result = nullptr);

// Least-squares slope of log(y) against log(x) (2 for memory of the weights).
double logLogSlope(const std::vector<double>& x, const std::vector<double>& y);

}  // namespace attnlab
