// SPDX-License-Identifier: GPL-3.0-or-later
// forwardReusing: a GPT-2 run that reuses an earlier run's rows up to the first changed token
// gives what a full forward() gives (every layer's maps, the residual stream, logits and
// predictions), for the edits typing makes; BERT and head hooks fall back to a full pass.
#include <gtest/gtest.h>

#include "core/model/forward.h"
#include "model_files.h"
#include "same_run.h"

namespace attn::model {
namespace {

// Fewer rows through the same products may round differently in the last bits: one fresh row
// is a matrix-vector product (Eigen's), summed in another order than the packed kernel's that
// a full pass uses. Relative to the value, absolute below 1; a row computed from the wrong
// cached rows is off by 1e-2 or more.
constexpr float kReuseTolerance = 5e-6f;

ForwardOptions typing()
{
    ForwardOptions o;
    o.keepTypingCache = true;
    return o;
}

TEST(ForwardReusing, TypingEditsGiveWhatAFullPassGives)
{
    Model model;
    ASSERT_TRUE(Model::load(test::modelFixture("gpt2_tiny").string(), model).ok());
    const std::vector<int> base{5, 9, 2, 33, 17, 8, 40, 12};
    ForwardResult previous;
    ASSERT_TRUE(forward(model, base, typing(), previous).ok());
    const std::vector<std::vector<int>> edits{
        {5, 9, 2, 33, 17, 8, 40, 12, 3},  // a token typed at the end
        {5, 9, 2, 33, 17, 8, 40, 21},     // the last token changed
        {5, 9, 2, 33, 17, 8, 40},         // the last token deleted
        {5, 9, 2, 1, 17, 8, 40, 12},      // a token in the middle changed
        {5, 9, 2, 33, 17, 8, 40, 12},     // nothing changed
        {7, 9, 2, 33},                    // the first token changed: nothing in common
    };
    for (const std::vector<int>& ids : edits) {
        ForwardResult full, reused;
        ASSERT_TRUE(forward(model, ids, typing(), full).ok());
        const attn::Status s = forwardReusing(model, ids, typing(), previous, reused);
        ASSERT_TRUE(s.ok()) << attn::describe(s);
        SCOPED_TRACE(ids.size());
        test::expectSameRun(reused, full, {kReuseTolerance, kReuseTolerance, 1e-5f});
    }
}

TEST(ForwardReusing, AChainOfEditsStaysExactAndBertRunsInFull)
{
    Model model;
    ASSERT_TRUE(Model::load(test::modelFixture("gpt2_tiny").string(), model).ok());
    std::vector<int> ids{1, 2, 3};
    ForwardResult run;
    ASSERT_TRUE(forward(model, ids, typing(), run).ok());
    for (int k = 0; k < 12; ++k) {  // each run reuses the one before
        ids.push_back((k * 7 + 4) % 64);
        ForwardResult next, full;
        ASSERT_TRUE(forwardReusing(model, ids, typing(), run, next).ok());
        ASSERT_TRUE(forward(model, ids, typing(), full).ok());
        test::expectSameRun(next, full, {kReuseTolerance, kReuseTolerance, 1e-5f});
        run = std::move(next);
    }

    Model bert;
    ASSERT_TRUE(Model::load(test::modelFixture("bert_tiny").string(), bert).ok());
    ForwardResult before, full, reused;
    ASSERT_TRUE(forward(bert, std::vector<int>{2, 5, 6, 3}, typing(), before).ok());
    const std::vector<int> changed{2, 5, 7, 3};
    ASSERT_TRUE(forward(bert, changed, typing(), full).ok());
    ASSERT_TRUE(forwardReusing(bert, changed, typing(), before, reused).ok());
    // Bidirectional: a change reaches every row, and the full pass is taken.
    EXPECT_NE(full.layers[0].attention[0](0, 1), before.layers[0].attention[0](0, 1));
    test::expectSameRun(reused, full, {kReuseTolerance, kReuseTolerance, 1e-5f});
}

TEST(ForwardReusing, WithoutTheTypingCacheARunKeepsOnlyLayerInputsAndRunsInFull)
{
    Model model;
    ASSERT_TRUE(Model::load(test::modelFixture("gpt2_tiny").string(), model).ok());
    const std::vector<int> ids{5, 9, 2, 33, 17};
    ForwardResult lean, cached;
    ASSERT_TRUE(forward(model, ids, {}, lean).ok());
    ASSERT_TRUE(forward(model, ids, typing(), cached).ok());
    const long n = static_cast<long>(ids.size());
    const long d = model.config().width;
    for (std::size_t l = 0; l < lean.layers.size(); ++l) {
        EXPECT_EQ(lean.layers[l].normed.size(), 0);
        EXPECT_EQ(lean.layers[l].projections.size(), 0);
        EXPECT_EQ(cached.layers[l].projections.cols(), 3 * d);
        // The attention input is computed again, equal to the kept one.
        EXPECT_LE(test::worstRelative(attentionInput(model, lean, static_cast<int>(l)),
                                      cached.layers[l].normed),
                  0.0f);
    }
    // The cache a re-run starts from: n x d per layer; with the typing cache 5 n x d.
    const std::size_t layers = lean.layers.size();
    const std::size_t rest = static_cast<std::size_t>(lean.residual.size() +
                                                      lean.finalHidden.size() + lean.logits.size());
    EXPECT_EQ(cachedBytes(lean), (layers * n * d + rest) * sizeof(float));
    EXPECT_EQ(cachedBytes(cached), (5 * layers * n * d + rest) * sizeof(float));
    // A lean previous run cannot be reused: the result is still a full pass's.
    std::vector<int> more = ids;
    more.push_back(7);
    ForwardResult reused, full;
    ASSERT_TRUE(forwardReusing(model, more, typing(), lean, reused).ok());
    ASSERT_TRUE(forward(model, more, typing(), full).ok());
    test::expectSameRun(reused, full, {kReuseTolerance, kReuseTolerance, 1e-5f});
}

}  // namespace
}  // namespace attn::model
