// SPDX-License-Identifier: GPL-3.0-or-later
// The safetensors writer (core/model/safetensors_write.h) against the core's reader: what is
// written opens with the same names, shapes and values, every tensor aligned (a view, no
// copy); bad tensors are refused.

#include "core/model/safetensors_write.h"

#include <gtest/gtest.h>
#include <string>
#include <vector>

#include "core/model/safetensors.h"

namespace attn::model::test {
namespace {

TEST(SafetensorsWrite, WrittenTensorsReadBackExactlyAsAlignedViews)
{
    const std::vector<TensorToWrite> tensors{
        {"a.weight", {2, 3}, {1.0f, -2.5f, 3.0f, 0.0f, 1e-30f, -7.0f}},
        {"b", {3}, {0.5f, 0.25f, -0.125f}},
        {"empty", {0, 4}, {}}};
    std::string bytes;
    ASSERT_TRUE(attn::model::safetensorsBytes(tensors, {{"format", "pt"}}, bytes).ok());
    EXPECT_EQ((bytes.size() - 8 - 4 * 9) % 8, 0u);  // header padded to 8 bytes
    SafetensorsFile file;
    const Status opened = SafetensorsFile::fromMemory(bytes.data(), bytes.size(), "mem", file);
    ASSERT_TRUE(opened.ok()) << describe(opened);
    ASSERT_EQ(file.tensors().size(), 3u);
    EXPECT_EQ(file.copiedBytes(), 0u);
    for (const TensorToWrite& t : tensors) {
        const TensorInfo* info = file.find(t.name);
        ASSERT_NE(info, nullptr) << t.name;
        EXPECT_EQ(info->dtype, "F32");
        EXPECT_EQ(info->shape, t.shape);
        ASSERT_EQ(info->elementCount(), static_cast<std::int64_t>(t.values.size()));
        for (std::size_t i = 0; i < t.values.size(); ++i) EXPECT_EQ(info->data[i], t.values[i]);
    }
}

TEST(SafetensorsWrite, ValuesThatDisagreeWithTheShapeOrRepeatedNamesAreRefused)
{
    std::string bytes;
    Status s = attn::model::safetensorsBytes({{"x", {2, 2}, {1.0f, 2.0f, 3.0f}}}, {}, bytes);
    EXPECT_EQ(s.code, StatusCode::TensorShape);
    EXPECT_EQ(s.field, "x");
    s = attn::model::safetensorsBytes({{"x", {1}, {1.0f}}, {"x", {1}, {2.0f}}}, {}, bytes);
    EXPECT_EQ(s.code, StatusCode::HeaderField);
    s = attn::model::safetensorsBytes({{"", {1}, {1.0f}}}, {}, bytes);
    EXPECT_EQ(s.code, StatusCode::HeaderField);
}

}  // namespace
}  // namespace attn::model::test
