// SPDX-License-Identifier: GPL-3.0-or-later
// Behaviour of backward() beyond its numbers: cotangent checks, what is left empty, and the
// structural zeros (shared projections, overridden components, fully masked rows).

#include <gtest/gtest.h>

#include "support/grad_check.h"
#include "train/grad_cases.h"

namespace attn::test {
namespace {

struct Fixture {
    AttentionInput in;
    AttentionResult r;
    CotangentT<double> seed;
};

Fixture make(const GradCase& c)
{
    Fixture f;
    f.in = makeGradInput(c);
    EXPECT_TRUE(computeAttention<double>(f.in, f.r).ok());
    Rng rng(5);
    f.seed.output = randomNormal(f.r.output.rows(), f.r.output.cols(), rng);
    return f;
}

TEST(GradBackward, WrongCotangentShapesAndNonFiniteValuesAreRefusedAndGradsUntouched)
{
    Fixture f = make({.heads = 2, .outputProjection = true});
    GradientsT<double> grads;
    grads.W_O = Matrix::Constant(1, 1, 42.0);

    CotangentT<double> bad = f.seed;
    bad.weights = {Matrix::Zero(5, 5), Matrix::Zero(4, 5)};
    Status s = backward<double>(f.in, f.r, bad, grads);
    EXPECT_EQ(s.code, StatusCode::ShapeMismatch);
    EXPECT_EQ(s.field, "cotangent.weights");
    EXPECT_EQ(s.head, 1);
    EXPECT_EQ(describe(s).rfind("head 2, cotangent.weights: ", 0), 0u) << describe(s);
    EXPECT_EQ(s.expectedRows, 5);

    bad = f.seed;
    bad.scaled = {Matrix::Zero(5, 5)};
    s = backward<double>(f.in, f.r, bad, grads);
    EXPECT_EQ(s.code, StatusCode::ShapeMismatch);
    EXPECT_EQ(s.field, "cotangent.scaled");

    bad = f.seed;
    bad.output = Matrix::Zero(5, 3);
    s = backward<double>(f.in, f.r, bad, grads);
    EXPECT_EQ(s.code, StatusCode::ShapeMismatch);
    EXPECT_EQ(s.field, "cotangent.output");

    bad = f.seed;
    bad.output(2, 1) = NAN;
    s = backward<double>(f.in, f.r, bad, grads);
    EXPECT_EQ(s.code, StatusCode::NonFinite);
    EXPECT_EQ(s.field, "cotangent.output");
    EXPECT_EQ(s.row, 2);
    EXPECT_EQ(s.col, 1);

    bad = f.seed;
    bad.scaled = {Matrix::Zero(5, 5), Matrix::Zero(5, 5)};
    bad.scaled[0](0, 4) = INFINITY;
    s = backward<double>(f.in, f.r, bad, grads);
    EXPECT_EQ(s.code, StatusCode::NonFinite);
    EXPECT_EQ(s.field, "cotangent.scaled");
    EXPECT_EQ(s.head, 0);

    ASSERT_EQ(grads.W_O.size(), 1);
    EXPECT_EQ(grads.W_O(0, 0), 42.0);
    EXPECT_TRUE(grads.heads.empty());
}

TEST(GradBackward, EmbeddingGradientsOnlyWhenAskedAndYOnlyInCrossMode)
{
    Fixture self = make({});
    GradientsT<double> g;
    ASSERT_TRUE(backward<double>(self.in, self.r, self.seed, g).ok());
    EXPECT_EQ(g.X.size(), 0);
    EXPECT_EQ(g.Y.size(), 0);
    EXPECT_EQ(g.W_O.size(), 0);  // no W_O
    BackwardOptions options;
    options.embeddings = true;
    ASSERT_TRUE(backward<double>(self.in, self.r, self.seed, g, options).ok());
    EXPECT_EQ(g.X.rows(), 5);
    EXPECT_EQ(g.Y.size(), 0);

    Fixture cross = make({.mode = Mode::Cross});
    ASSERT_TRUE(backward<double>(cross.in, cross.r, cross.seed, g, options).ok());
    EXPECT_EQ(g.X.rows(), 5);
    EXPECT_EQ(g.Y.rows(), 6);
    EXPECT_EQ(g.Y.cols(), 4);
}

TEST(GradBackward, SharedProjectionsPutEverythingIntoW_QAndB_Q)
{
    Fixture f = make({.shared = true, .biases = true});
    GradientsT<double> g;
    ASSERT_TRUE(backward<double>(f.in, f.r, f.seed, g).ok());
    const HeadGradientsT<double>& h = g.heads[0];
    EXPECT_GT(h.W_Q.norm(), 0);
    EXPECT_GT(h.b_Q.norm(), 0);
    EXPECT_EQ(h.W_K.norm(), 0);
    EXPECT_EQ(h.W_V.norm(), 0);
    EXPECT_EQ(h.b_K.norm(), 0);
    EXPECT_EQ(h.b_V.norm(), 0);
    EXPECT_EQ(h.W_a.size(), 0);  // dot scoring
}

TEST(GradBackward, NoBiasGivesEmptyBiasGradientsAndAdditiveFillsItsParameters)
{
    Fixture f = make({.score = ScoreFunction::Additive});
    GradientsT<double> g;
    ASSERT_TRUE(backward<double>(f.in, f.r, f.seed, g).ok());
    EXPECT_EQ(g.heads[0].b_Q.size(), 0);
    EXPECT_EQ(g.heads[0].b_K.size(), 0);
    EXPECT_EQ(g.heads[0].b_V.size(), 0);
    EXPECT_EQ(g.heads[0].W_a.rows(), 3);
    EXPECT_GT(g.heads[0].U_a.norm(), 0);
    EXPECT_GT(g.heads[0].v.norm(), 0);
}

// A vector whose every component is overridden no longer depends on its token: with one
// query fully overridden, that token's X row gets nothing from the query role.
TEST(GradBackward, FullyOverriddenQueryPassesNothingToItsToken)
{
    GradCase c{.mode = Mode::Cross};
    AttentionInput in = makeGradInput(c);
    in.edits.push_back({Role::Query, 0, 2, 1.5, {{0, 0.1}, {1, 0.2}, {2, 0.3}}});
    AttentionResult r;
    ASSERT_TRUE(computeAttention<double>(in, r).ok());
    CotangentT<double> seed;
    Rng rng(9);
    seed.output = randomNormal(r.output.rows(), r.output.cols(), rng);
    GradientsT<double> g;
    BackwardOptions options;
    options.embeddings = true;
    ASSERT_TRUE(backward<double>(in, r, seed, g, options).ok());
    EXPECT_EQ(g.X.row(2).norm(), 0);  // cross mode: X only feeds queries
    EXPECT_GT(g.X.row(1).norm(), 0);
}

// A fully masked query row has zero weights and output: nothing flows back from it.
TEST(GradBackward, FullyMaskedRowPassesNothingBack)
{
    GradCase c{.mode = Mode::Cross, .customMask = true};
    AttentionInput in = makeGradInput(c);
    AttentionResult r;
    ASSERT_TRUE(computeAttention<double>(in, r).ok());
    CotangentT<double> seed;
    seed.output = Matrix::Zero(r.output.rows(), r.output.cols());
    seed.output.row(1).setConstant(1.0);  // row 1 is fully masked
    seed.weights = {Matrix::Zero(5, 6)};
    seed.weights[0].row(1).setConstant(2.0);
    GradientsT<double> g;
    BackwardOptions options;
    options.embeddings = true;
    ASSERT_TRUE(backward<double>(in, r, seed, g, options).ok());
    EXPECT_EQ(g.heads[0].W_Q.norm(), 0);
    EXPECT_EQ(g.heads[0].W_K.norm(), 0);
    EXPECT_EQ(g.heads[0].W_V.norm(), 0);
    EXPECT_EQ(g.X.norm(), 0);
    EXPECT_EQ(g.Y.norm(), 0);
}

// With dot scores, q_i . b_K adds one constant to a whole row of scores, which softmax
// ignores: losses on P and on the output give b_K no gradient (up to round-off).
TEST(GradBackward, KeyBiasOfDotScoresGetsNoGradientThroughSoftmax)
{
    Fixture f = make({.mode = Mode::Causal, .biases = true});
    Rng rng(3);
    f.seed.weights = {randomNormal(5, 5, rng)};
    GradientsT<double> g;
    ASSERT_TRUE(backward<double>(f.in, f.r, f.seed, g).ok());
    EXPECT_LT(g.heads[0].b_K.norm(), 1e-14 * g.heads[0].b_Q.norm());
    EXPECT_GT(g.heads[0].b_V.norm(), 0);
}

}  // namespace
}  // namespace attn::test
