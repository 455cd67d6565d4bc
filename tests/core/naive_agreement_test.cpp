// SPDX-License-Identifier: GPL-3.0-or-later
// The Eigen path against the naive loop reference on random cases of every mode.
#include <gtest/gtest.h>

#include "core/naive_reference.h"
#include "core/random_init.h"
#include "support/matrix_compare.h"

namespace attn {
namespace {

struct Case {
    const char* name;
    RandomSpec spec;
    Scaling scaling = Scaling::SqrtDk;
    double temperature = 1.0;
    ScoreFunction score = ScoreFunction::Dot;
    bool shared = false;
    bool customMask = false;
    bool withEdits = false;
    bool biased = false;
};

// Biases of a real model's projections (x W + b), drawn from the case's seed.
void addBiases(AttentionInput& in, std::uint64_t seed)
{
    Rng rng(seed + 7);
    const auto draw = [&rng](long size) {
        Vector b(size);
        for (long i = 0; i < size; ++i) b[i] = rng.uniform() * 2.0 - 1.0;
        return b;
    };
    for (HeadParams& p : in.heads) {
        p.b_Q = draw(in.keyDim());
        p.b_K = draw(in.keyDim());
        p.b_V = draw(in.valueDim());
    }
}

AttentionInput makeInput(const Case& c)
{
    AttentionInput in = randomInput(c.spec);
    in.scaling = c.scaling;
    in.temperature = c.temperature;
    in.score = c.score;
    in.sharedProjections = c.shared;
    if (c.customMask) {
        Rng rng(c.spec.seed + 99);
        BoolMatrix mask(in.queryCount(), in.keyCount());
        for (long i = 0; i < mask.rows(); ++i)
            for (long j = 0; j < mask.cols(); ++j) mask(i, j) = rng.uniform() < 0.7;
        mask.row(0).setConstant(false);  // one fully masked row in every masked case
        in.mask = mask;
    }
    if (c.biased) addBiases(in, c.spec.seed);
    if (c.withEdits) {
        in.edits.push_back({Role::Key, 0, 1, 2.0, {}});
        in.edits.push_back({Role::Query, 0, 0, 1.0, {{0, 0.75}}});
        in.edits.push_back({Role::Value, 0, 2, -0.5, {{1, 3.0}}});
    }
    return in;
}

std::vector<Case> cases()
{
    std::vector<Case> out;
    const Mode modes[] = {Mode::Self, Mode::Causal, Mode::Cross};
    std::uint64_t seed = 11;
    for (Mode mode : modes) {
        for (long heads : {1L, 3L}) {
            RandomSpec s{7, 5, 6, 4, 3, heads, 5, mode, seed++};
            out.push_back({"plain", s});
            out.push_back({"unscaled", s, Scaling::None});
            out.push_back({"temperature", s, Scaling::Temperature, 0.37});
            out.push_back({"additive", s, Scaling::SqrtDk, 1.0, ScoreFunction::Additive});
            RandomSpec sq = s;
            sq.dV = sq.dK;
            out.push_back({"shared", sq, Scaling::SqrtDk, 1.0, ScoreFunction::Dot, true});
            out.push_back({"masked", s, Scaling::SqrtDk, 1.0, ScoreFunction::Dot, false, true});
            out.push_back(
                {"edited", s, Scaling::SqrtDk, 1.0, ScoreFunction::Dot, false, false, true});
            out.push_back({"everything", s, Scaling::Temperature, 2.5, ScoreFunction::Additive,
                           false, true, true});
            out.push_back(
                {"biased", s, Scaling::SqrtDk, 1.0, ScoreFunction::Dot, false, false, true, true});
            out.push_back({"biased shared", sq, Scaling::SqrtDk, 1.0, ScoreFunction::Dot, true,
                           true, false, true});
            out.push_back({"biased additive", s, Scaling::None, 1.0, ScoreFunction::Additive, false,
                           false, true, true});
        }
    }
    return out;
}

TEST(NaiveAgreement, EigenPathMatchesNaiveLoopsWithin1e12OnEveryMode)
{
    for (const Case& c : cases()) {
        const AttentionInput in = makeInput(c);
        AttentionResult fast, slow;
        ASSERT_TRUE(computeAttention<double>(in, fast).ok()) << c.name;
        ASSERT_TRUE(naiveAttention(in, slow).ok()) << c.name;
        const test::Difference d = test::compareResults(fast, slow);
        EXPECT_LE(d.value, 1e-12) << c.name << " mode " << static_cast<int>(c.spec.mode)
                                  << " heads " << c.spec.heads << ": max difference " << d.value
                                  << " in " << d.where;
    }
}

TEST(NaiveAgreement, FloatPathMatchesDoubleWithin1e5)
{
    for (const Case& c : cases()) {
        const AttentionInput in = makeInput(c);
        AttentionResultT<float> single;
        AttentionResult reference;
        ASSERT_TRUE(computeAttention<float>(in, single).ok()) << c.name;
        ASSERT_TRUE(naiveAttention(in, reference).ok()) << c.name;
        const test::Difference d = test::compareResults(single, reference);
        EXPECT_LE(d.value, 1e-5) << c.name << ": max difference " << d.value << " in " << d.where;
    }
}

TEST(NaiveAgreement, LongerCausalSequenceUsesFastPathAndStillAgrees)
{
    RandomSpec s{96, 96, 16, 8, 8, 2, 4, Mode::Causal, 5};
    const AttentionInput in = randomInput(s);
    AttentionResult fast, slow;
    ASSERT_TRUE(computeAttention<double>(in, fast).ok());
    ASSERT_TRUE(naiveAttention(in, slow).ok());
    EXPECT_EQ(fast.maskKind, MaskKind::Causal);
    const test::Difference d = test::compareResults(fast, slow);
    EXPECT_LE(d.value, 1e-12) << "max difference " << d.value << " in " << d.where;
}

}  // namespace
}  // namespace attn
