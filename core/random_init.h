// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Seeded, reproducible random numbers (splitmix64 + Box-Muller), identical on
// every platform and standard library.

#include <cstdint>

#include "core/attention_input.h"

namespace attn {

class Rng {
public:
    explicit Rng(std::uint64_t seed) : state_(seed) {}
    std::uint64_t nextU64();
    double uniform();  // [0, 1)
    double normal();   // mean 0, variance 1

private:
    std::uint64_t state_;
    bool hasSpare_ = false;
    double spare_ = 0.0;
};

// rows x cols with N(0, stddev^2) entries.
Matrix randomNormal(long rows, long cols, Rng& rng, double stddev = 1.0);

struct RandomSpec {
    long n = 4;
    long m = 4;  // source length (cross mode)
    long dModel = 3;
    long dK = 3;
    long dV = 3;
    long heads = 1;
    long dAdditive = 3;
    Mode mode = Mode::Self;
    std::uint64_t seed = 1;
};

// Embeddings N(0,1); projections N(0, 1/d_model) so projected components have
// unit variance; W_O N(0, 1/(h d_v)); additive parameters N(0, 1/d_k).
AttentionInput randomInput(const RandomSpec& spec);

}  // namespace attn
