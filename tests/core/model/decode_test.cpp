// SPDX-License-Identifier: GPL-3.0-or-later
// Decoding (the key/value cache): a prompt run whole and tokens appended one row at a time give
// what a full forward() of the same ids gives (every layer's input, every head's map, the
// residual stream, logits and prediction), in every causal family the fixtures hold (GPT-2, Llama
// 2 and 3, Mistral's sliding window, Qwen2's biases and sliding layers, Qwen3's q/k norms), and
// with head edits and ablations applied as runEdited applies them.
#include "core/model/decode.h"

#include <gtest/gtest.h>

#include "same_run.h"

namespace attn::model {
namespace {

// One appended row is a matrix-vector product summed in another order than the packed kernel's
// of a whole pass, so the last bits may differ; a row computed from the wrong cache rows (a
// position off by one, a missed rotation) is off by 1e-2 or more. Relative to the value,
// absolute below 1. The maps and the predicted probabilities agree within 1e-5; the residual
// stream and the logits, sums of larger terms that cancel, within 5e-5 (2.7e-5 seen, in the
// BF16 decoders, whose one-row product widens the weights as it reads them).
constexpr float kDecodeTolerance = 1e-5f;
constexpr test::RunTolerances kDecodeTolerances{kDecodeTolerance, 5e-5f, 5e-5f};

// Ids 3, 4, ... wrapped into the vocabulary: a text with repeats, long enough to pass every
// sliding window of the fixtures (4 and 5).
std::vector<int> someIds(long count, long vocab)
{
    std::vector<int> ids;
    for (long i = 0; i < count; ++i) ids.push_back(static_cast<int>((3 + 7 * i) % vocab));
    return ids;
}

// Decodes `prompt` tokens whole and the rest of `ids` one at a time, and checks the result
// after each append against forward() of the ids so far under the same edits.
void expectDecodingIsAWholeRun(const Model& model, const std::vector<int>& ids, long prompt,
                               const std::vector<HeadEdit>& edits = {})
{
    Decoding d;
    ASSERT_TRUE(d.start(model, std::span(ids).first(static_cast<std::size_t>(prompt)), edits).ok());
    for (std::size_t i = static_cast<std::size_t>(prompt); i < ids.size(); ++i) {
        const attn::Status s = d.append(ids[i]);
        ASSERT_TRUE(s.ok()) << describe(s);
        ForwardResult got, want;
        d.result(got);
        const ForwardOptions options =
            edits.empty() ? ForwardOptions{} : withEdits({}, edits, model.config().groupSize());
        ASSERT_TRUE(forward(model, std::span(ids).first(i + 1), options, want).ok());
        SCOPED_TRACE("after token " + std::to_string(i + 1));
        test::expectSameRun(got, want, kDecodeTolerances);
        EXPECT_LE(test::worstRelative(d.logits().transpose(), want.logits),
                  kDecodeTolerances.logits);
    }
}

TEST(Decoding, AppendedTokensGiveWhatAWholeRunGives_Gpt2)
{
    for (const char* name : {"gpt2_tiny", "gpt2_tiny_f16_prefixed"}) {
        SCOPED_TRACE(name);
        const Model model = test::loadModel(test::modelFixture(name));
        expectDecodingIsAWholeRun(model, someIds(20, model.config().vocab), 3);
    }
}

TEST(Decoding, AppendedTokensGiveWhatAWholeRunGives_LlamaFamily)
{
    for (const char* name : {"llama2_sharded_f16", "llama3_tied_bf16", "mistral_window_f32",
                             "qwen2_bias_bf16", "qwen3_qknorm_bf16"}) {
        SCOPED_TRACE(name);
        const Model model = test::loadModel(test::decoderFixture(name));
        expectDecodingIsAWholeRun(model, someIds(16, model.config().vocab), 2);
    }
}

TEST(Decoding, EditsAndAblationsApplyToEveryAppendedToken)
{
    const std::vector<HeadEdit> edits = {
        {HeadEditKind::Key, 0, 1, 1, 3.0f},
        {HeadEditKind::Query, 1, 0, 0, 0.5f},
        {HeadEditKind::Value, 1, 2, 2, -2.0f},
        {HeadEditKind::AblateZero, 0, 3, 0, 1.0f},
        // A position the prompt does not reach: edited from the token written there on.
        {HeadEditKind::Key, 1, 1, 6, 4.0f},
    };
    const Model gpt2 = test::loadModel(test::modelFixture("gpt2_tiny"));
    expectDecodingIsAWholeRun(gpt2, someIds(12, gpt2.config().vocab), 3, edits);
    // Grouped keys and values: a key edit of head 1 acts on its group's key/value head.
    const Model qwen3 = test::loadModel(test::decoderFixture("qwen3_qknorm_bf16"));
    expectDecodingIsAWholeRun(qwen3, someIds(12, qwen3.config().vocab), 3, edits);
}

TEST(Decoding, AMeanAblationRunsTheTextWholeAndStillAgrees)
{
    const Model model = test::loadModel(test::modelFixture("gpt2_tiny"));
    const std::vector<HeadEdit> edits = {{HeadEditKind::AblateMean, 1, 1, 0, 1.0f}};
    Decoding d;
    const std::vector<int> ids = someIds(6, model.config().vocab);
    ASSERT_TRUE(d.start(model, std::span(ids).first(3), edits).ok());
    EXPECT_FALSE(d.incremental());
    expectDecodingIsAWholeRun(model, ids, 3, edits);
}

TEST(Decoding, ARefusedTokenLeavesTheDecodingAsItWas)
{
    const Model model = test::loadModel(test::modelFixture("gpt2_tiny"));
    const std::vector<int> ids = someIds(4, model.config().vocab);
    Decoding d;
    ASSERT_TRUE(d.start(model, ids).ok());
    ForwardResult before;
    d.result(before);
    const attn::Status s = d.append(static_cast<int>(model.config().vocab));
    EXPECT_EQ(s.code, StatusCode::TokenOutOfRange);
    ForwardResult after;
    d.result(after);
    test::expectSameRun(after, before, kDecodeTolerances);
    // Appending after the refusal still agrees with a whole run.
    ASSERT_TRUE(d.append(5).ok());
    std::vector<int> longer = ids;
    longer.push_back(5);
    ForwardResult want;
    ASSERT_TRUE(forward(model, longer, {}, want).ok());
    d.result(after);
    test::expectSameRun(after, want, kDecodeTolerances);
}

TEST(Decoding, TheModelsPositionsBoundTheText)
{
    const Model model = test::loadModel(test::modelFixture("gpt2_tiny"));
    const long positions = model.config().positions;
    Decoding d;
    ASSERT_TRUE(d.start(model, someIds(positions - 1, model.config().vocab)).ok());
    ASSERT_TRUE(d.append(1).ok());
    EXPECT_EQ(d.length(), positions);
    const attn::Status s = d.append(1);
    EXPECT_EQ(s.code, StatusCode::TooLong);
    EXPECT_EQ(d.length(), positions);
}

TEST(Decoding, AModelThatDoesNotWriteIsRefusedByName)
{
    const Model bert = test::loadModel(test::modelFixture("bert_tiny"));
    Decoding d;
    const std::vector<int> ids = {1, 2, 3};
    const attn::Status s = d.start(bert, ids);
    EXPECT_EQ(s.code, StatusCode::UnsupportedModel);
    EXPECT_NE(s.detail.find("does not write"), std::string::npos) << s.detail;
    EXPECT_FALSE(d.started());
}

TEST(Decoding, TheCacheGrowsByDoublingNotByTheToken)
{
    const Model model = test::loadModel(test::modelFixture("gpt2_tiny"));
    Decoding d;
    ASSERT_TRUE(d.start(model, someIds(2, model.config().vocab)).ok());
    std::vector<std::size_t> sizes;
    for (int i = 0; i < 20; ++i) {
        ASSERT_TRUE(d.append(i % 60).ok());
        sizes.push_back(d.cacheBytes());
    }
    // The kept rows grow in steps (16, then 32 rows), not at every token; the maps' triangles
    // grow by their vectors' doubling too.
    long changes = 0;
    for (std::size_t i = 1; i < sizes.size(); ++i) changes += sizes[i] != sizes[i - 1] ? 1 : 0;
    EXPECT_LT(changes, 10) << "the cache was reallocated at " << changes << " of 19 tokens";
    EXPECT_GT(sizes.back(), sizes.front());
}

// A decoder's long text keeps its maps pooled as a whole pooled run of the same ids keeps them:
// whole up to poolAbove tokens, then pooled cells equal to forward()'s (blocks of 2, 4, 8 as
// the text passes 4, 8, 16 tokens), whether the prompt or a written token passes the bound,
// sliding windows included; and exactMap() makes any head's whole map again from what the
// decoding kept.
TEST(Decoding, PastTheBoundTheMapsArePooledAsAWholePooledRunPoolsThem)
{
    constexpr long kAbove = 6;
    constexpr long kSide = 4;
    for (const char* name : {"qwen3_qknorm_bf16", "mistral_window_f32"}) {
        SCOPED_TRACE(name);
        const Model model = test::loadModel(test::decoderFixture(name));
        const std::vector<int> ids = someIds(20, model.config().vocab);
        for (const long prompt : {3L, 9L}) {
            Decoding d;
            ASSERT_TRUE(d.start(model, std::span(ids).first(static_cast<std::size_t>(prompt)), {},
                                10, kAbove, kSide)
                            .ok());
            for (std::size_t i = static_cast<std::size_t>(prompt); i < ids.size(); ++i) {
                ASSERT_TRUE(d.append(ids[i]).ok());
                SCOPED_TRACE("after token " + std::to_string(i + 1));
                ForwardOptions options;
                options.poolAbove = kAbove;
                options.poolSide = kSide;
                ForwardResult got, want;
                d.result(got);
                ASSERT_TRUE(forward(model, std::span(ids).first(i + 1), options, want).ok());
                EXPECT_EQ(d.pooled(), static_cast<long>(i + 1) > kAbove);
                test::expectSameRun(got, want, kDecodeTolerances);
                for (std::size_t l = 0; l < got.layers.size(); ++l) {
                    ASSERT_EQ(got.layers[l].pooled.size(), want.layers[l].pooled.size());
                    for (std::size_t h = 0; h < got.layers[l].pooled.size(); ++h) {
                        const PooledMap& g = got.layers[l].pooled[h];
                        const PooledMap& w = want.layers[l].pooled[h];
                        EXPECT_EQ(g.n, w.n);
                        EXPECT_EQ(g.block, w.block);
                        EXPECT_LE(test::worstRelative(g.cells, w.cells), kDecodeTolerance)
                            << "layer " << l << " head " << h;
                    }
                }
            }
            ForwardResult got, whole;
            d.result(got);
            ASSERT_TRUE(got.layers.back().isPooled());
            ASSERT_TRUE(forward(model, ids, ForwardOptions{}, whole).ok());
            FloatMatrix exact;
            ASSERT_TRUE(exactMap(model, got, 1, 1, exact).ok());
            EXPECT_LE(test::worstRelative(exact, whole.layers[1].attention[1]), kDecodeTolerance);
        }
    }
}

}  // namespace
}  // namespace attn::model
