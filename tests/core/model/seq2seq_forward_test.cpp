// SPDX-License-Identifier: GPL-3.0-or-later
// The encoder-decoders' forward pass (bart, marian, t5) against the plain-PyTorch float64
// reference (tests/reference/make_seq2seq_fixtures.py): every encoder, decoder and cross head's
// map, every logit and the top-10 of every target position, on tiny checkpoints laid out as the
// hub ships them (F32, F16 and BF16; one file, two shards and pytorch_model.bin; tied and
// separate lm_head; relu and gated T5 feed-forwards).
#include "core/model/seq2seq_forward.h"

#include <algorithm>
#include <cmath>
#include <gtest/gtest.h>

#include "model_files.h"

namespace attn::model {
namespace {

using test::json;
using test::seq2seqFixture;

// The bounds: every map within 1e-4 of float64, the top-10 probabilities within 1e-3.
constexpr double kSeq2SeqMapTolerance = 1e-4;
constexpr double kSeq2SeqProbabilityTolerance = 1e-3;

struct Seq2SeqAgreement {
    double maps[3] = {INFINITY, INFINITY, INFINITY};  // encoder, decoder, cross
    double logits = INFINITY;
    double probabilities = INFINITY;
    int topMismatches = -1;
};

// The worst difference of `got` ([layer][head] maps) from `want` ([layer][head][row][col]);
// a cell PyTorch masked (exactly 0) must be exactly 0 here too.
double worstMap(const std::vector<std::vector<FloatMatrix>>& got, const json& want,
                const std::string& what)
{
    double worst = 0.0;
    EXPECT_EQ(got.size(), want.size()) << what;
    for (std::size_t l = 0; l < std::min(got.size(), want.size()); ++l) {
        EXPECT_EQ(got[l].size(), want[l].size()) << what << " layer " << l + 1;
        for (std::size_t h = 0; h < std::min(got[l].size(), want[l].size()); ++h) {
            const FloatMatrix& m = got[l][h];
            const json& w = want[l][h];
            EXPECT_EQ(m.rows(), static_cast<long>(w.size())) << what;
            for (long i = 0; i < std::min(m.rows(), static_cast<long>(w.size())); ++i) {
                const std::vector<double> row = w[static_cast<std::size_t>(i)];
                EXPECT_EQ(m.cols(), static_cast<long>(row.size())) << what;
                for (long j = 0; j < std::min(m.cols(), static_cast<long>(row.size())); ++j) {
                    const double v = row[static_cast<std::size_t>(j)];
                    worst = std::max(worst, std::abs(m(i, j) - v));
                    if (v == 0.0) {
                        EXPECT_EQ(m(i, j), 0.0f) << what << " masked cell";
                    }
                }
            }
        }
    }
    return worst;
}

std::vector<std::vector<FloatMatrix>> selfMaps(const std::vector<LayerTrace>& layers)
{
    std::vector<std::vector<FloatMatrix>> maps;
    for (const LayerTrace& t : layers) maps.push_back(t.attention);
    return maps;
}

// softmax of a row of double logits, at `id`.
double probabilityOf(const std::vector<double>& logits, int id)
{
    double top = -INFINITY;
    for (double v : logits) top = std::max(top, v);
    double sum = 0.0;
    for (double v : logits) sum += std::exp(v - top);
    return std::exp(logits[static_cast<std::size_t>(id)] - top) / sum;
}

Seq2SeqAgreement agreeWithTorch(const std::string& name)
{
    Seq2SeqAgreement a;
    Seq2SeqModel model;
    const attn::Status loaded = Seq2SeqModel::load(seq2seqFixture(name).string(), model);
    EXPECT_TRUE(loaded.ok()) << attn::describe(loaded);
    if (!loaded.ok()) return a;
    const json want = json::parse(test::readBytes(seq2seqFixture(name) / "expected.json"));
    const std::vector<int> source = want["source_ids"].get<std::vector<int>>();
    const std::vector<int> target = want["target_ids"].get<std::vector<int>>();
    Seq2SeqResult r;
    const attn::Status ran = forwardSeq2Seq(model, source, target, Seq2SeqOptions(), r);
    EXPECT_TRUE(ran.ok()) << attn::describe(ran);
    if (!ran.ok()) return a;
    a.maps[0] = worstMap(selfMaps(r.encoder), want["encoder_attention"], name + " encoder");
    a.maps[1] = worstMap(selfMaps(r.decoder), want["decoder_attention"], name + " decoder");
    a.maps[2] = worstMap(r.cross, want["cross_attention"], name + " cross");
    a.logits = a.probabilities = 0.0;
    a.topMismatches = 0;
    const long n = static_cast<long>(target.size());
    EXPECT_EQ(r.predictions.size(), target.size());
    for (long i = 0; i < n && i < static_cast<long>(r.predictions.size()); ++i) {
        const std::vector<double> row = want["logits"][static_cast<std::size_t>(i)];
        EXPECT_EQ(r.logits.cols(), static_cast<long>(row.size()));
        for (long v = 0; v < std::min(r.logits.cols(), static_cast<long>(row.size())); ++v)
            a.logits =
                std::max(a.logits, std::abs(r.logits(i, v) - row[static_cast<std::size_t>(v)]));
        const std::vector<int> top = want["top10"][static_cast<std::size_t>(i)];
        const std::vector<TokenProbability>& got = r.predictions[static_cast<std::size_t>(i)].top;
        EXPECT_EQ(got.size(), top.size());
        for (std::size_t k = 0; k < std::min(top.size(), got.size()); ++k) {
            if (got[k].id != top[k]) ++a.topMismatches;
            a.probabilities = std::max(a.probabilities,
                                       std::abs(got[k].probability - probabilityOf(row, top[k])));
        }
    }
    return a;
}

class Seq2SeqFamilies : public ::testing::TestWithParam<const char*> {};

TEST_P(Seq2SeqFamilies, EveryMapAndTheTopTenAgreeWithFloat64Torch)
{
    const Seq2SeqAgreement a = agreeWithTorch(GetParam());
    EXPECT_LT(a.maps[0], kSeq2SeqMapTolerance) << GetParam() << " encoder";
    EXPECT_LT(a.maps[1], kSeq2SeqMapTolerance) << GetParam() << " decoder";
    EXPECT_LT(a.maps[2], kSeq2SeqMapTolerance) << GetParam() << " cross";
    EXPECT_LT(a.probabilities, kSeq2SeqProbabilityTolerance) << GetParam();
    EXPECT_EQ(a.topMismatches, 0) << GetParam();
    std::printf(
        "[ figures  ] %s: encoder %.2g, decoder %.2g, cross %.2g, logits %.2g, top-10 p "
        "%.2g\n",
        GetParam(), a.maps[0], a.maps[1], a.maps[2], a.logits, a.probabilities);
}

INSTANTIATE_TEST_SUITE_P(HubLayouts, Seq2SeqFamilies,
                         ::testing::Values("bart_f32", "distilbart_bin_f16", "marian_f32",
                                           "marian_bf16", "t5_relu_tied_f32",
                                           "t5v11_gated_bf16_bin", "marian_tokenizer",
                                           "t5_tokenizer", "bart_tokenizer"));

// Greedy decoding picks, at each step, what a teacher-forced run on its own output ranks first at
// that position: the translation is a fixed point of the forward pass.
TEST(Seq2SeqGreedy, EachTokenIsTheTopPredictionOfTheRunOnThePrefix)
{
    for (const char* name : {"marian_f32", "t5_relu_tied_f32", "bart_f32"}) {
        Seq2SeqModel model;
        ASSERT_TRUE(Seq2SeqModel::load(seq2seqFixture(name).string(), model).ok()) << name;
        const json want = json::parse(test::readBytes(seq2seqFixture(name) / "expected.json"));
        const std::vector<int> source = want["source_ids"].get<std::vector<int>>();
        std::vector<int> tokens;
        Seq2SeqResult last;
        ASSERT_TRUE(translateGreedy(model, source, 12, {}, tokens, last).ok()) << name;
        ASSERT_FALSE(tokens.empty()) << name;
        EXPECT_LE(tokens.size(), 12u);
        std::vector<int> input{model.config().decoderStartTokenId};
        input.insert(input.end(), tokens.begin(), tokens.end() - 1);
        Seq2SeqResult full;
        ASSERT_TRUE(forwardSeq2Seq(model, source, input, Seq2SeqOptions(), full).ok());
        for (std::size_t i = 0; i < tokens.size(); ++i)
            EXPECT_EQ(full.predictions[i].top.front().id, tokens[i]) << name << " step " << i;
        // Stopped at the end token, or ran out of steps.
        EXPECT_TRUE(tokens.back() == model.config().eosTokenId || tokens.size() == 12u) << name;
        EXPECT_EQ(std::count(tokens.begin(), tokens.end() - 1, model.config().eosTokenId), 0);
    }
}

TEST(Seq2SeqForward, EmptyOverlongAndUnknownIdsAreRefusedNamingTheSide)
{
    Seq2SeqModel model;
    ASSERT_TRUE(Seq2SeqModel::load(seq2seqFixture("marian_f32").string(), model).ok());
    const Seq2SeqConfig& c = model.config();
    Seq2SeqResult r;
    const std::vector<int> one{1};
    const std::vector<int> none;
    attn::Status s = forwardSeq2Seq(model, none, one, Seq2SeqOptions(), r);
    EXPECT_EQ(s.code, attn::StatusCode::EmptyInput);
    EXPECT_EQ(s.field, "source");
    const std::vector<int> overlong(static_cast<std::size_t>(c.positions + 1), 1);
    s = forwardSeq2Seq(model, one, overlong, Seq2SeqOptions(), r);
    EXPECT_EQ(s.code, attn::StatusCode::TooLong);
    EXPECT_EQ(s.field, "target");
    EXPECT_EQ(s.limit, c.positions);
    const std::vector<int> outside{static_cast<int>(c.vocab)};
    s = forwardSeq2Seq(model, outside, one, Seq2SeqOptions(), r);
    EXPECT_EQ(s.code, attn::StatusCode::TokenOutOfRange);
    EXPECT_EQ(s.value, c.vocab);
}

// T5's buckets against the definition in double precision, away from the bucket edges where
// float32 and double may round differently (there the float32 result is checked by the maps).
TEST(Seq2SeqPositions, RelativeBucketsFollowTheLogarithmicDefinition)
{
    for (const bool bidirectional : {true, false})
        for (const long buckets : {8L, 32L})
            for (const long maxDistance : {20L, 128L})
                for (long rel = -300; rel <= 300; ++rel) {
                    long n = buckets;
                    long bucket = 0;
                    long distance = 0;
                    if (bidirectional) {
                        n /= 2;
                        bucket = rel > 0 ? n : 0;
                        distance = std::abs(rel);
                    } else {
                        distance = rel < 0 ? -rel : 0;
                    }
                    const long exact = n / 2;
                    double large = 0.0;
                    if (distance >= exact) {
                        large = static_cast<double>(exact) +
                                std::log(static_cast<double>(distance) / exact) /
                                    std::log(static_cast<double>(maxDistance) / exact) *
                                    static_cast<double>(n - exact);
                        if (std::abs(large - std::round(large)) < 1e-4) continue;
                    }
                    const long want =
                        bucket +
                        (distance < exact ? distance : std::min(static_cast<long>(large), n - 1));
                    EXPECT_EQ(relativeBucket(rel, bidirectional, buckets, maxDistance), want)
                        << rel << " " << bidirectional << " " << buckets << " " << maxDistance;
                }
}

TEST(Seq2SeqPositions, SinusoidsPutSinesFirstAndCosinesSecond)
{
    const FloatMatrix p = sinusoidalPositions(5, 6);
    for (long pos = 0; pos < 5; ++pos)
        for (long c = 0; c < 3; ++c) {
            const double angle = static_cast<double>(pos) / std::pow(10000.0, 2.0 * c / 6.0);
            EXPECT_FLOAT_EQ(p(pos, c), static_cast<float>(std::sin(angle)));
            EXPECT_FLOAT_EQ(p(pos, 3 + c), static_cast<float>(std::cos(angle)));
        }
}

}  // namespace
}  // namespace attn::model
