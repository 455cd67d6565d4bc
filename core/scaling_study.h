// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Why divide by sqrt(d_k), measured: for each d_k, random queries and keys with
// unit-variance components; the sample variance of q.k without and with the 1/sqrt(d_k)
// scaling, and the mean entropy of softmax rows over a few keys both ways.
//
// Shapes per d_k: `queries` queries q_i (d_k), each with its own `keys` keys k_ij (d_k);
//   scores s_ij = q_i . k_ij   (queries x keys samples, variance ~ d_k)
//   scaled    = s_ij / sqrt(d_k)                          (variance ~ 1)
//   entropy   = mean over i of H(softmax_j(s_ij)), in nats (at most log(keys))

#include <cstdint>
#include <vector>

namespace attn {

struct ScalingStudySpec {
    std::vector<long> dKs;  // the d_k values to measure; empty = 1, 2, 4, ..., 512
    long queries = 512;
    long keys = 8;
    std::uint64_t seed = 1;
};

struct ScalingStudyPoint {
    long dK = 0;
    double varianceUnscaled = 0.0;  // unbiased sample variance of q.k
    double varianceScaled = 0.0;    // of q.k / sqrt(d_k)
    double entropyUnscaled = 0.0;   // mean softmax row entropy (nats) of q.k
    double entropyScaled = 0.0;     // of q.k / sqrt(d_k)
};

// One point per d_k in `spec.dKs` (sorted ascending, duplicates and values < 1 dropped).
// Deterministic for a seed: each d_k draws from its own generator seeded by (seed, d_k).
std::vector<ScalingStudyPoint> scalingStudy(const ScalingStudySpec& spec);

// The default d_k values: 1, 2, 4, ..., 512.
std::vector<long> powersOfTwoDk();

}  // namespace attn
