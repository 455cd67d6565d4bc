// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Random sessions for the gradient tests, built from core/random_init.h's randomInput plus
// the settings a case asks for (biases, edits, a custom mask with a fully masked row, ...).

#include <cstdint>

#include "core/attention_input.h"
#include "core/random_init.h"
#include "support/grad_check.h"

namespace attn::test {

struct GradCase {
    Mode mode = Mode::Self;
    Scaling scaling = Scaling::SqrtDk;
    double temperature = 0.7;
    ScoreFunction score = ScoreFunction::Dot;
    bool shared = false;
    bool biases = false;
    bool edits = false;       // overrides and scales on a query, a key and a value
    bool customMask = false;  // row 1 fully masked, row 3 allows key 0 only
    long heads = 1;
    bool outputProjection = false;  // W_O present (else the output is the concatenation)
    std::uint64_t seed = 1;
};

inline AttentionInput makeGradInput(const GradCase& c)
{
    RandomSpec spec;
    spec.n = 5;
    spec.m = 6;
    spec.dModel = 4;
    spec.dK = 3;
    spec.dV = 3;
    spec.dAdditive = 3;
    spec.heads = c.heads;
    spec.mode = c.mode;
    spec.seed = c.seed;
    AttentionInput in = randomInput(spec);
    Rng rng(c.seed * 7919 + 17);
    in.scaling = c.scaling;
    in.temperature = c.temperature;
    in.score = c.score;
    in.sharedProjections = c.shared;
    if (c.outputProjection && in.W_O.size() == 0)
        in.W_O = randomNormal(c.heads * spec.dV, spec.dModel, rng, 0.6);
    if (!c.outputProjection) in.W_O.resize(0, 0);
    if (c.biases) {
        for (HeadParams& p : in.heads) {
            p.b_Q = randomVector(spec.dK, rng, 0.5);
            p.b_K = randomVector(spec.dK, rng, 0.5);
            p.b_V = randomVector(spec.dV, rng, 0.5);
        }
    }
    if (c.edits) {
        in.edits.push_back({Role::Query, 0, 1, 1.7, {{0, 0.5}}});
        in.edits.push_back({Role::Key, 0, 2, -0.8, {{1, -0.3}}});
        in.edits.push_back({Role::Value, 0, 0, 2.0, {{2, 1.1}, {0, -0.4}}});
        if (c.heads > 1) in.edits.push_back({Role::Key, 1, 0, 3.0, {}});
    }
    if (c.customMask) {
        const long n = in.queryCount();
        const long m = in.keyCount();
        BoolMatrix mask(n, m);
        for (long i = 0; i < n; ++i) {
            for (long j = 0; j < m; ++j) mask(i, j) = rng.uniform() < 0.7 || j == 0;
        }
        mask.row(1).setConstant(false);
        mask.row(3).setConstant(false);
        mask(3, 0) = true;
        in.mask = mask;
    }
    return in;
}

}  // namespace attn::test
