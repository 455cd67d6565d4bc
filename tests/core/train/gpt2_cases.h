// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Shared by the GPT-2 training tests: the tiny configuration, parameters from a formula that
// tests/reference/make_gpt2_grad_reference.py reproduces exactly, and a fixed batch.

#include <cstdint>
#include <vector>

#include "core/random_init.h"
#include "core/train/gpt2_train.h"

namespace attn::gpt2::test {

// V = 11, maxT = 8, L = 2, H = 2, C = 8: small enough for finite differences of every entry,
// with two layers (the residual stream's gradient crosses a block) and two heads.
inline Config tinyConfig(bool attentionOnly)
{
    Config c;
    c.vocab = 11;
    c.maxT = 8;
    c.layers = 2;
    c.heads = 2;
    c.channels = 8;
    c.attentionOnly = attentionOnly;
    return c;
}

// Every value base + scale * (2u - 1) with u = Rng(seed).uniform() in buffer order: LayerNorm
// weights around 1 (scale 0.25), everything else around 0 (scale 0.5), large enough that the
// softmaxes, LayerNorms and gelus are far from linear. Exact in any IEEE double arithmetic
// (u is a multiple of 2^-53), so Python computes the same values.
inline void fillFromFormula(Parameters& p, std::uint64_t seed)
{
    Rng rng(seed);
    for (const Tensor& t : p.tensors) {
        const bool lnWeight = t.name.find("ln_") != std::string::npos && t.shape.size() == 1 &&
                              t.name.ends_with(".weight");
        const double base = lnWeight ? 1.0 : 0.0;
        const double scale = lnWeight ? 0.25 : 0.5;
        for (std::size_t i = 0; i < t.count; ++i)
            p.values[t.offset + i] = base + scale * (2.0 * rng.uniform() - 1.0);
    }
}

// B = 2 sequences of T = 6 tokens and their next tokens.
struct TinyBatch {
    std::vector<int> tokens{3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8};
    std::vector<int> targets{1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, 9};
    [[nodiscard]] Batch batch() const { return {tokens, targets, 2, 6}; }
};

}  // namespace attn::gpt2::test
