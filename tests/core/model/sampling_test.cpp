// SPDX-License-Identifier: GPL-3.0-or-later
// Choosing the next token: greedy is the argmax; temperature, top-k, top-p, the repetition
// penalty and bad words give the distribution PyTorch gives written as Hugging Face's processors
// (tests/reference/make_sampling_reference.py); draws follow it; a seed gives the same draws.
#include "core/model/sampling.h"

#include <cmath>
#include <gtest/gtest.h>
#include <map>

#include "core/model/forward.h"
#include "model_files.h"

namespace attn::model {
namespace {

using test::json;

struct Reference {
    Eigen::VectorXf logits;
    std::vector<int> text;
    json cases;
};

Reference reference()
{
    const json j = json::parse(
        test::readBytes(test::fs::path(ATTNLAB_FIXTURE_DIR) / "sampling_reference.json"));
    Reference r;
    const auto logits = j["logits"].get<std::vector<float>>();
    r.logits = Eigen::Map<const Eigen::VectorXf>(logits.data(), static_cast<long>(logits.size()));
    r.text = j["text"].get<std::vector<int>>();
    r.cases = j["cases"];
    return r;
}

SamplingSettings settingsOf(const json& c)
{
    SamplingSettings s;
    s.temperature = c["temperature"].get<double>();
    s.topK = c["top_k"].get<int>();
    s.topP = c["top_p"].get<double>();
    s.repetitionPenalty = c.value("repetition_penalty", 1.0);
    if (c.contains("bad_words_ids"))
        s.badWords = c["bad_words_ids"].get<std::vector<std::vector<int>>>();
    return s;
}

// The probability each id is drawn with: the kept tokens' renormalised probabilities.
std::vector<double> drawProbabilities(const TokenDraw& d, long vocab)
{
    std::vector<double> p(static_cast<std::size_t>(vocab), 0.0);
    for (long i = 0; i < d.kept; ++i)
        p[static_cast<std::size_t>(d.ranked[static_cast<std::size_t>(i)].id)] =
            d.keptProbability[static_cast<std::size_t>(i)];
    return p;
}

TEST(Sampling, TheKeptDistributionIsPyTorchsUnderHuggingFacesWarpers)
{
    const Reference r = reference();
    for (const json& c : r.cases) {
        SCOPED_TRACE(c.dump());
        const SamplingSettings s = settingsOf(c);
        ASSERT_TRUE(checkSampling(s).ok());
        TokenRng rng(1);
        const TokenDraw d = chooseToken(r.logits, r.text, s, rng);
        const auto want = c["probabilities"].get<std::vector<double>>();
        const std::vector<double> got = drawProbabilities(d, r.logits.size());
        // Both in double from the same float logits: only the order of the sums differs.
        for (std::size_t i = 0; i < want.size(); ++i)
            EXPECT_NEAR(got[i], want[i], 1e-12) << "id " << i;
    }
}

TEST(Sampling, DrawsFollowTheKeptDistribution)
{
    const Reference r = reference();
    constexpr int kDraws = 100000;
    double worstSigmas = 0.0;
    for (const json& c : r.cases) {
        SCOPED_TRACE(c.dump());
        const SamplingSettings s = settingsOf(c);
        const auto want = c["probabilities"].get<std::vector<double>>();
        TokenRng rng(42);
        std::vector<int> counts(want.size(), 0);
        for (int i = 0; i < kDraws; ++i)
            ++counts[static_cast<std::size_t>(chooseToken(r.logits, r.text, s, rng, 0).id)];
        for (std::size_t i = 0; i < want.size(); ++i) {
            // Five standard deviations of a binomial count: a wrong cut or an off-by-one in the
            // walk moves a token's share by far more; a fair draw strays past it once in 1.7
            // million comparisons.
            const double sigma = std::sqrt(kDraws * want[i] * (1.0 - want[i]));
            EXPECT_NEAR(counts[i], kDraws * want[i], 5.0 * sigma + 1.0) << "id " << i;
            if (sigma > 0)
                worstSigmas = std::max(worstSigmas, std::abs(counts[i] - kDraws * want[i]) / sigma);
            if (want[i] == 0.0) {
                EXPECT_EQ(counts[i], 0) << "id " << i << " was cut";
            }
        }
    }
    RecordProperty("worst_deviation_in_sigmas", std::to_string(worstSigmas));
}

TEST(Sampling, GreedyIsTheArgmaxWithTiesToTheLowerIdAndDrawsNothing)
{
    Eigen::VectorXf logits(6);
    logits << 0.5f, 2.0f, -1.0f, 2.0f, 1.9f, 0.0f;
    TokenRng rng(3);
    const TokenRng untouched = rng;
    SamplingSettings greedy;
    const TokenDraw d = chooseToken(logits, {}, greedy, rng);
    EXPECT_EQ(d.id, 1);
    EXPECT_TRUE(d.greedy);
    EXPECT_EQ(d.kept, 1);
    TokenRng copy = untouched;
    EXPECT_EQ(rng.next(), copy.next()) << "greedy read the generator";
    // Top-k and top-p do not change what greedy means; bad words and the penalty do.
    greedy.topK = 3;
    greedy.topP = 0.1;
    EXPECT_EQ(chooseToken(logits, {}, greedy, rng).id, 1);
    greedy.badWords = {{1}};
    const TokenDraw closed = chooseToken(logits, {}, greedy, rng);
    EXPECT_EQ(closed.id, 3);
    EXPECT_EQ(closed.closed, std::vector<int>{1});
}

TEST(Sampling, ASeedGivesTheSameDrawsAndAnotherSeedOthers)
{
    const Reference r = reference();
    const SamplingSettings s = settingsOf(r.cases[0]);
    std::vector<int> a, b, other;
    TokenRng ra(2026), rb(2026), ro(2027);
    for (int i = 0; i < 64; ++i) {
        a.push_back(chooseToken(r.logits, r.text, s, ra).id);
        b.push_back(chooseToken(r.logits, r.text, s, rb).id);
        other.push_back(chooseToken(r.logits, r.text, s, ro).id);
    }
    EXPECT_EQ(a, b);
    EXPECT_NE(a, other);
    // xoshiro256** seeded by splitmix64 from 0: its first output, as the reference C code gives.
    TokenRng zero(0);
    EXPECT_EQ(zero.next(), 0x99EC5F36CB75F2B4ULL);
}

TEST(Sampling, SettingsOutsideTheirRangeAreRefusedByName)
{
    const auto field = [](SamplingSettings s) { return checkSampling(s).field; };
    SamplingSettings s;
    s.temperature = -0.1;
    EXPECT_EQ(field(s), "temperature");
    s.temperature = std::nan("");
    EXPECT_EQ(field(s), "temperature");
    s = {};
    s.topP = 0.0;
    EXPECT_EQ(field(s), "top_p");
    s.topP = 1.01;
    EXPECT_EQ(field(s), "top_p");
    s = {};
    s.topK = -1;
    EXPECT_EQ(field(s), "top_k");
    s = {};
    s.repetitionPenalty = 0.0;
    EXPECT_EQ(field(s), "repetition_penalty");
    s = {};
    s.badWords = {{}};
    EXPECT_EQ(field(s), "bad_words_ids");
    EXPECT_TRUE(checkSampling({}).ok());
}

}  // namespace
}  // namespace attn::model
