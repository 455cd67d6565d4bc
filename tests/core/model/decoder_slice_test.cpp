// SPDX-License-Identifier: GPL-3.0-or-later
// A decoder's head taken into the workbench (sliceHead, headInput): turned by the model's
// rotary positions, with the key and value head of its group, under its sliding window, and for
// Qwen3 with its normalised q and k handed over. The workbench's double map must be the model's
// within 1e-5, for every head of every family's tiny checkpoint; a workbench edit carried back
// with runWithHead must act as the same edit made in the model. And the matrices of a BF16 or F16
// checkpoint stay in its mapping: no float copy of them is made.
#include <cmath>
#include <gtest/gtest.h>

#include "core/attention.h"
#include "core/model/head_detect.h"
#include "core/model/head_edit.h"
#include "core/model/head_slice.h"
#include "model_files.h"

namespace attn::model {
namespace {

using test::decoderFixture;
using test::json;

constexpr double kDecoderMapTolerance = 1e-5;  // the workbench (double) against the model (float)

struct OpenedDecoder {
    Model model;
    ForwardOptions options;
    ForwardResult before;
};

void openDecoder(const std::string& name, OpenedDecoder& r)
{
    const attn::Status loaded = Model::load(decoderFixture(name).string(), r.model);
    ASSERT_TRUE(loaded.ok()) << attn::describe(loaded);
    const json want = json::parse(test::readBytes(decoderFixture(name) / "expected.json"));
    r.options.allLogits = true;
    ASSERT_TRUE(forward(r.model, want["ids"].get<std::vector<int>>(), r.options, r.before).ok());
}

AttentionResult workbenchRun(const OpenedDecoder& r, int layer, int head,
                             const std::vector<VectorEdit>& edits = {})
{
    HeadSlice slice;
    const attn::Status s = sliceHead(r.model, r.before, layer, head, slice);
    EXPECT_TRUE(s.ok()) << attn::describe(s);
    AttentionInput in = headInput(r.model, slice);
    in.edits = edits;
    AttentionResult result;
    const Status computed = computeAttention<double>(in, result);
    EXPECT_TRUE(computed.ok()) << describe(computed);
    return result;
}

class DecoderSlices : public ::testing::TestWithParam<const char*> {};

TEST_P(DecoderSlices, EveryHeadsWorkbenchMap_IsTheModelsWithin1e5)
{
    OpenedDecoder r;
    openDecoder(GetParam(), r);
    const ModelConfig& c = r.model.config();
    double worst = 0.0;
    for (int l = 0; l < c.layers; ++l)
        for (int h = 0; h < c.heads; ++h) {
            const AttentionResult result = workbenchRun(r, l, h);
            ASSERT_EQ(result.heads.size(), 1u);
            const FloatMatrix& want =
                r.before.layers[static_cast<std::size_t>(l)].attention[static_cast<std::size_t>(h)];
            ASSERT_EQ(result.heads[0].weights.rows(), want.rows());
            worst = std::max(worst,
                             (result.heads[0].weights - want.cast<double>()).cwiseAbs().maxCoeff());
        }
    EXPECT_LT(worst, kDecoderMapTolerance) << GetParam();
    std::printf("[ figures  ] %s: workbench against model %.2g\n", GetParam(), worst);
}

TEST_P(DecoderSlices, AKeyEditCarriedBack_EqualsTheSameEditInTheModel)
{
    OpenedDecoder r;
    openDecoder(GetParam(), r);
    const int layer = static_cast<int>(r.model.config().layers) - 1;
    const int head = static_cast<int>(r.model.config().heads) - 1;
    VectorEdit edit;
    edit.role = Role::Key;
    edit.index = 1;
    edit.scale = 4.0;
    const AttentionResult result = workbenchRun(r, layer, head, {edit});
    HeadOverride o;
    o.layer = layer;
    o.head = head;
    o.weights = result.heads[0].weights.cast<float>();
    o.output = result.heads[0].output.cast<float>();
    ForwardResult carried;
    const attn::Status s = runWithHead(r.model, r.before, o, r.options, carried);
    ASSERT_TRUE(s.ok()) << attn::describe(s);

    // The model's own edit acts on the whole key/value group, the workbench's on the one query
    // head it holds: their maps of that head are the same.
    const std::vector<HeadEdit> edits{{HeadEditKind::Key, layer, head, 1, 4.0f}};
    ForwardResult edited;
    ASSERT_TRUE(runEdited(r.model, r.before, edits, r.options, edited).ok());
    const FloatMatrix& modelMap =
        edited.layers[static_cast<std::size_t>(layer)].attention[static_cast<std::size_t>(head)];
    EXPECT_LT((o.weights - modelMap).cwiseAbs().maxCoeff(), kDecoderMapTolerance);
    EXPECT_GT(
        (o.weights -
         r.before.layers[static_cast<std::size_t>(layer)].attention[static_cast<std::size_t>(head)])
            .cwiseAbs()
            .maxCoeff(),
        1e-3)
        << "the edit changed the map";
    EXPECT_GT((carried.logits - r.before.logits).cwiseAbs().maxCoeff(), 1e-4)
        << "the carried-back head changed the prediction";
}

INSTANTIATE_TEST_SUITE_P(HubLayouts, DecoderSlices,
                         ::testing::Values("llama3_tied_bf16", "llama2_sharded_f16",
                                           "mistral_window_f32", "qwen2_bias_bf16",
                                           "qwen3_qknorm_bf16"));

TEST(DecoderSlice, CarriesTheRotationTheGroupAndTheWindow)
{
    OpenedDecoder r;
    openDecoder("qwen2_bias_bf16", r);
    const ModelConfig& c = r.model.config();
    const int head = static_cast<int>(c.heads) - 1;
    HeadSlice early, late;
    ASSERT_TRUE(sliceHead(r.model, r.before, 0, head, early).ok());
    ASSERT_TRUE(sliceHead(r.model, r.before, 1, head, late).ok());
    ASSERT_TRUE(early.rope.has_value());
    EXPECT_EQ(*early.rope, c.rope);
    EXPECT_TRUE(early.causal);
    EXPECT_FALSE(early.handedOver);
    EXPECT_EQ(early.X.cols(), c.width);
    // The key columns are those of the query head's key/value head.
    const long dh = c.headDim();
    const long g = c.kvHeadOf(head);
    const LayerWeights& L = r.model.layers()[0];
    const FloatRows k = L.k.storedRowsWidened(g * dh, dh);
    EXPECT_EQ(early.W_K(3, 2), k(2, 3));
    EXPECT_EQ(early.b_K[2], L.k.bias[g * dh + 2]);
    // Layer 1 slides (window 4 < the run's length); layer 0 does not.
    EXPECT_EQ(early.window.size(), 0);
    ASSERT_EQ(late.window.rows(), static_cast<long>(r.before.ids.size()));
    EXPECT_FALSE(late.window(9, 5));
    EXPECT_TRUE(late.window(9, 6));
    const AttentionInput in = headInput(r.model, late);
    EXPECT_TRUE(in.mask.has_value());
    EXPECT_EQ(in.mode, Mode::Causal);
    EXPECT_EQ(in.scaling, Scaling::SqrtDk);
}

TEST(DecoderSlice, Qwen3HandsOverItsNormalisedQueriesAndKeys)
{
    OpenedDecoder r;
    openDecoder("qwen3_qknorm_bf16", r);
    const long dh = r.model.config().headDim();
    HeadSlice s;
    ASSERT_TRUE(sliceHead(r.model, r.before, 0, 0, s).ok());
    EXPECT_TRUE(s.handedOver);
    ASSERT_EQ(s.X.cols(), 3 * dh);
    // Each head row of q and k after RMSNorm: mean square 1 before gamma, so with gamma its
    // length is that of gamma scaled, not that of the projection.
    const FloatMatrix q = s.X * s.W_Q;
    EXPECT_LT((q - s.X.leftCols(dh)).cwiseAbs().maxCoeff(), 1e-7f);
}

TEST(DecoderWeights, HalfPrecisionMatricesStayInTheMapping)
{
    for (const char* name : {"llama3_tied_bf16", "llama2_sharded_f16", "qwen3_qknorm_bf16"}) {
        Model model;
        ASSERT_TRUE(Model::load(decoderFixture(name).string(), model).ok()) << name;
        const LayerWeights& L = model.layers().front();
        for (const Dense* d : {&L.q, &L.k, &L.v, &L.attnOut, &L.gate, &L.mlpIn, &L.mlpOut}) {
            EXPECT_EQ(d->weight, nullptr) << name;
            EXPECT_NE(d->raw, nullptr) << name;
            EXPECT_NE(d->format, kernels::WeightFormat::F32) << name;
        }
        EXPECT_NE(model.outputLayer().raw, nullptr) << name;
        std::size_t copied = 0;
        for (const SafetensorsFile& f : model.shards()) copied += f.copiedBytes();
        EXPECT_EQ(copied, 0u) << name << ": nothing widened into the file's buffers";
        // Norms are float copies (small): gamma is readable as float.
        EXPECT_NE(L.ln1.gamma, nullptr);
        EXPECT_TRUE(std::isfinite(L.ln1.gamma[0]));
    }
    Model f32;
    ASSERT_TRUE(Model::load(decoderFixture("mistral_window_f32").string(), f32).ok());
    EXPECT_NE(f32.layers().front().q.weight, nullptr);
    EXPECT_EQ(f32.layers().front().q.raw, nullptr);
}

TEST(DecoderHeads, DetectorsScoreEveryQueryHead)
{
    Model model;
    ASSERT_TRUE(Model::load(decoderFixture("llama3_tied_bf16").string(), model).ok());
    DetectSpec spec;
    spec.m = 6;
    spec.count = 3;
    HeadScoreTable table;
    const attn::Status s = detectHeads(model, spec, table);
    ASSERT_TRUE(s.ok()) << attn::describe(s);
    ASSERT_EQ(static_cast<long>(table.size()), model.config().layers);
    EXPECT_EQ(static_cast<long>(table.front().size()), model.config().heads);
}

}  // namespace
}  // namespace attn::model
