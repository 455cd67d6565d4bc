// SPDX-License-Identifier: GPL-3.0-or-later
// Edits of a real model's heads (scale a query, key or value vector; ablate a head to zero or
// to its mean) carried through the rest of the network, against a plain-PyTorch forward with
// the same edit applied by a hook (tests/reference/make_edit_fixtures.py, edits.json beside
// each tiny fixture); and the checks that refuse an edit outside the model or the text.
#include "core/model/head_edit.h"

#include <cmath>
#include <gtest/gtest.h>

#include "model_files.h"

namespace attn::model {
namespace {

using test::json;

constexpr double kWeightTolerance = 1e-4;
constexpr double kEditLogitTolerance = 1e-3;

HeadEdit editOf(const json& j)
{
    HeadEdit e;
    const std::string kind = j["kind"].get<std::string>();
    e.layer = j["layer"].get<int>();
    e.head = j["head"].get<int>();
    if (kind == "ablate") {
        e.kind = j["mode"].get<std::string>() == "mean" ? HeadEditKind::AblateMean
                                                        : HeadEditKind::AblateZero;
        return e;
    }
    e.kind = kind == "key"     ? HeadEditKind::Key
             : kind == "query" ? HeadEditKind::Query
                               : HeadEditKind::Value;
    e.index = j["index"].get<long>();
    e.scale = j["scale"].get<float>();
    return e;
}

class HeadEdits : public ::testing::TestWithParam<const char*> {};

TEST_P(HeadEdits, AgreeWithPyTorchOnEveryLaterWeightAndTheLogits)
{
    Model model;
    ASSERT_TRUE(Model::load(test::modelFixture(GetParam()).string(), model).ok());
    const json want = json::parse(test::readBytes(test::modelFixture(GetParam()) / "edits.json"));
    const std::vector<int> ids = want["ids"].get<std::vector<int>>();
    ForwardOptions options;
    options.allLogits = true;
    options.maskTokenId = want["mask_token_id"].get<int>();
    ForwardResult before;
    ASSERT_TRUE(forward(model, ids, options, before).ok());
    const long n = static_cast<long>(ids.size());
    ASSERT_GE(want["cases"].size(), 7u);
    for (const json& c : want["cases"]) {
        std::vector<HeadEdit> edits;
        for (const json& e : c["edits"]) edits.push_back(editOf(e));
        SCOPED_TRACE(describe(edits.front()));
        ForwardResult after;
        const attn::Status s = runEdited(model, before, edits, options, after);
        ASSERT_TRUE(s.ok()) << attn::describe(s);
        const test::TorchGap gap = test::gapToTorch(after, c, n);
        EXPECT_LT(gap.weight, kWeightTolerance);
        EXPECT_LT(gap.logit, kEditLogitTolerance);
        ASSERT_EQ(after.predictions.size(), c["predictions"].size());
        for (std::size_t p = 0; p < after.predictions.size(); ++p) {
            const json& top = c["predictions"][p]["top"];
            for (std::size_t k = 0; k < after.predictions[p].top.size(); ++k)
                EXPECT_EQ(after.predictions[p].top[k].id, top[k][0].get<int>());
        }
        // The edit moved the logits: a test that cannot fail would not.
        EXPECT_GT((after.logits - before.logits).cwiseAbs().maxCoeff(), 0.1f);
    }
}

INSTANTIATE_TEST_SUITE_P(Fixtures, HeadEdits, ::testing::Values("gpt2_tiny", "bert_tiny"));

TEST(HeadEdits, LayersBeforeTheEditAreTheUneditedRunsAndTheChangeGridSaysWhere)
{
    Model model;
    ASSERT_TRUE(Model::load(test::modelFixture("gpt2_tiny").string(), model).ok());
    const std::vector<int> ids{5, 9, 2, 33, 17, 8};
    ForwardResult before, after;
    ASSERT_TRUE(forward(model, ids, {}, before).ok());
    const std::vector<HeadEdit> edits{{HeadEditKind::Key, 1, 2, 1, 2.0f}};
    ASSERT_TRUE(runEdited(model, before, edits, {}, after).ok());
    const auto change = attentionChange(before, after);
    ASSERT_EQ(change.size(), 2u);
    for (float v : change[0]) EXPECT_EQ(v, 0.0f);  // layer 1 runs before the edit
    EXPECT_GT(change[1][2], 0.0f);                 // the edited head itself
    EXPECT_EQ(change[1][0], 0.0f);                 // other heads of the same layer
}

TEST(HeadEdits, EditsOutsideTheModelOrTheTextAreRefusedNamingThem)
{
    Model model;
    ASSERT_TRUE(Model::load(test::modelFixture("gpt2_tiny").string(), model).ok());
    const auto refused = [&](std::vector<HeadEdit> edits, const std::string& words) {
        const attn::Status s = checkEdits(model, 6, edits);
        EXPECT_FALSE(s.ok());
        EXPECT_NE(attn::describe(s).find(words), std::string::npos) << attn::describe(s);
    };
    refused({{HeadEditKind::Key, 2, 0, 0, 2.0f}},
            "edit 1 (key layer 3 head 1 index 1 x2): the "
            "model has 2 layers");
    refused({{HeadEditKind::Key, 0, 4, 0, 2.0f}}, "4 heads");
    refused({{HeadEditKind::Query, 0, 0, 6, 2.0f}}, "6 tokens");
    refused({{HeadEditKind::Value, 0, 0, 1, NAN}}, "not finite");
    refused({{HeadEditKind::Key, 0, 0, 1, 2.0f}, {HeadEditKind::Key, 0, 0, 1, 3.0f}},
            "edit 2 (key layer 1 head 1 index 2 x3): the same as edit 1");
    refused({{HeadEditKind::AblateZero, 1, 1, 0, 1.0f}, {HeadEditKind::AblateMean, 1, 1, 0, 1.0f}},
            "the same as edit 1 (ablate layer 2 head 2)");
    // The status names the edit by its index, and the earlier one of a pair in `row`, so that
    // a caller can name its own options; the sentence after the names is `detail`.
    const attn::Status s =
        checkEdits(model, 6,
                   std::vector<HeadEdit>{{HeadEditKind::Key, 0, 0, 1, 2.0f},
                                         {HeadEditKind::AblateZero, 0, 5, 0, 1.0f}});
    EXPECT_EQ(s.code, attn::StatusCode::BadLayer);
    EXPECT_EQ(s.edit, 1);
    EXPECT_EQ(s.detail, "the model has 4 heads");
    // The part at fault, its number and what the model has: enough to say it in any language.
    EXPECT_EQ(s.field, "head");
    EXPECT_EQ(s.value, 5);
    EXPECT_EQ(s.limit, 4);
    EXPECT_EQ(s.layer, 0);
    EXPECT_EQ(s.subject, "ablate layer 1 head 6");
    const attn::Status twice =
        checkEdits(model, 6,
                   std::vector<HeadEdit>{{HeadEditKind::Key, 0, 0, 1, 2.0f},
                                         {HeadEditKind::Key, 0, 0, 1, 3.0f}});
    EXPECT_EQ(twice.code, attn::StatusCode::DuplicateEdit);
    EXPECT_EQ(twice.edit, 1);
    EXPECT_EQ(twice.row, 0);
    EXPECT_TRUE(checkEdits(model, 6,
                           std::vector<HeadEdit>{{HeadEditKind::Key, 0, 0, 1, 2.0f},
                                                 {HeadEditKind::Query, 0, 0, 1, 2.0f}})
                    .ok());
}

}  // namespace
}  // namespace attn::model
