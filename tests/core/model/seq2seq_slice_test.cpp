// SPDX-License-Identifier: GPL-3.0-or-later
// A real cross-attention head as the workbench's input in cross mode: every cross head of the
// tiny BART, Marian and T5 checkpoints, computed by the attention core from its slice, gives the
// model's own map; a key scaled in the workbench gives the map the model makes under the same
// edit; a head outside the model is refused by name.
#include "core/model/seq2seq_slice.h"

#include <gtest/gtest.h>

#include "core/attention.h"
#include "core/model/seq2seq_edit.h"
#include "seq2seq_runs.h"

namespace attn::model {
namespace {

using test::json;
using test::seq2seqFixture;

// The maps are made in float by the model and in double by the core from the same float inputs.
constexpr double kMapTolerance = 1e-5;

using Runs = test::Seq2SeqRuns;

AttentionResult workbench(const Runs& r, int layer, int head, const std::vector<VectorEdit>& edits)
{
    CrossSlice slice;
    const Status sliced = sliceCrossHead(r.model, r.before, layer, head, slice);
    EXPECT_TRUE(sliced.ok()) << describe(sliced);
    AttentionInput in = crossHeadInput(slice);
    in.edits = edits;
    AttentionResult result;
    const Status s = computeAttention<double>(in, result);
    EXPECT_TRUE(s.ok()) << describe(s);
    return result;
}

class CrossSlices : public ::testing::TestWithParam<const char*> {};

TEST_P(CrossSlices, EveryCrossHeadsWorkbenchInputGivesTheModelsMapWithin1e5)
{
    Runs r;
    ASSERT_NO_FATAL_FAILURE(test::prepareSeq2Seq(GetParam(), r));
    const Seq2SeqConfig& c = r.model.config();
    for (int l = 0; l < c.decoderLayers; ++l)
        for (int h = 0; h < c.heads; ++h) {
            const AttentionResult got = workbench(r, l, h, {});
            ASSERT_EQ(got.heads.size(), 1u);
            const FloatMatrix& want =
                r.before.cross[static_cast<std::size_t>(l)][static_cast<std::size_t>(h)];
            ASSERT_EQ(got.heads[0].weights.rows(), want.rows());
            ASSERT_EQ(got.heads[0].weights.cols(), want.cols());  // target x source
            EXPECT_LE((got.heads[0].weights.cast<float>() - want).cwiseAbs().maxCoeff(),
                      kMapTolerance)
                << GetParam() << " cross layer " << l + 1 << " head " << h + 1;
        }
}

INSTANTIATE_TEST_SUITE_P(Families, CrossSlices,
                         ::testing::Values("bart_f32", "marian_f32", "t5_relu_tied_f32",
                                           "t5v11_gated_bf16_bin"));

TEST(CrossSlice, AKeyScaledInTheWorkbenchGivesTheMapTheModelMakesUnderThatEdit)
{
    for (const char* name : {"marian_f32", "t5_relu_tied_f32"}) {
        Runs r;
        ASSERT_NO_FATAL_FAILURE(test::prepareSeq2Seq(name, r));
        HeadEdit e;
        e.attention = AttentionKind::Cross;
        e.kind = HeadEditKind::Key;
        e.layer = 1;
        e.head = 2;
        e.index = 1;  // a source position
        e.scale = 3.0f;
        Seq2SeqResult after;
        ASSERT_TRUE(forwardSeq2Seq(r.model, r.source, r.target,
                                   withSeq2SeqEdits(Seq2SeqOptions(), {e}), after)
                        .ok());
        VectorEdit v;
        v.role = Role::Key;
        v.head = 0;
        v.index = 1;
        v.scale = 3.0;
        const AttentionResult got = workbench(r, 1, 2, {v});
        const FloatMatrix& want = after.cross[1][2];
        EXPECT_GT((want - r.before.cross[1][2]).cwiseAbs().maxCoeff(), 1e-3f) << name;
        EXPECT_LE((got.heads[0].weights.cast<float>() - want).cwiseAbs().maxCoeff(), kMapTolerance)
            << name;
    }
}

TEST(CrossSlice, AHeadOutsideTheModelOrARunWithoutItsLayerIsRefusedByName)
{
    Runs r;
    ASSERT_NO_FATAL_FAILURE(test::prepareSeq2Seq("marian_f32", r));
    const Seq2SeqConfig& c = r.model.config();
    CrossSlice slice;
    Status s = sliceCrossHead(r.model, r.before, static_cast<int>(c.decoderLayers), 0, slice);
    EXPECT_EQ(s.code, StatusCode::BadLayer);
    EXPECT_NE(describe(s).find("cross layer 3 head 1"), std::string::npos) << describe(s);
    s = sliceCrossHead(r.model, r.before, 0, static_cast<int>(c.heads), slice);
    EXPECT_NE(describe(s).find("decoder layers of 4 heads"), std::string::npos) << describe(s);
    Seq2SeqResult encoded;  // the encoder only: no decoder layer kept its input
    ASSERT_TRUE(encodeSeq2Seq(r.model, r.source, Seq2SeqOptions(), encoded).ok());
    s = sliceCrossHead(r.model, encoded, 0, 0, slice);
    EXPECT_NE(describe(s).find("kept no input"), std::string::npos) << describe(s);
}

}  // namespace
}  // namespace attn::model
