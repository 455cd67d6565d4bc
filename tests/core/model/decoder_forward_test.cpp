// SPDX-License-Identifier: GPL-3.0-or-later
// The Llama family's forward pass (llama, mistral, qwen2, qwen3) against the plain-PyTorch
// float64 reference (tests/reference/make_decoder_fixtures.py): every query head's attention,
// every logit and the top-10 of every position, on tiny checkpoints laid out as the hub ships
// them (BF16, F16 and F32; one file and two shards; tied and separate lm_head; grouped and
// multi-query heads; llama3 and linear rotary scaling; a sliding window; Qwen3's q/k norms).
#include <cmath>
#include <gtest/gtest.h>

#include "core/model/forward.h"
#include "core/model/head_edit.h"
#include "model_files.h"

namespace attn::model {
namespace {

using test::decoderFixture;
using test::json;
using test::TempDir;

// The issue's bounds: attention within 1e-5, logits within 1e-4 of float64, top-10 identical.
constexpr double kDecoderAttentionTolerance = 1e-5;
constexpr double kDecoderLogitTolerance = 1e-4;

struct DecoderAgreement {
    double attention = INFINITY;
    double logits = INFINITY;
    int topMismatches = -1;
};

DecoderAgreement agreeWithTorch(const std::string& name)
{
    DecoderAgreement a;
    Model model;
    const attn::Status loaded = Model::load(decoderFixture(name).string(), model);
    EXPECT_TRUE(loaded.ok()) << attn::describe(loaded);
    if (!loaded.ok()) return a;
    const json want = json::parse(test::readBytes(decoderFixture(name) / "expected.json"));
    const std::vector<int> ids = want["ids"].get<std::vector<int>>();
    ForwardOptions options;
    options.allLogits = true;
    options.topK = 10;
    ForwardResult r;
    const attn::Status ran = forward(model, ids, options, r);
    EXPECT_TRUE(ran.ok()) << attn::describe(ran);
    if (!ran.ok()) return a;
    const long n = static_cast<long>(ids.size());
    a.attention = a.logits = 0.0;
    a.topMismatches = 0;
    EXPECT_EQ(r.layers.size(), want["attention"].size());
    for (std::size_t l = 0; l < r.layers.size(); ++l) {
        const json& layer = want["attention"][l];
        EXPECT_EQ(r.layers[l].attention.size(), layer.size()) << "one map per query head";
        for (std::size_t h = 0; h < std::min(layer.size(), r.layers[l].attention.size()); ++h) {
            const FloatMatrix& got = r.layers[l].attention[h];
            for (long i = 0; i < n; ++i) {
                const std::vector<double> row = layer[h][static_cast<std::size_t>(i)];
                for (long j = 0; j < n; ++j) {
                    const double w = row[static_cast<std::size_t>(j)];
                    a.attention = std::max(a.attention, std::abs(got(i, j) - w));
                    if (w == 0.0) {
                        EXPECT_EQ(got(i, j), 0.0f) << name << " masked cell";
                    }
                }
            }
        }
    }
    for (long i = 0; i < n; ++i) {
        const std::vector<double> row = want["logits"][static_cast<std::size_t>(i)];
        EXPECT_EQ(r.logits.cols(), static_cast<long>(row.size()));
        for (long v = 0; v < r.logits.cols(); ++v)
            a.logits =
                std::max(a.logits, std::abs(r.logits(i, v) - row[static_cast<std::size_t>(v)]));
        const std::vector<int> top = want["top10"][static_cast<std::size_t>(i)];
        const auto got = topTokens(r.logits.row(i).transpose(), 10);
        for (std::size_t k = 0; k < top.size(); ++k)
            if (got[k].id != top[k]) ++a.topMismatches;
    }
    return a;
}

class DecoderFamilies : public ::testing::TestWithParam<const char*> {};

TEST_P(DecoderFamilies, ForwardPass_AgreesWithFloat64Torch)
{
    const DecoderAgreement a = agreeWithTorch(GetParam());
    EXPECT_LT(a.attention, kDecoderAttentionTolerance) << GetParam();
    EXPECT_LT(a.logits, kDecoderLogitTolerance) << GetParam();
    EXPECT_EQ(a.topMismatches, 0) << GetParam();
    std::printf("[ figures  ] %s: attention %.2g, logits %.2g\n", GetParam(), a.attention,
                a.logits);
}

INSTANTIATE_TEST_SUITE_P(HubLayouts, DecoderFamilies,
                         ::testing::Values("llama3_tied_bf16", "llama2_sharded_f16",
                                           "mistral_window_f32", "qwen2_bias_bf16",
                                           "qwen3_qknorm_bf16"));

TEST(DecoderForward, TypingReusesThePrefix_AndEqualsAFullRun)
{
    Model model;
    ASSERT_TRUE(Model::load(decoderFixture("qwen3_qknorm_bf16").string(), model).ok());
    const json want =
        json::parse(test::readBytes(decoderFixture("qwen3_qknorm_bf16") / "expected.json"));
    const std::vector<int> ids = want["ids"].get<std::vector<int>>();
    ForwardOptions options;
    options.keepTypingCache = true;
    ForwardResult prefix, typed, full;
    const std::vector<int> head(ids.begin(), ids.end() - 3);
    ASSERT_TRUE(forward(model, head, options, prefix).ok());
    ASSERT_TRUE(forwardReusing(model, ids, options, prefix, typed).ok());
    ASSERT_TRUE(forward(model, ids, options, full).ok());
    for (std::size_t l = 0; l < full.layers.size(); ++l)
        for (std::size_t h = 0; h < full.layers[l].attention.size(); ++h)
            EXPECT_LT(
                (typed.layers[l].attention[h] - full.layers[l].attention[h]).cwiseAbs().maxCoeff(),
                1e-6f);
    EXPECT_LT((typed.logits - full.logits).cwiseAbs().maxCoeff(), 1e-5f);
    EXPECT_EQ(typed.predictions.front().top.front().id, full.predictions.front().top.front().id);
}

TEST(DecoderForward, SlidingWindowLayer_ClosesKeysOutsideTheWindow)
{
    Model model;
    ASSERT_TRUE(Model::load(decoderFixture("qwen2_bias_bf16").string(), model).ok());
    EXPECT_FALSE(model.config().slides(0));
    EXPECT_TRUE(model.config().slides(1));
    std::vector<int> ids(10);
    for (int i = 0; i < 10; ++i) ids[static_cast<std::size_t>(i)] = 3 + i;
    ForwardResult r;
    ASSERT_TRUE(forward(model, ids, {}, r).ok());
    const FloatMatrix& early = r.layers[0].attention[0];
    const FloatMatrix& late = r.layers[1].attention[0];
    EXPECT_GT(early(9, 0), 0.0f);
    EXPECT_EQ(late(9, 5), 0.0f);  // 9 - 5 = 4 = the window: closed
    EXPECT_GT(late(9, 6), 0.0f);
}

TEST(DecoderForward, GroupedHeads_ShareOneKeyPerGroup)
{
    Model model;
    ASSERT_TRUE(Model::load(decoderFixture("llama3_tied_bf16").string(), model).ok());
    const ModelConfig& c = model.config();
    EXPECT_EQ(c.heads, 4);
    EXPECT_EQ(c.kvHeads, 2);
    EXPECT_EQ(c.kvHeadOf(1), 0);
    EXPECT_EQ(c.kvHeadOf(2), 1);
    std::vector<FloatMatrix> keys(4);
    ForwardOptions options;
    options.hook = [&](int layer, int head, HeadResultT<float>& qkv) {
        if (layer == 0) keys[static_cast<std::size_t>(head)] = qkv.K;
    };
    ForwardResult r;
    ASSERT_TRUE(forward(model, std::vector<int>{1, 5, 9, 2}, options, r).ok());
    EXPECT_EQ(keys[0], keys[1]);
    EXPECT_EQ(keys[2], keys[3]);
    EXPECT_NE(keys[0], keys[2]);
}

TEST(DecoderEdits, KeyEditOfAQueryHead_ActsOnEveryHeadOfItsGroup)
{
    Model model;
    ASSERT_TRUE(Model::load(decoderFixture("llama3_tied_bf16").string(), model).ok());
    ForwardOptions options;
    ForwardResult before, after;
    const std::vector<int> ids{1, 5, 9, 2, 7, 3};
    ASSERT_TRUE(forward(model, ids, options, before).ok());
    const HeadEdit doubled{HeadEditKind::Key, 0, 1, 2, 2.0f};
    ASSERT_TRUE(runEdited(model, before, std::vector<HeadEdit>{doubled}, options, after).ok());
    const auto change = attentionChange(before, after);
    EXPECT_GT(change[0][0], 0.0f) << "head 1 shares head 2's key/value head";
    EXPECT_GT(change[0][1], 0.0f);
    EXPECT_EQ(change[0][2], 0.0f) << "the other group keeps its keys";
    EXPECT_EQ(change[0][3], 0.0f);
    // The same key through another head of the group is one vector edited twice.
    const HeadEdit again{HeadEditKind::Key, 0, 0, 2, 3.0f};
    EXPECT_EQ(checkEdits(model, 6, std::vector<HeadEdit>{doubled, again}).code,
              attn::StatusCode::DuplicateEdit);
    const HeadEdit query{HeadEditKind::Query, 0, 1, 2, 2.0f};
    ASSERT_TRUE(runEdited(model, before, std::vector<HeadEdit>{query}, options, after).ok());
    const auto queryChange = attentionChange(before, after);
    EXPECT_EQ(queryChange[0][0], 0.0f) << "a query is one head's own";
    EXPECT_GT(queryChange[0][1], 0.0f);
}

// A copy of a fixture whose config.json has `key` set to `value` (JSON text).
std::filesystem::path withConfig(const TempDir& dir, const std::string& fixture,
                                 const std::string& key, const std::string& value)
{
    const std::filesystem::path target = dir.path() / fixture;
    std::filesystem::copy(decoderFixture(fixture), target,
                          std::filesystem::copy_options::recursive);
    json config = json::parse(test::readBytes(target / "config.json"));
    if (value.empty())
        config.erase(key);
    else
        config[key] = json::parse(value);
    test::writeBytes(target / "config.json", config.dump());
    return target;
}

struct Refusal {
    const char* key;
    const char* value;
    const char* field;  // the field the message must name
};

TEST(DecoderConfig, ValuesThatWouldChangeTheResult_AreRefusedNamingTheField)
{
    const Refusal cases[] = {
        {"hidden_act", "\"gelu\"", "hidden_act"},
        {"rope_scaling", R"({"rope_type": "yarn", "factor": 4.0})", "rope_scaling.rope_type"},
        {"rope_scaling", R"({"rope_type": "llama3", "factor": 8.0})",
         "rope_scaling.low_freq_factor"},
        {"partial_rotary_factor", "0.5", "partial_rotary_factor"},
        {"num_key_value_heads", "3", "num_key_value_heads"},
        {"head_dim", "15", "head_dim"},
        {"layer_types", R"(["full_attention", "chunked_attention"])", "layer_types[1]"},
    };
    for (const Refusal& r : cases) {
        const TempDir dir;
        Model model;
        const attn::Status s =
            Model::load(withConfig(dir, "qwen3_qknorm_bf16", r.key, r.value).string(), model);
        EXPECT_FALSE(s.ok()) << r.key;
        EXPECT_EQ(s.field, r.field) << attn::describe(s);
        EXPECT_FALSE(model.loaded());
    }
}

TEST(DecoderCheckpoint, ShardMissingATensorTheIndexPromises_IsRefusedNamingIt)
{
    const TempDir dir;
    const std::filesystem::path target = dir.path() / "m";
    std::filesystem::copy(decoderFixture("llama2_sharded_f16"), target,
                          std::filesystem::copy_options::recursive);
    json index = json::parse(test::readBytes(target / "model.safetensors.index.json"));
    index["weight_map"]["model.norm.weight"] = "model-00001-of-00002.safetensors";
    test::writeBytes(target / "model.safetensors.index.json", index.dump());
    Model model;
    const attn::Status s = Model::load(target.string(), model);
    EXPECT_EQ(s.code, attn::StatusCode::MissingTensor);
    EXPECT_EQ(s.field, "model.norm.weight");
    EXPECT_NE(s.file.find("model-00001-of-00002"), std::string::npos);

    index["weight_map"]["model.norm.weight"] = "../elsewhere.safetensors";
    test::writeBytes(target / "model.safetensors.index.json", index.dump());
    EXPECT_EQ(Model::load(target.string(), model).code, attn::StatusCode::ConfigField);
    std::filesystem::remove(target / "model-00002-of-00002.safetensors");
    index["weight_map"]["model.norm.weight"] = "model-00002-of-00002.safetensors";
    test::writeBytes(target / "model.safetensors.index.json", index.dump());
    EXPECT_EQ(Model::load(target.string(), model).code, attn::StatusCode::FileOpen);
}

TEST(DecoderCheckpoint, ShardedModel_ListsEveryShard)
{
    Model model;
    ASSERT_TRUE(Model::load(decoderFixture("llama2_sharded_f16").string(), model).ok());
    EXPECT_EQ(model.shards().size(), 2u);
    EXPECT_EQ(model.config().family, Family::Decoder);
    EXPECT_FALSE(model.config().tieWordEmbeddings);
    EXPECT_NE(model.outputLayer().elements(), model.layers().front().q.elements());
    std::vector<float> row(static_cast<std::size_t>(model.config().width));
    model.embeddingRow(0, row.data());  // F16 rows widened on the way
    EXPECT_TRUE(std::isfinite(row.front()) && std::isfinite(row.back()));
    EXPECT_EQ(model.outputLayer().format, kernels::WeightFormat::F16);
}

}  // namespace
}  // namespace attn::model
