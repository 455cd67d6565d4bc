// SPDX-License-Identifier: GPL-3.0-or-later
// Long decoder runs keep every head's map pooled (ForwardOptions::poolAbove): the pooled cells
// must be the largest weights of their blocks of the whole run's map, the run's logits the
// whole run's, and exactMap() must make any head's whole map again from the layer's kept input,
// edits and sliding windows included. attendCausal itself must agree with the core's head
// pass (attendProjected) to float rounding.
#include <cmath>
#include <gtest/gtest.h>
#include <random>

#include "core/attend_projected.h"
#include "core/model/aggregate.h"
#include "core/model/causal_head.h"
#include "core/model/head_edit.h"
#include "model_files.h"

namespace attn::model {
namespace {

using test::decoderFixture;
using test::json;

constexpr float kPooledSameMap = 1e-6f;     // float rounding between two float head passes
constexpr float kPooledSameLogits = 1e-5f;  // the same layers after maps made either way

FloatMatrix pooledRandom(long rows, long cols, std::mt19937& rng, float scale)
{
    std::normal_distribution<float> d(0.0f, scale);
    FloatMatrix m(rows, cols);
    for (long i = 0; i < m.size(); ++i) m.data()[i] = d(rng);
    return m;
}

BoolMatrix pooledWindowMask(long n, long window)
{
    BoolMatrix mask(n, n);
    for (long i = 0; i < n; ++i)
        for (long j = 0; j < n; ++j) mask(i, j) = j <= i && i - j < window;
    return mask;
}

TEST(AttendCausal, EqualsTheHeadPass_WithAndWithoutAWindow)
{
    std::mt19937 rng(7);
    for (const long n : {1L, 5L, 70L, 300L})
        for (const long window : {0L, 3L, 100L}) {
            SCOPED_TRACE("n " + std::to_string(n) + " window " + std::to_string(window));
            HeadResultT<float> hr;
            hr.Q = pooledRandom(n, 16, rng, 1.5f);
            hr.K = pooledRandom(n, 16, rng, 1.5f);
            hr.V = pooledRandom(n, 8, rng, 1.0f);
            const Status s = window > 0 ? attendProjectedMasked<float>(pooledWindowMask(n, window),
                                                                       Scaling::SqrtDk, hr)
                                        : attendProjected<float>(Mode::Causal, Scaling::SqrtDk, hr);
            ASSERT_TRUE(s.ok());
            CausalHeadInput in;
            in.q = hr.Q.data();
            in.ldq = 16;
            in.k = hr.K.data();
            in.ldk = 16;
            in.v = hr.V.data();
            in.ldv = 8;
            in.n = n;
            in.dh = 16;
            in.dv = 8;
            in.window = window;
            in.divisor = 4.0f;
            FloatMatrix weights, output;
            PooledMap pooled;
            float first = -1.0f;
            CausalHeadOutput out;
            out.weights = &weights;
            out.output = &output;
            out.pooled = &pooled;
            out.side = 16;
            out.firstShare = &first;
            ASSERT_TRUE(attendCausal(in, out).ok());
            EXPECT_LT((weights - hr.weights).cwiseAbs().maxCoeff(), kPooledSameMap);
            EXPECT_LT((output - hr.output).cwiseAbs().maxCoeff(), 1e-5f);
            for (long i = 0; i < n; ++i)
                for (long j = 0; j < n; ++j)
                    if (hr.weights(i, j) == 0.0f) {
                        ASSERT_EQ(weights(i, j), 0.0f) << "a closed cell is exactly 0";
                    }
            const PooledMap want = poolMap(weights, pooled.block);
            EXPECT_EQ(pooled.block, poolBlock(n, 16));
            EXPECT_EQ((pooled.cells - want.cells).cwiseAbs().maxCoeff(), 0.0f);
            const double share =
                n > 1 ? hr.weights.col(0).tail(n - 1).cast<double>().sum() / (n - 1) : 0.0;
            EXPECT_NEAR(first, share, 1e-6);
            EXPECT_NEAR(firstShareOf(hr.weights), share, 1e-6);
        }
}

TEST(PoolMap, EachCellIsTheLargestWeightOfItsBlock_RemaindersIncluded)
{
    std::mt19937 rng(3);
    const FloatMatrix m = pooledRandom(23, 23, rng, 1.0f);
    const PooledMap p = poolMap(m, 5);
    ASSERT_EQ(p.cells.rows(), 5);
    ASSERT_EQ(p.cells.cols(), 5);
    for (long a = 0; a < 5; ++a)
        for (long b = 0; b < 5; ++b) {
            float best = -INFINITY;
            for (long i = a * 5; i < std::min(23L, a * 5 + 5); ++i)
                for (long j = b * 5; j < std::min(23L, b * 5 + 5); ++j)
                    best = std::max(best, m(i, j));
            EXPECT_EQ(p.cells(a, b), std::max(best, 0.0f));  // weights are >= 0: cells start at 0
        }
    EXPECT_EQ(poolBlock(4096, 512), 8);
    EXPECT_EQ(poolBlock(8192, 512), 16);
    EXPECT_EQ(poolBlock(3000, 512), 8);  // a power of two: 6 would do, 8 merges from 4
    EXPECT_EQ(poolBlock(2048, 512), 4);
    EXPECT_EQ(poolBlock(2049, 512), 8);
    EXPECT_EQ(poolBlock(100, 512), 1);
}

// A pooled map grown row by row, its block doubled by merging 2 x 2 cells, is the map pooled
// at once by the final block.
TEST(PoolMap, GrowingAndMergingGivesTheMapPooledAtOnce)
{
    std::mt19937 rng(5);
    const FloatMatrix m = pooledRandom(37, 37, rng, 1.0f);
    PooledMap grown;
    grown.block = 1;
    for (long n = 1; n <= m.rows(); ++n) {
        growPooled(grown, n, 4);
        poolRow(&m(n - 1, 0), 0, n, grown.block, &grown.cells((n - 1) / grown.block, 0));
    }
    FloatMatrix lower = m.triangularView<Eigen::Lower>();
    const PooledMap once = poolMap(lower, poolBlock(37, 4));
    EXPECT_EQ(grown.block, 16);
    EXPECT_EQ(grown.n, 37);
    EXPECT_EQ(grown.cells, once.cells);
}

struct PooledPair {
    Model model;
    std::vector<int> ids;
    ForwardResult whole, pooled;
};

void runWholeAndPooled(const std::string& name, PooledPair& r, bool typingCache = false)
{
    ASSERT_TRUE(Model::load(decoderFixture(name).string(), r.model).ok());
    const json want = json::parse(test::readBytes(decoderFixture(name) / "expected.json"));
    r.ids = want["ids"].get<std::vector<int>>();
    ForwardOptions options;
    options.allLogits = true;
    options.keepTypingCache = typingCache;
    ASSERT_TRUE(forward(r.model, r.ids, options, r.whole).ok());
    options.poolAbove = 4;
    options.poolSide = 3;  // blocks of several cells even at the fixtures' lengths
    ASSERT_TRUE(forward(r.model, r.ids, options, r.pooled).ok());
}

class PooledRuns : public ::testing::TestWithParam<const char*> {};

TEST_P(PooledRuns, PooledCellsLogitsAndExactMapsAreTheWholeRunsOwn)
{
    PooledPair r;
    ASSERT_NO_FATAL_FAILURE(runWholeAndPooled(GetParam(), r));
    const ModelConfig& c = r.model.config();
    EXPECT_LT((r.pooled.logits - r.whole.logits).cwiseAbs().maxCoeff(), kPooledSameLogits);
    for (int l = 0; l < c.layers; ++l) {
        const LayerTrace& t = r.pooled.layers[static_cast<std::size_t>(l)];
        ASSERT_TRUE(t.isPooled());
        LayerVectors vectors;
        ASSERT_TRUE(layerVectors(r.model, r.pooled, l, false, vectors).ok());
        EXPECT_EQ(vectors.Q.cols(), c.heads * c.headDim());
        EXPECT_EQ(vectors.K.cols(), c.kvHeads * c.headDim());
        EXPECT_EQ(vectors.V.size(), 0);
        ASSERT_EQ(static_cast<long>(t.pooled.size()), c.heads);
        EXPECT_EQ(t.projections.size(), 0)
            << "no queries or keys are kept without the typing cache";
        for (int h = 0; h < c.heads; ++h) {
            const FloatMatrix& whole =
                r.whole.layers[static_cast<std::size_t>(l)].attention[static_cast<std::size_t>(h)];
            const PooledMap& p = t.pooled[static_cast<std::size_t>(h)];
            EXPECT_GT(p.block, 1);
            EXPECT_LT((p.cells - poolMap(whole, p.block).cells).cwiseAbs().maxCoeff(),
                      kPooledSameMap);
            FloatMatrix exact;
            ASSERT_TRUE(exactMap(r.model, r.pooled, l, h, exact).ok());
            EXPECT_LT((exact - whole).cwiseAbs().maxCoeff(), kPooledSameMap)
                << "layer " << l << " head " << h;
            FloatMatrix shared;
            ASSERT_TRUE(exactMap(r.model, r.pooled, vectors, h, shared).ok());
            EXPECT_LT((shared - whole).cwiseAbs().maxCoeff(), kPooledSameMap)
                << "from the layer's vectors: layer " << l << " head " << h;
            EXPECT_NEAR(
                t.firstShare[static_cast<std::size_t>(h)],
                r.whole.layers[static_cast<std::size_t>(l)].firstShare[static_cast<std::size_t>(h)],
                1e-6);
        }
    }
    EXPECT_FALSE(pooledHeadAverage(r.pooled.layers.front()).cells.size() == 0);
    EXPECT_EQ(headAverage(r.pooled.layers.front()).size(), 0);
}

INSTANTIATE_TEST_SUITE_P(Families, PooledRuns,
                         ::testing::Values("llama3_tied_bf16", "mistral_window_f32",
                                           "qwen2_bias_bf16", "qwen3_qknorm_bf16"));

TEST(PooledRun, AnEditedRunsExactMapIsTheEditedMap)
{
    PooledPair r;
    ASSERT_NO_FATAL_FAILURE(runWholeAndPooled("qwen3_qknorm_bf16", r));
    const std::vector<HeadEdit> edits{{HeadEditKind::Key, 1, 2, 2, 3.0f},
                                      {HeadEditKind::Query, 0, 1, 4, 0.5f}};
    ForwardOptions options;
    options.allLogits = true;
    ForwardResult wholeEdited, pooledEdited;
    ASSERT_TRUE(runEdited(r.model, r.whole, edits, options, wholeEdited).ok());
    options.poolAbove = 4;
    options.poolSide = 3;
    ASSERT_TRUE(runEdited(r.model, r.pooled, edits, options, pooledEdited).ok());
    EXPECT_LT((pooledEdited.logits - wholeEdited.logits).cwiseAbs().maxCoeff(), kPooledSameLogits);
    const HeadHook hook = withEdits({}, edits, r.model.config().groupSize()).hook;
    for (const auto& [layer, head] : {std::pair{1, 2}, std::pair{1, 3}, std::pair{0, 1}}) {
        FloatMatrix exact;
        ASSERT_TRUE(exactMap(r.model, pooledEdited, layer, head, exact, hook).ok());
        const FloatMatrix& want = wholeEdited.layers[static_cast<std::size_t>(layer)]
                                      .attention[static_cast<std::size_t>(head)];
        EXPECT_LT((exact - want).cwiseAbs().maxCoeff(), kPooledSameMap) << layer << " " << head;
        LayerVectors vectors;
        ASSERT_TRUE(layerVectors(r.model, pooledEdited, layer, true, vectors).ok());
        FloatMatrix shared;
        ASSERT_TRUE(exactMap(r.model, pooledEdited, vectors, head, shared, hook).ok());
        EXPECT_LT((shared - want).cwiseAbs().maxCoeff(), kPooledSameMap) << layer << " " << head;
    }
    LayerVectors noValues, otherLayer;
    ASSERT_TRUE(layerVectors(r.model, pooledEdited, 1, false, noValues).ok());
    FloatMatrix refused;
    EXPECT_EQ(exactMap(r.model, pooledEdited, noValues, 2, refused, hook).code,
              StatusCode::TensorShape)
        << "a hook is given the head's values, which these vectors do not hold";
    EXPECT_EQ(layerVectors(r.model, pooledEdited, 9, false, otherLayer).code, StatusCode::BadLayer);
    FloatMatrix withoutEdits;
    ASSERT_TRUE(exactMap(r.model, pooledEdited, 1, 2, withoutEdits).ok());
    EXPECT_GT((withoutEdits - wholeEdited.layers[1].attention[2]).cwiseAbs().maxCoeff(), 1e-3f)
        << "the map is the edited one because the hook is made again";
    // The change grid compares pooled cells: the edited head changed, an earlier one did not.
    const auto change = attentionChange(r.pooled, pooledEdited);
    ASSERT_EQ(change.size(), 2u);
    EXPECT_GT(change[1][2], 1e-3f);
    EXPECT_EQ(change[0][0], 0.0f);
}

TEST(PooledRun, TypingReusesThePrefixOfAPooledRun)
{
    PooledPair r;
    ASSERT_NO_FATAL_FAILURE(runWholeAndPooled("llama3_tied_bf16", r, true));
    ForwardOptions options;
    options.allLogits = true;
    options.keepTypingCache = true;
    options.poolAbove = 4;
    options.poolSide = 3;
    const std::vector<int> shorter(r.ids.begin(), r.ids.end() - 2);
    ForwardResult prefix, typed;
    ASSERT_TRUE(forward(r.model, shorter, options, prefix).ok());
    ASSERT_TRUE(forwardReusing(r.model, r.ids, options, prefix, typed).ok());
    // The prefix's rows were projected in a product of another height: they round differently,
    // within the bounds against float64 (maps 1e-5, logits 1e-4).
    EXPECT_LT((typed.logits - r.pooled.logits).cwiseAbs().maxCoeff(), 1e-4f);
    FloatMatrix exact;
    ASSERT_TRUE(exactMap(r.model, typed, 1, 0, exact).ok());
    EXPECT_LT((exact - r.whole.layers[1].attention[0]).cwiseAbs().maxCoeff(), 1e-5f);
}

TEST(PooledRun, ScoresAreRecomputedFromTheKeptQueriesAndKeys)
{
    PooledPair r;
    ASSERT_NO_FATAL_FAILURE(runWholeAndPooled("mistral_window_f32", r));
    float score = 0.0f;
    ASSERT_TRUE(headScore(r.model, r.pooled, 0, 1, 5, 3, score));
    // The weights of row 5 are the softmax of its scores: their ratio is e^(s_a - s_b).
    float other = 0.0f;
    ASSERT_TRUE(headScore(r.model, r.pooled, 0, 1, 5, 4, other));
    const FloatMatrix& w = r.whole.layers[0].attention[1];
    EXPECT_NEAR(std::log(w(5, 3) / w(5, 4)), score - other, 1e-4);
    EXPECT_FALSE(headScore(r.model, r.pooled, 0, 1, 5, 99, score));
    FloatMatrix none;
    EXPECT_FALSE(exactMap(r.model, r.pooled, 9, 0, none).ok());
}

}  // namespace
}  // namespace attn::model
