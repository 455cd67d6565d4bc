// SPDX-License-Identifier: GPL-3.0-or-later
// A value that is not finite in a model's run is named where it arose (layer, head and stage,
// counted from 1) and by its cause: the weights (naming the tensor), the text (finite weights
// whose values grow beyond float range on this input), or an edit (naming the edit).
#include <cmath>
#include <cstring>
#include <gtest/gtest.h>
#include <limits>

#include "core/model/forward.h"
#include "core/model/head_edit.h"
#include "model_files.h"

namespace attn::model {
namespace {

using test::json;

// Rewrites every float of tensor `name` in `folder`/model.safetensors (an F32 file) as
// change(value).
template <typename Change>
void rewriteTensor(const test::fs::path& folder, const std::string& name, Change change)
{
    const test::fs::path file = folder / "model.safetensors";
    std::string bytes = test::readBytes(file);
    std::uint64_t headerLength = 0;
    std::memcpy(&headerLength, bytes.data(), sizeof headerLength);
    const json header = json::parse(bytes.substr(8, headerLength));
    ASSERT_EQ(header.at(name).at("dtype"), "F32");
    const auto begin = header.at(name).at("data_offsets")[0].get<std::size_t>();
    const auto end = header.at(name).at("data_offsets")[1].get<std::size_t>();
    for (std::size_t at = 8 + headerLength + begin; at < 8 + headerLength + end; at += 4) {
        float v = 0;
        std::memcpy(&v, bytes.data() + at, 4);
        v = change(v);
        std::memcpy(bytes.data() + at, &v, 4);
    }
    test::writeBytes(file, bytes);
}

const std::vector<int> kIds{1, 5, 9, 13, 17, 21};

TEST(NonFinite, WeightsHoldingNaNAreNamedWithTheTensorLayerHeadAndStageFromOne)
{
    test::TempDir dir;
    const test::fs::path folder = dir.copyOf("gpt2_tiny");
    rewriteTensor(folder, "h.1.attn.c_attn.weight",
                  [](float) { return std::numeric_limits<float>::quiet_NaN(); });
    Model model;
    ASSERT_TRUE(Model::load(folder.string(), model).ok());
    ForwardResult r;
    const attn::Status s = forward(model, kIds, {}, r);
    ASSERT_EQ(s.code, attn::StatusCode::NonFinite) << attn::describe(s);
    EXPECT_EQ(s.cause, attn::Cause::Weights);
    EXPECT_EQ(s.field, "h.1.attn.c_attn.weight");
    EXPECT_EQ(s.layer, 1);
    EXPECT_EQ(s.head, 0);
    EXPECT_EQ(s.stage, "the query vectors Q");
    EXPECT_NE(attn::describe(s).find("layer 2 head 1, the query vectors Q"), std::string::npos)
        << attn::describe(s);
    EXPECT_NE(attn::describe(s).find("the weights caused it: h.1.attn.c_attn.weight"),
              std::string::npos)
        << attn::describe(s);
    EXPECT_EQ(attn::describe(s).find("-1"), std::string::npos) << attn::describe(s);
}

TEST(NonFinite, FiniteWeightsThatOverflowOnTheTextBlameTheText)
{
    test::TempDir dir;
    const test::fs::path folder = dir.copyOf("gpt2_tiny");
    // Finite, but q . k is about 1e50 on any text: beyond float range.
    rewriteTensor(folder, "h.0.attn.c_attn.weight", [](float v) { return v * 1e25f; });
    Model model;
    ASSERT_TRUE(Model::load(folder.string(), model).ok());
    ForwardResult r;
    const attn::Status s = forward(model, kIds, {}, r);
    ASSERT_EQ(s.code, attn::StatusCode::NonFinite) << attn::describe(s);
    EXPECT_EQ(s.cause, attn::Cause::Text);
    EXPECT_EQ(s.layer, 0);
    EXPECT_GE(s.head, 0);
    EXPECT_NE(attn::describe(s).find("layer 1 head "), std::string::npos) << attn::describe(s);
    EXPECT_NE(attn::describe(s).find("the scores"), std::string::npos) << attn::describe(s);
    EXPECT_NE(attn::describe(s).find("the text caused it"), std::string::npos) << attn::describe(s);
}

TEST(NonFinite, AnEditThatOverflowsIsNamedAsTheCause)
{
    Model model;
    ASSERT_TRUE(Model::load(test::modelFixture("gpt2_tiny").string(), model).ok());
    ForwardResult before, after;
    ASSERT_TRUE(forward(model, kIds, {}, before).ok());
    // The query and the key of one position scaled by 3e38 each: their product is beyond any
    // float, whatever the vectors hold.
    const std::vector<HeadEdit> edits{{HeadEditKind::Value, 1, 3, 2, 2.0f},
                                      {HeadEditKind::Query, 0, 1, 2, 3e38f},
                                      {HeadEditKind::Key, 0, 1, 2, 3e38f}};
    const attn::Status s = runEdited(model, before, edits, {}, after);
    ASSERT_EQ(s.code, attn::StatusCode::NonFinite) << attn::describe(s);
    EXPECT_EQ(s.cause, attn::Cause::Edit);
    EXPECT_EQ(s.edit, 1);
    EXPECT_EQ(s.layer, 0);
    EXPECT_EQ(s.head, 1);
    EXPECT_NE(attn::describe(s).find("layer 1 head 2"), std::string::npos) << attn::describe(s);
    EXPECT_NE(attn::describe(s).find("the edit caused it"), std::string::npos) << attn::describe(s);
    EXPECT_NE(attn::describe(s).find("edit 2 (query layer 1 head 2 index 3 x3e+38)"),
              std::string::npos)
        << attn::describe(s);
}

TEST(NonFinite, AStatusWithoutACellNamesNoRowOrColumn)
{
    Status s{StatusCode::NonFinite, "output"};
    EXPECT_EQ(describe(s), "output: holds a value that is not a finite number");
    s.row = 2;
    s.col = 0;
    EXPECT_EQ(describe(s), "output: the value at row 3, column 1 is not a finite number");
}

}  // namespace
}  // namespace attn::model
