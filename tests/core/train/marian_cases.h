// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Shared by the translator training tests: the tiny configurations and padded batch of
// tests/reference/make_marian_train_reference.py, and its parameter formula.

#include <cstdint>
#include <vector>

#include "core/random_init.h"
#include "core/train/marian_train.h"

namespace attn::marian::test {

// V = 11, maxT = 8, H = 2, C = 8, F = 12; 2 + 2 layers with SiLU, or 1 + 2 with the tanh GELU
// (stacks of different depth): small enough for finite differences of every tensor.
inline Config tinyConfig(FfnActivation activation)
{
    Config c;
    c.vocab = 11;
    c.maxT = 8;
    c.heads = 2;
    c.channels = 8;
    c.ffn = 12;
    c.padId = 0;
    c.eosId = 1;
    c.activation = activation;
    c.encoderLayers = activation == FfnActivation::Silu ? 2 : 1;
    c.decoderLayers = 2;
    return c;
}

// Every value base + scale * (2u - 1) with u = Rng(seed).uniform() in buffer order: LayerNorm
// weights around 1 (scale 0.25), everything else around 0 (scale 0.5). Exact in any IEEE
// double arithmetic, so Python computes the same values.
inline void fillFromFormula(Parameters& p, std::uint64_t seed)
{
    Rng rng(seed);
    for (const Tensor& t : p.tensors) {
        const bool lnWeight =
            t.name.find("layer_norm") != std::string::npos && t.name.ends_with(".weight");
        const double base = lnWeight ? 1.0 : 0.0;
        const double scale = lnWeight ? 0.25 : 0.5;
        for (std::size_t i = 0; i < t.count; ++i)
            p.values[t.offset + i] = base + scale * (2.0 * rng.uniform() - 1.0);
    }
}

inline Parameters formulaParameters(const Config& c, std::uint64_t seed)
{
    Parameters p;
    makeParameters(c, p);
    fillFromFormula(p, seed);
    return p;
}

// B = 3 pairs: sources of 6, 4 and 2 tokens padded to S = 6 (pad 0, eos 1), decoder inputs
// from the start token (pad) of T = 5 with 5, 4 and 2 targets (-1: padding).
struct TinyBatch {
    std::vector<int> source{3, 4, 5, 6, 7, 1, 8, 9, 2, 1, 0, 0, 5, 1, 0, 0, 0, 0};
    std::vector<int> lengths{6, 4, 2};
    std::vector<int> input{0, 2, 3, 4, 5, 0, 6, 7, 8, 0, 0, 9, 0, 0, 0};
    std::vector<int> targets{2, 3, 4, 5, 1, 6, 7, 8, 1, -1, 9, 1, -1, -1, -1};
    [[nodiscard]] Batch batch() const { return {source, lengths, input, targets, 3, 6, 5}; }
};

}  // namespace attn::marian::test
