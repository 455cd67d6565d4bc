// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/lessons/cost_study.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <utility>

#include "core/attention.h"
#include "core/long_attention.h"
#include "core/random_init.h"

namespace attnlab {

namespace {

constexpr int kMaxRuns = 3;
constexpr double kRepeatWhileSeconds = 2.5;
constexpr long kWarmUpN = 256;  // the core's row blocks run on threads from 256 x 256 cells

// An input with the right shape for attn::estimateBytes, which reads only sizes.
attn::AttentionInput shapeOnlyInput(long n, const CostShape& shape)
{
    attn::AttentionInput in;
    in.X.resize(n, 1);
    attn::HeadParams head;
    head.W_Q.resize(1, shape.dK);
    head.W_V.resize(1, shape.dV);
    in.heads.assign(static_cast<std::size_t>(std::max<long>(shape.heads, 1)), head);
    return in;
}

}  // namespace

CostShape costShapeOf(const attn::AttentionInput& input, unsigned long long seed)
{
    CostShape s;
    s.dModel = std::max<long>(input.modelDim(), 1);
    s.dK = std::max<long>(input.keyDim(), 1);
    s.dV = std::max<long>(input.valueDim(), 1);
    s.heads = std::max<long>(static_cast<long>(input.heads.size()), 1);
    if (!input.heads.empty()) s.dAdditive = std::max<long>(input.heads[0].additive.W_a.rows(), 1);
    s.mode = input.mode;
    s.score = input.score;
    s.scaling = input.scaling;
    s.temperature = input.temperature;
    s.seed = seed;
    return s;
}

std::vector<long> costSizes(long maxN)
{
    std::vector<long> sizes;
    if (maxN < 1) return sizes;
    for (long n = 128; n < maxN; n *= 2) sizes.push_back(n);
    sizes.push_back(maxN);
    return sizes;
}

std::size_t costEstimateBytes(long n, const CostShape& shape)
{
    return attn::estimateBytes(shapeOnlyInput(n, shape), sizeof(double));
}

std::size_t costLongEstimateBytes(long n, const CostShape& shape)
{
    return attn::estimateLongBytes(shapeOnlyInput(n, shape));
}

std::size_t costBytesFor(long n, const CostShape& shape, const attn::Limits& limits,
                         bool* weightsOnly)
{
    const std::size_t full = costEstimateBytes(n, shape);
    const bool useLong = full > limits.maxBytes;
    if (weightsOnly != nullptr) *weightsOnly = useLong;
    return useLong ? costLongEstimateBytes(n, shape) : full;
}

namespace {

// The largest n for which bytes(n) fits the budget (bytes grows with n).
template <typename Bytes>
long largestWithin(const Bytes& bytes, const attn::Limits& limits)
{
    long lo = 0;  // fits (or 0)
    long hi = 1;
    while (bytes(hi) <= limits.maxBytes) {
        lo = hi;
        hi *= 2;
    }
    while (hi - lo > 1) {
        const long mid = lo + (hi - lo) / 2;
        (bytes(mid) <= limits.maxBytes ? lo : hi) = mid;
    }
    return lo;
}

}  // namespace

long largestFittingN(const CostShape& shape, const attn::Limits& limits)
{
    return largestWithin([&shape](long n) { return costEstimateBytes(n, shape); }, limits);
}

long largestMeasurableN(const CostShape& shape, const attn::Limits& limits)
{
    const long full = largestFittingN(shape, limits);
    return std::max(
        full, largestWithin([&shape](long n) { return costLongEstimateBytes(n, shape); }, limits));
}

attn::RandomSpec costSpec(long n, const CostShape& shape)
{
    attn::RandomSpec spec;
    spec.n = n;
    spec.m = n;
    spec.dModel = shape.dModel;
    spec.dK = shape.dK;
    spec.dV = shape.dV;
    spec.heads = shape.heads;
    spec.dAdditive = shape.dAdditive;
    spec.mode = shape.mode;
    spec.seed = shape.seed;
    return spec;
}

attn::Status measureCost(long n, const CostShape& shape, const attn::Limits& limits, CostPoint& out,
                         attn::AttentionResult* kept)
{
    const attn::RandomSpec spec = costSpec(n, shape);
    // Check the budget before drawing anything: a size beyond it is refused, not attempted.
    bool weightsOnly = false;
    if (const std::size_t need = costBytesFor(n, shape, limits, &weightsOnly);
        need > limits.maxBytes) {
        attn::Status s{attn::StatusCode::TooLarge, "size"};
        s.bytesNeeded = need;
        s.bytesBudget = limits.maxBytes;
        return s;
    }
    attn::AttentionInput input = attn::randomInput(spec);
    input.score = shape.score;
    input.scaling = shape.scaling;
    input.temperature = shape.temperature;
    // The first parallel computation on a thread also starts the core's OpenMP threads (it
    // made n = 256 slower than n = 512 in the plot): each measuring thread warms up once,
    // untimed, at a size that runs in parallel.
    thread_local bool warmed = false;
    if (!warmed) {
        attn::RandomSpec small = spec;
        small.n = small.m = kWarmUpN;
        attn::AttentionResult ignored;
        (void)attn::computeAttention<double>(attn::randomInput(small), ignored, limits);
        warmed = true;
    }
    // The fastest of up to three runs, each into a fresh result, while the runs so far took
    // under 2.5 s: single runs scattered by a factor of ten at small n, and the first run at a
    // new size also pays for mapping its memory (n = 8192: 1.15 s, then 0.3 s).
    attn::AttentionResult result;
    double best = 0.0;
    double total = 0.0;
    std::size_t weightBytes = 0;
    for (int run = 0; run < kMaxRuns && total < kRepeatWhileSeconds; ++run) {
        attn::Status status;
        const auto start = std::chrono::steady_clock::now();
        if (weightsOnly) {
            attn::LongResult longResult;
            status = attn::computeLongAttention(input, longResult, limits).status;
            weightBytes = 0;
            for (const attn::LongHead& h : longResult.heads)
                weightBytes += static_cast<std::size_t>(h.weights.size()) * sizeof(float);
        } else {
            result = attn::AttentionResult{};
            status = attn::computeAttention<double>(input, result, limits);
        }
        const auto stop = std::chrono::steady_clock::now();
        if (!status.ok()) return status;
        const double seconds = std::chrono::duration<double>(stop - start).count();
        best = run == 0 ? seconds : std::min(best, seconds);
        total += seconds;
    }
    CostPoint p;
    p.n = n;
    p.seconds = best;
    p.weightsOnly = weightsOnly;
    if (weightsOnly) {
        p.weightBytes = weightBytes;
        p.estimatedBytes = attn::estimateLongBytes(input);
    } else {
        for (const attn::HeadResult& h : result.heads)
            p.weightBytes += static_cast<std::size_t>(h.weights.size()) * sizeof(double);
        p.estimatedBytes = attn::estimateBytes(input, sizeof(double));
    }
    out = p;
    if (kept != nullptr && !weightsOnly) *kept = std::move(result);
    return {};
}

double logLogSlope(const std::vector<double>& x, const std::vector<double>& y)
{
    const std::size_t count = std::min(x.size(), y.size());
    if (count < 2) return 0.0;
    double mx = 0.0;
    double my = 0.0;
    for (std::size_t i = 0; i < count; ++i) {
        mx += std::log(x[i]);
        my += std::log(y[i]);
    }
    mx /= static_cast<double>(count);
    my /= static_cast<double>(count);
    double sxy = 0.0;
    double sxx = 0.0;
    for (std::size_t i = 0; i < count; ++i) {
        const double dx = std::log(x[i]) - mx;
        sxy += dx * (std::log(y[i]) - my);
        sxx += dx * dx;
    }
    return sxx > 0.0 ? sxy / sxx : 0.0;
}

}  // namespace attnlab
