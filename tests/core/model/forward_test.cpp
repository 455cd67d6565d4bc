// SPDX-License-Identifier: GPL-3.0-or-later
// GPT-2 and BERT forward passes against the plain-PyTorch reference
// (tests/reference/make_model_fixtures.py): every head's attention of every layer, the logits
// and the top-10 predictions; restarting at a layer; refusals; and a GPT-2-small-shaped
// checkpoint written at test time.
#include "core/model/forward.h"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <gtest/gtest.h>

#include "model_files.h"

namespace attn::model {
namespace {

using test::json;
using test::TempDir;

constexpr double kAttentionTolerance = 1e-4;
constexpr double kLogitTolerance = 1e-3;

struct Agreement {
    double attention = 0.0;
    double logits = 0.0;
};

Agreement compareWithTorch(const std::string& name)
{
    Agreement worst;
    Model model;
    const attn::Status loaded = Model::load(test::modelFixture(name).string(), model);
    EXPECT_TRUE(loaded.ok()) << attn::describe(loaded);
    if (!loaded.ok()) return {INFINITY, INFINITY};
    const json want = json::parse(test::readBytes(test::modelFixture(name) / "expected.json"));
    const std::vector<int> ids = want["ids"].get<std::vector<int>>();
    ForwardOptions options;
    options.allLogits = true;
    options.maskTokenId = want["mask_token_id"].get<int>();
    ForwardResult r;
    const attn::Status ran = forward(model, ids, options, r);
    EXPECT_TRUE(ran.ok()) << attn::describe(ran);
    if (!ran.ok()) return {INFINITY, INFINITY};

    const long n = static_cast<long>(ids.size());
    EXPECT_EQ(r.layers.size(), want["attention"].size());
    for (std::size_t l = 0; l < r.layers.size(); ++l) {
        const json& layer = want["attention"][l];
        EXPECT_EQ(r.layers[l].attention.size(), layer.size());
        for (std::size_t h = 0; h < r.layers[l].attention.size(); ++h) {
            const FloatMatrix& got = r.layers[l].attention[h];
            EXPECT_EQ(got.rows(), n);
            EXPECT_EQ(got.cols(), n);
            const std::vector<double> values = layer[h].get<std::vector<double>>();
            for (long i = 0; i < n; ++i)
                for (long j = 0; j < n; ++j)
                    worst.attention =
                        std::max(worst.attention,
                                 std::abs(got(i, j) - values[static_cast<std::size_t>(i * n + j)]));
        }
    }
    const json& logits = want["logits"];
    EXPECT_EQ(r.logits.rows(), static_cast<long>(logits.size()));
    for (long i = 0; i < r.logits.rows(); ++i) {
        const std::vector<double> row =
            logits[static_cast<std::size_t>(i)].get<std::vector<double>>();
        EXPECT_EQ(r.logits.cols(), static_cast<long>(row.size()));
        for (long v = 0; v < r.logits.cols(); ++v)
            worst.logits =
                std::max(worst.logits, std::abs(r.logits(i, v) - row[static_cast<std::size_t>(v)]));
    }
    const json& predictions = want["predictions"];
    EXPECT_EQ(r.predictions.size(), predictions.size());
    for (std::size_t p = 0; p < std::min(r.predictions.size(), predictions.size()); ++p) {
        EXPECT_EQ(r.predictions[p].position, predictions[p]["position"].get<long>());
        const json& top = predictions[p]["top"];
        EXPECT_EQ(r.predictions[p].top.size(), top.size());
        for (std::size_t k = 0; k < std::min(top.size(), r.predictions[p].top.size()); ++k) {
            EXPECT_EQ(r.predictions[p].top[k].id, top[k][0].get<int>()) << name << " rank " << k;
            EXPECT_NEAR(r.predictions[p].top[k].probability, top[k][1].get<double>(), 1e-5);
        }
    }
    std::printf("[ %s ] max |attention - torch| = %.3g, max |logits - torch| = %.3g\n",
                name.c_str(), worst.attention, worst.logits);
    return worst;
}

TEST(Gpt2Forward, AgreesWithTorchOnEveryLayer)
{
    for (const char* name : {"gpt2_tiny", "gpt2_tiny_f16_prefixed"}) {
        const Agreement a = compareWithTorch(name);
        EXPECT_LE(a.attention, kAttentionTolerance) << name;
        EXPECT_LE(a.logits, kLogitTolerance) << name;
    }
}

TEST(BertForward, AgreesWithTorchOnEveryLayer)
{
    for (const char* name : {"bert_tiny", "bert_tiny_bf16_prefixed"}) {
        const Agreement a = compareWithTorch(name);
        EXPECT_LE(a.attention, kAttentionTolerance) << name;
        EXPECT_LE(a.logits, kLogitTolerance) << name;
    }
}

TEST(Gpt2Forward, KeepsLayerInputsAndCausalZeros)
{
    Model model;
    ASSERT_TRUE(Model::load(test::modelFixture("gpt2_tiny").string(), model).ok());
    const std::vector<int> ids{1, 2, 3, 4, 5};
    ForwardResult r;
    ASSERT_TRUE(forward(model, ids, {}, r).ok());
    ASSERT_EQ(r.predictions.size(), 1u);
    EXPECT_EQ(r.predictions[0].position, 4);
    EXPECT_EQ(r.predictions[0].top.size(), 10u);
    EXPECT_EQ(r.logits.rows(), 1);  // only the predicted position by default
    for (const LayerTrace& t : r.layers) {
        EXPECT_EQ(t.hidden.rows(), 5);
        EXPECT_EQ(t.normed.rows(), 0);  // the typing cache is not kept by default
        for (const FloatMatrix& p : t.attention)
            for (long i = 0; i < 5; ++i)
                for (long j = i + 1; j < 5; ++j) EXPECT_EQ(p(i, j), 0.0f);
    }
}

TEST(ModelForward, RunFromALayerReproducesTheFullRun)
{
    for (const char* name : {"gpt2_tiny", "bert_tiny"}) {
        Model model;
        ASSERT_TRUE(Model::load(test::modelFixture(name).string(), model).ok());
        const std::vector<int> ids{4, 3, 9, 3, 11, 2};
        ForwardOptions options;
        options.maskTokenId = 3;
        ForwardResult full;
        ASSERT_TRUE(forward(model, ids, options, full).ok());
        ForwardResult again = full;
        ASSERT_TRUE(forwardFrom(model, 1, options, again).ok());
        EXPECT_EQ(again.layers[1].attention[0], full.layers[1].attention[0]);
        EXPECT_EQ(again.logits, full.logits);
        EXPECT_EQ(again.predictions.size(), full.predictions.size());
        EXPECT_EQ(forwardFrom(model, 2, options, again).code, attn::StatusCode::BadLayer);
    }
}

TEST(ModelForward, HeadHookEditsOneHeadAndRerunsFromItsLayer)
{
    Model model;
    ASSERT_TRUE(Model::load(test::modelFixture("gpt2_tiny").string(), model).ok());
    const std::vector<int> ids{7, 8, 9, 10, 11, 12};
    ForwardResult r;
    ASSERT_TRUE(forward(model, ids, {}, r).ok());
    const ForwardResult before = r;
    ForwardOptions edit;
    // Zero layer 1 head 2's keys: its scores are all 0, so each row is uniform over its prefix.
    edit.hook = [](int layer, int head, HeadResultT<float>& qkv) {
        if (layer == 1 && head == 2) qkv.K.setZero();
    };
    ASSERT_TRUE(forwardFrom(model, 1, edit, r).ok());
    EXPECT_EQ(r.layers[0].attention[2], before.layers[0].attention[2]);
    EXPECT_EQ(r.layers[1].attention[1], before.layers[1].attention[1]);
    for (long i = 0; i < 6; ++i) EXPECT_NEAR(r.layers[1].attention[2](i, 0), 1.0 / (i + 1), 1e-6);
    EXPECT_NE(r.logits, before.logits);
}

TEST(ModelForward, RefusesTextLongerThanThePositions)
{
    Model model;
    ASSERT_TRUE(Model::load(test::modelFixture("gpt2_tiny").string(), model).ok());
    ForwardResult r;
    const std::vector<int> ids(33, 1);  // n_positions = 32
    const attn::Status s = forward(model, ids, {}, r);
    EXPECT_EQ(s.code, attn::StatusCode::TooLong);
    EXPECT_EQ(s.field, "ids");
    EXPECT_EQ(s.value, 33);
    EXPECT_EQ(s.limit, 32);
    EXPECT_NE(attn::describe(s).find("33 tokens exceed the model's 32 positions"),
              std::string::npos)
        << attn::describe(s);
    EXPECT_TRUE(forward(model, std::vector<int>(32, 1), {}, r).ok());
}

TEST(ModelForward, RefusesEmptyInputBadIdsAndBadPositions)
{
    Model model;
    ASSERT_TRUE(Model::load(test::modelFixture("bert_tiny").string(), model).ok());
    ForwardResult r;
    EXPECT_EQ(forward(model, std::vector<int>{}, {}, r).code, attn::StatusCode::EmptyInput);
    const attn::Status s = forward(model, std::vector<int>{1, 80}, {}, r);
    EXPECT_EQ(s.code, attn::StatusCode::TokenOutOfRange);
    EXPECT_EQ(s.field, "ids");
    EXPECT_EQ(s.position, 1);  // kept from 0, printed from 1
    EXPECT_EQ(s.value, 80);
    EXPECT_GT(s.limit, 0);
    EXPECT_NE(attn::describe(s).find("token 2 has the id 80"), std::string::npos)
        << attn::describe(s);
    ForwardOptions options;
    options.predictAt = {5};
    EXPECT_EQ(forward(model, std::vector<int>{1, 2}, options, r).code,
              attn::StatusCode::BadPosition);
    Model none;
    EXPECT_FALSE(forward(none, std::vector<int>{1}, {}, r).ok());
}

// ---------------------------------------------------------------------------------------------
// GPT-2-small shape (12 layers, 12 heads, width 768, 1024 positions) with a vocabulary cut to
// 1000, random weights written at test time (about 345 MB in a temp folder).

TEST(Gpt2Forward, DefaultSizeCheckpointGivesNormalisedCausalRows)
{
    TempDir dir;
    const auto start = std::chrono::steady_clock::now();
    ASSERT_NO_FATAL_FAILURE(test::writeRandomGpt2(dir.path(), {12, 12, 768, 1024, 1000}));
    Model model;
    const attn::Status loaded = Model::load(dir.path().string(), model);
    ASSERT_TRUE(loaded.ok()) << attn::describe(loaded);
    EXPECT_EQ(model.file().copiedBytes(), 0u);
    const std::vector<int> ids{10, 200, 31, 999, 0, 512, 77, 640};
    ForwardResult r;
    const auto run = std::chrono::steady_clock::now();
    ASSERT_TRUE(forward(model, ids, {}, r).ok());
    const auto end = std::chrono::steady_clock::now();
    std::printf("[ gpt2-small shape ] write + load %.2f s, forward of 8 tokens %.1f ms\n",
                std::chrono::duration<double>(run - start).count(),
                std::chrono::duration<double, std::milli>(end - run).count());
    ASSERT_EQ(r.layers.size(), 12u);
    for (const LayerTrace& t : r.layers) {
        ASSERT_EQ(t.attention.size(), 12u);
        EXPECT_EQ(t.hidden.rows(), 8);
        EXPECT_EQ(t.hidden.cols(), 768);
        EXPECT_TRUE(t.hidden.allFinite());
        for (const FloatMatrix& p : t.attention) {
            ASSERT_EQ(p.rows(), 8);
            ASSERT_EQ(p.cols(), 8);
            EXPECT_TRUE(p.allFinite());
            for (long i = 0; i < 8; ++i) {
                EXPECT_NEAR(p.row(i).head(i + 1).sum(), 1.0f, 1e-5f);
                EXPECT_EQ(p.row(i).tail(7 - i).cwiseAbs().sum(), 0.0f);
            }
        }
    }
    EXPECT_EQ(r.logits.rows(), 1);
    EXPECT_EQ(r.logits.cols(), 1000);
    EXPECT_TRUE(r.logits.allFinite());
    ASSERT_EQ(r.predictions.size(), 1u);
    float total = 0;
    for (const TokenProbability& t : r.predictions[0].top) total += t.probability;
    EXPECT_GT(total, 0.0f);
    EXPECT_LE(total, 1.0f + 1e-5f);
}

}  // namespace
}  // namespace attn::model
