// SPDX-License-Identifier: GPL-3.0-or-later
// A real head taken out as the attention core's input (X, W and b of that head) gives the model's
// own map; an edit made there (the workbench's VectorEdit) and carried back into the model with
// runWithHead() agrees with a plain-PyTorch forward that applied the same edit by a hook
// (edits.json, tests/reference/make_edit_fixtures.py).
#include "core/model/head_slice.h"

#include <cmath>
#include <gtest/gtest.h>

#include "core/attention.h"
#include "model_files.h"

namespace attn::model {
namespace {

using test::json;

constexpr double kMapTolerance = 1e-5;          // workbench (double) against the model (float)
constexpr double kSliceWeightTolerance = 1e-4;  // against PyTorch, as the other model tests
constexpr double kSliceLogitTolerance = 1e-3;

struct Opened {
    Model model;
    json want;
    ForwardOptions options;
    ForwardResult before;
};

void open(const char* name, Opened& r)
{
    ASSERT_TRUE(Model::load(test::modelFixture(name).string(), r.model).ok());
    r.want = json::parse(test::readBytes(test::modelFixture(name) / "edits.json"));
    r.options.allLogits = true;
    r.options.maskTokenId = r.want["mask_token_id"].get<int>();
    const std::vector<int> ids = r.want["ids"].get<std::vector<int>>();
    ASSERT_TRUE(forward(r.model, ids, r.options, r.before).ok());
}

// The workbench's result for a slice with `edits`, in double, as the window computes it.
HeadOverride workbench(const Opened& r, int layer, int head, const std::vector<VectorEdit>& edits)
{
    HeadSlice slice;
    EXPECT_TRUE(sliceHead(r.model, r.before, layer, head, slice).ok());
    AttentionInput in = headInput(r.model, slice);
    in.edits = edits;
    AttentionResult result;
    const Status s = computeAttention<double>(in, result);
    EXPECT_TRUE(s.ok()) << describe(s);
    HeadOverride o;
    o.layer = layer;
    o.head = head;
    o.weights = result.heads[0].weights.cast<float>();
    o.output = result.heads[0].output.cast<float>();
    return o;
}

class HeadSlices : public ::testing::TestWithParam<const char*> {};

TEST_P(HeadSlices, EveryHeadsWorkbenchInputGivesTheModelsMapWithin1e5)
{
    Opened r;
    open(GetParam(), r);
    const ModelConfig& c = r.model.config();
    for (int l = 0; l < c.layers; ++l)
        for (int h = 0; h < c.heads; ++h) {
            const HeadOverride o = workbench(r, l, h, {});
            const FloatMatrix& want =
                r.before.layers[static_cast<std::size_t>(l)].attention[static_cast<std::size_t>(h)];
            EXPECT_LE((o.weights - want).cwiseAbs().maxCoeff(), kMapTolerance)
                << "layer " << l << " head " << h;
            EXPECT_EQ(o.weights.rows(), static_cast<long>(r.before.ids.size()));
        }
}

TEST_P(HeadSlices, AnUneditedHeadCarriedBackLeavesTheRunAsItWas)
{
    Opened r;
    open(GetParam(), r);
    ForwardResult after;
    const attn::Status s = runWithHead(r.model, r.before, workbench(r, 0, 1, {}), r.options, after);
    ASSERT_TRUE(s.ok()) << attn::describe(s);
    EXPECT_LE((after.logits - r.before.logits).cwiseAbs().maxCoeff(), 1e-4);
    EXPECT_EQ(after.predictions.front().top.front().id,
              r.before.predictions.front().top.front().id);
}

TEST_P(HeadSlices, WorkbenchEditsCarriedThroughAgreeWithPyTorch)
{
    Opened r;
    open(GetParam(), r);
    const long n = static_cast<long>(r.before.ids.size());
    int checked = 0;
    for (const json& c : r.want["cases"]) {
        if (c["edits"].size() != 1) continue;
        const json& e = c["edits"][0];
        const std::string kind = e["kind"].get<std::string>();
        if (kind == "ablate") continue;  // ablation is the model window's, not a vector edit
        VectorEdit edit;
        edit.role = kind == "key" ? Role::Key : kind == "query" ? Role::Query : Role::Value;
        edit.index = e["index"].get<int>();
        edit.scale = e["scale"].get<double>();
        const int layer = e["layer"].get<int>();
        const int head = e["head"].get<int>();
        SCOPED_TRACE(kind + " layer " + std::to_string(layer) + " head " + std::to_string(head));
        ForwardResult after;
        const attn::Status s =
            runWithHead(r.model, r.before, workbench(r, layer, head, {edit}), r.options, after);
        ASSERT_TRUE(s.ok()) << attn::describe(s);
        const test::TorchGap gap = test::gapToTorch(after, c, n);
        EXPECT_LT(gap.weight, kSliceWeightTolerance);
        EXPECT_LT(gap.logit, kSliceLogitTolerance);
        // The edit changed something (the test can tell an override that was ignored).
        EXPECT_GT((after.logits - r.before.logits).cwiseAbs().maxCoeff(), 1e-3);
        ++checked;
    }
    EXPECT_GE(checked, 4);  // key, query, value and key x10
}

INSTANTIATE_TEST_SUITE_P(BothFamilies, HeadSlices, ::testing::Values("gpt2_tiny", "bert_tiny"));

TEST(HeadSlice, GptSliceIsCausalWithTheHeadsBiasesAndBertIsNot)
{
    Opened gpt, bert;
    open("gpt2_tiny", gpt);
    open("bert_tiny", bert);
    HeadSlice g, b;
    ASSERT_TRUE(sliceHead(gpt.model, gpt.before, 1, 2, g).ok());
    ASSERT_TRUE(sliceHead(bert.model, bert.before, 1, 2, b).ok());
    EXPECT_TRUE(g.causal);
    EXPECT_FALSE(b.causal);
    const long dh = gpt.model.config().headDim();
    EXPECT_EQ(g.W_K.rows(), gpt.model.config().width);
    EXPECT_EQ(g.W_K.cols(), dh);
    EXPECT_EQ(g.b_V.size(), dh);
    // GPT-2's fused c_attn bias: [b_Q | b_K | b_V], heads side by side.
    const LayerWeights& L = gpt.model.layers()[1];
    const long d = gpt.model.config().width;
    EXPECT_EQ(g.b_K[0], L.qkv.bias[d + 2 * dh]);
    EXPECT_EQ(headInput(gpt.model, g).mode, Mode::Causal);
    EXPECT_EQ(headInput(bert.model, b).mode, Mode::Self);
    EXPECT_EQ(headInput(bert.model, b).scaling, Scaling::SqrtDk);
}

TEST(HeadSlice, HeadsOutsideTheModelAndMisshapenResultsAreRefusedNamingThem)
{
    Opened r;
    open("gpt2_tiny", r);
    HeadSlice slice;
    attn::Status s = sliceHead(r.model, r.before, 2, 0, slice);
    EXPECT_EQ(s.code, attn::StatusCode::BadLayer);
    EXPECT_NE(attn::describe(s).find("layer 3 head 1"), std::string::npos) << attn::describe(s);
    EXPECT_EQ(sliceHead(r.model, r.before, 0, 4, slice).code, attn::StatusCode::BadLayer);
    HeadOverride o = workbench(r, 0, 0, {});
    o.output.conservativeResize(o.output.rows(), o.output.cols() - 1);
    ForwardResult after;
    s = runWithHead(r.model, r.before, o, r.options, after);
    EXPECT_EQ(s.code, attn::StatusCode::TensorShape);
    EXPECT_NE(attn::describe(s).find("output"), std::string::npos) << attn::describe(s);
    o = workbench(r, 0, 0, {});
    o.weights(1, 1) = NAN;
    EXPECT_EQ(runWithHead(r.model, r.before, o, r.options, after).code,
              attn::StatusCode::NonFinite);
}

}  // namespace
}  // namespace attn::model
