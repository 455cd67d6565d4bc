// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/scaling_study.h"

#include <algorithm>
#include <cmath>

#include "core/random_init.h"
#include "core/softmax.h"

namespace attn {

namespace {

// -sum p log p over one softmax row of scores (the core's softmax, exact zeros skipped).
double rowEntropy(const Vector& scores, Vector& weights)
{
    const long count = scores.size();
    softmaxRow<double>(scores.data(), nullptr, count, count, weights.data());
    double h = 0.0;
    for (long j = 0; j < count; ++j) {
        const double p = weights(j);
        if (p > 0.0) h -= p * std::log(p);
    }
    return h;
}

ScalingStudyPoint measure(long dK, const ScalingStudySpec& spec)
{
    // One generator per d_k, so a point does not depend on which others are measured.
    Rng rng(spec.seed * 0x9E3779B97F4A7C15ULL + static_cast<std::uint64_t>(dK));
    const long queries = std::max<long>(spec.queries, 1);
    const long keys = std::max<long>(spec.keys, 1);
    const double divisor = std::sqrt(static_cast<double>(dK));
    Vector scores(keys);
    Vector scaled(keys);
    Vector weights(keys);
    double sum = 0.0;
    double sumSquares = 0.0;
    double entropyRaw = 0.0;
    double entropyScaled = 0.0;
    for (long i = 0; i < queries; ++i) {
        const Matrix q = randomNormal(1, dK, rng);
        const Matrix k = randomNormal(keys, dK, rng);
        scores = k * q.transpose();
        sum += scores.sum();
        sumSquares += scores.squaredNorm();
        scaled = scores / divisor;
        entropyRaw += rowEntropy(scores, weights);
        entropyScaled += rowEntropy(scaled, weights);
    }
    const double count = static_cast<double>(queries * keys);
    const double mean = sum / count;
    const double variance = count > 1 ? (sumSquares - count * mean * mean) / (count - 1) : 0.0;
    ScalingStudyPoint p;
    p.dK = dK;
    p.varianceUnscaled = variance;
    p.varianceScaled = variance / (divisor * divisor);
    p.entropyUnscaled = entropyRaw / static_cast<double>(queries);
    p.entropyScaled = entropyScaled / static_cast<double>(queries);
    return p;
}

}  // namespace

std::vector<long> powersOfTwoDk()
{
    std::vector<long> d;
    for (long v = 1; v <= 512; v *= 2) d.push_back(v);
    return d;
}

std::vector<ScalingStudyPoint> scalingStudy(const ScalingStudySpec& spec)
{
    std::vector<long> dKs = spec.dKs.empty() ? powersOfTwoDk() : spec.dKs;
    std::erase_if(dKs, [](long d) { return d < 1; });
    std::sort(dKs.begin(), dKs.end());
    dKs.erase(std::unique(dKs.begin(), dKs.end()), dKs.end());
    std::vector<ScalingStudyPoint> points;
    points.reserve(dKs.size());
    for (long dK : dKs) points.push_back(measure(dK, spec));
    return points;
}

}  // namespace attn
