// SPDX-License-Identifier: GPL-3.0-or-later
// Layer averages and attention rollout against PyTorch (tests/reference/
// make_rollout_reference.py, from the fixtures' own attention) and against a naive loop; and the
// forward pass stopping when its progress callback says so.
#include "core/model/aggregate.h"

#include <cmath>
#include <gtest/gtest.h>

#include "model_files.h"

namespace attn::model {
namespace {

using test::json;

constexpr double kAggregateTolerance = 1e-5;  // float32 products of ≤ 4 layers of n ≤ 12

struct FixtureRun {
    Model model;
    ForwardResult result;
};

void runFixture(const std::string& name, FixtureRun& run)
{
    ASSERT_TRUE(Model::load(test::modelFixture(name).string(), run.model).ok());
    const json want = json::parse(test::readBytes(test::modelFixture(name) / "expected.json"));
    const std::vector<int> ids = want["ids"].get<std::vector<int>>();
    ForwardOptions options;
    options.maskTokenId = want["mask_token_id"].get<int>();
    const attn::Status s = forward(run.model, ids, options, run.result);
    ASSERT_TRUE(s.ok()) << attn::describe(s);
}

double worstAgainst(const std::vector<FloatMatrix>& got, const json& want)
{
    EXPECT_EQ(got.size(), want.size());
    double worst = 0.0;
    for (std::size_t l = 0; l < got.size() && l < want.size(); ++l) {
        const std::vector<double> values = want[l].get<std::vector<double>>();
        const long n = got[l].rows();
        EXPECT_EQ(static_cast<std::size_t>(n * n), values.size());
        for (long i = 0; i < n; ++i)
            for (long j = 0; j < n; ++j)
                worst = std::max(
                    worst, std::abs(got[l](i, j) - values[static_cast<std::size_t>(i * n + j)]));
    }
    return worst;
}

class Aggregates : public ::testing::TestWithParam<const char*> {};

TEST_P(Aggregates, AveragesAndRolloutAgreeWithPyTorch)
{
    FixtureRun run;
    ASSERT_NO_FATAL_FAILURE(runFixture(GetParam(), run));
    std::vector<FloatMatrix> averages;
    for (const LayerTrace& layer : run.result.layers) averages.push_back(headAverage(layer));
    const std::vector<FloatMatrix> rollout = attentionRollout(averages);
    const json want =
        json::parse(test::readBytes(test::modelFixture(GetParam()) / "aggregates.json"));
    EXPECT_LT(worstAgainst(averages, want["averages"]), kAggregateTolerance);
    EXPECT_LT(worstAgainst(rollout, want["rollout"]), kAggregateTolerance);
}

INSTANTIATE_TEST_SUITE_P(Fixtures, Aggregates, ::testing::Values("gpt2_tiny", "bert_tiny"));

TEST(Aggregates, RolloutMatchesANaiveLoopAndKeepsRowsStochastic)
{
    FixtureRun run;
    ASSERT_NO_FATAL_FAILURE(runFixture("gpt2_tiny", run));
    std::vector<FloatMatrix> averages;
    for (const LayerTrace& layer : run.result.layers) averages.push_back(headAverage(layer));
    const std::vector<FloatMatrix> rollout = attentionRollout(averages);
    const long n = averages.front().rows();
    // Naive: double precision, explicit loops.
    std::vector<std::vector<double>> r;
    for (std::size_t l = 0; l < averages.size(); ++l) {
        std::vector<double> a(static_cast<std::size_t>(n * n));
        for (long i = 0; i < n; ++i) {
            double sum = 0.0;
            for (long j = 0; j < n; ++j) {
                double h = 0.0;
                for (const FloatMatrix& w : run.result.layers[l].attention) h += w(i, j);
                h /= static_cast<double>(run.result.layers[l].attention.size());
                a[static_cast<std::size_t>(i * n + j)] = 0.5 * h + (i == j ? 0.5 : 0.0);
                sum += a[static_cast<std::size_t>(i * n + j)];
            }
            for (long j = 0; j < n; ++j) a[static_cast<std::size_t>(i * n + j)] /= sum;
        }
        if (!r.empty()) {
            std::vector<double> p(a.size(), 0.0);
            for (long i = 0; i < n; ++i)
                for (long k = 0; k < n; ++k)
                    for (long j = 0; j < n; ++j)
                        p[static_cast<std::size_t>(i * n + j)] +=
                            a[static_cast<std::size_t>(i * n + k)] *
                            r.back()[static_cast<std::size_t>(k * n + j)];
            a = p;
        }
        r.push_back(a);
        for (long i = 0; i < n; ++i) {
            double rowSum = 0.0;
            for (long j = 0; j < n; ++j) {
                EXPECT_NEAR(rollout[l](i, j), a[static_cast<std::size_t>(i * n + j)],
                            kAggregateTolerance);
                rowSum += rollout[l](i, j);
                // Causal model: nothing flows from a later token, through any number of layers.
                if (j > i) {
                    EXPECT_EQ(rollout[l](i, j), 0.0f);
                }
            }
            EXPECT_NEAR(rowSum, 1.0, kAggregateTolerance);
        }
    }
}

TEST(ForwardProgress, ReportsEveryLayerAndStopsWhenTheCallbackSaysSo)
{
    FixtureRun run;
    ASSERT_NO_FATAL_FAILURE(runFixture("gpt2_tiny", run));
    const std::vector<int> ids = run.result.ids;
    std::vector<int> seen;
    ForwardOptions options;
    options.progress = [&](int done, int total) {
        EXPECT_EQ(total, run.model.config().layers);
        seen.push_back(done);
        return true;
    };
    ForwardResult full;
    ASSERT_TRUE(forward(run.model, ids, options, full).ok());
    std::vector<int> every(static_cast<std::size_t>(run.model.config().layers) + 1);
    for (std::size_t i = 0; i < every.size(); ++i) every[i] = static_cast<int>(i);
    EXPECT_EQ(seen, every);

    options.progress = [](int done, int) { return done < 1; };  // stop before layer 2
    ForwardResult stopped;
    const attn::Status s = forward(run.model, ids, options, stopped);
    EXPECT_EQ(s.code, attn::StatusCode::Cancelled);
    EXPECT_NE(attn::describe(s).find("layer 2"), std::string::npos) << attn::describe(s);
}

TEST(Aggregates, TheStrongestHeadIsTheLargestWeightOfItsCellOverEveryHead)
{
    FixtureRun run;
    ASSERT_NO_FATAL_FAILURE(runFixture("bert_tiny", run));
    const long query = 8, key = 2;
    const HeadWeight best = strongestHead(run.result.layers, query, key);
    ASSERT_GE(best.layer, 0);
    float naive = -1.0f;
    for (const LayerTrace& layer : run.result.layers)
        for (const FloatMatrix& w : layer.attention) naive = std::max(naive, w(query, key));
    EXPECT_EQ(best.weight, naive);
    EXPECT_EQ(run.result.layers[static_cast<std::size_t>(best.layer)]
                  .attention[static_cast<std::size_t>(best.head)](query, key),
              naive);
    EXPECT_EQ(strongestHead(run.result.layers, 99, key).layer, -1);
}

}  // namespace
}  // namespace attn::model
