// SPDX-License-Identifier: GPL-3.0-or-later
// The safetensors reader: views without copies for F32, one conversion for F16 / BF16, and a
// clear refusal (naming file and tensor) for every malformed file — never a crash.
#include "core/model/safetensors.h"

#include <cmath>
#include <cstring>
#include <gtest/gtest.h>
#include <limits>

#include "model_files.h"

namespace attn::model {
namespace {

using test::json;
using test::TempDir;

std::string floatBytes(std::initializer_list<float> values)
{
    std::string out;
    for (float v : values) {
        char b[4];
        std::memcpy(b, &v, 4);
        out.append(b, 4);
    }
    return out;
}

attn::Status openBytes(const TempDir& dir, const std::string& bytes, SafetensorsFile& file)
{
    const auto path = dir.path() / "t.safetensors";
    test::writeBytes(path, bytes);
    return SafetensorsFile::open(path.string(), file);
}

TEST(Safetensors, MapsF32TensorsWithoutCopying)
{
    SafetensorsFile file;
    const auto path = test::modelFixture("gpt2_tiny") / "model.safetensors";
    ASSERT_TRUE(SafetensorsFile::open(path.string(), file).ok());
    EXPECT_EQ(file.copiedBytes(), 0u);
    const TensorInfo* wte = file.find("wte.weight");
    ASSERT_NE(wte, nullptr);
    EXPECT_EQ(wte->dtype, "F32");
    EXPECT_EQ(wte->shape, (std::vector<std::int64_t>{64, 16}));
    EXPECT_FALSE(wte->copied);
    ASSERT_NE(wte->data, nullptr);
    EXPECT_EQ(file.find("__metadata__"), nullptr);
    EXPECT_EQ(file.find("no.such.tensor"), nullptr);
}

TEST(Safetensors, ConvertsHalfAndBfloat16Once)
{
    EXPECT_EQ(halfToFloat(0x3C00), 1.0f);
    EXPECT_EQ(halfToFloat(0xC000), -2.0f);
    EXPECT_EQ(halfToFloat(0x0001), std::ldexp(1.0f, -24));  // smallest subnormal
    EXPECT_EQ(halfToFloat(0x03FF), std::ldexp(1023.0f, -24));
    EXPECT_EQ(halfToFloat(0x7BFF), 65504.0f);
    EXPECT_TRUE(std::isinf(halfToFloat(0x7C00)));
    EXPECT_TRUE(std::isnan(halfToFloat(0x7E00)));
    EXPECT_EQ(bfloat16ToFloat(0x3F80), 1.0f);
    EXPECT_EQ(bfloat16ToFloat(0xC040), -3.0f);

    SafetensorsFile file;
    const auto path = test::modelFixture("gpt2_tiny_f16_prefixed") / "model.safetensors";
    ASSERT_TRUE(SafetensorsFile::open(path.string(), file).ok());
    const TensorInfo* wte = file.find("transformer.wte.weight");
    ASSERT_NE(wte, nullptr);
    EXPECT_EQ(wte->dtype, "F16");
    EXPECT_TRUE(wte->copied);
    EXPECT_GT(file.copiedBytes(), 0u);
}

TEST(Safetensors, ReadsMisalignedF32ByCopyingIt)
{
    // A 9-byte header puts the data at byte 17: not a multiple of 4.
    TempDir dir;
    const std::string header = R"({"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]}})";
    std::string padded = header;  // choose padding so that 8 + length is odd
    if ((8 + padded.size()) % 2 == 0) padded += ' ';
    SafetensorsFile file;
    ASSERT_TRUE(
        openBytes(dir, test::safetensorsBytes(padded, floatBytes({1.5f, -2.25f})), file).ok());
    const TensorInfo* a = file.find("a");
    ASSERT_NE(a, nullptr);
    EXPECT_TRUE(a->copied);
    EXPECT_EQ(a->data[0], 1.5f);
    EXPECT_EQ(a->data[1], -2.25f);
    EXPECT_EQ(a->raw, a->data);  // the aligned copy
}

// The data section of a safetensors file's bytes: its tensors' bytes start there.
std::string dataSection(const std::string& bytes)
{
    std::uint64_t n = 0;
    for (int i = 7; i >= 0; --i)
        n = (n << 8) | static_cast<unsigned char>(bytes[static_cast<std::size_t>(i)]);
    return bytes.substr(8 + n);
}

TEST(Safetensors, KeepsBfloat16MappedWithoutCopyWhenAskedNotToWiden)
{
    const auto path = test::modelFixture("bert_tiny_bf16_prefixed") / "model.safetensors";
    const std::string data = dataSection(test::readBytes(path));
    SafetensorsFile mapped, widened;
    ASSERT_TRUE(SafetensorsFile::open(path.string(), mapped, {.widenHalf = false}).ok());
    ASSERT_TRUE(SafetensorsFile::open(path.string(), widened).ok());
    EXPECT_EQ(mapped.copiedBytes(), 0u);
    EXPECT_GT(widened.copiedBytes(), 0u);
    ASSERT_EQ(mapped.tensors().size(), widened.tensors().size());
    long halfTensors = 0;
    for (std::size_t i = 0; i < mapped.tensors().size(); ++i) {
        const TensorInfo& t = mapped.tensors()[i];
        const TensorInfo& w = widened.tensors()[i];
        ASSERT_NE(t.raw, nullptr) << t.name;
        const std::size_t bytes = t.end - t.begin;
        // Raw bytes are the file's, wherever the tensor is read from.
        EXPECT_EQ(std::memcmp(t.raw, data.data() + t.begin, bytes), 0) << t.name;
        EXPECT_EQ(std::memcmp(w.raw, data.data() + t.begin, bytes), 0) << t.name;
        if (t.dtype != "BF16") continue;
        ++halfTensors;
        EXPECT_EQ(t.data, nullptr) << t.name;
        EXPECT_FALSE(t.copied) << t.name;
        EXPECT_EQ(reinterpret_cast<std::uintptr_t>(t.raw) % 2, 0u) << t.name;
        // The default still converts, to the same values.
        ASSERT_NE(w.data, nullptr) << t.name;
        EXPECT_TRUE(w.copied) << t.name;
        const auto* bits = static_cast<const std::uint16_t*>(t.raw);
        for (std::int64_t k = 0; k < t.elementCount(); ++k)
            ASSERT_EQ(w.data[k], bfloat16ToFloat(bits[k])) << t.name << "[" << k << "]";
    }
    EXPECT_GT(halfTensors, 0);

    const std::string bytes = test::readBytes(path);
    SafetensorsFile inMemory;
    ASSERT_TRUE(SafetensorsFile::fromMemory(bytes.data(), bytes.size(), "in memory", inMemory,
                                            {.widenHalf = false})
                    .ok());
    EXPECT_EQ(inMemory.copiedBytes(), 0u);
    for (const TensorInfo& t : inMemory.tensors())
        EXPECT_TRUE(t.dtype == "BF16" ? t.data == nullptr : true) << t.name;
}

TEST(Safetensors, CopiesMisalignedHalfTensorOnceWhenNotWidening)
{
    // An odd header length puts the data at an odd byte.
    TempDir dir;
    std::string header = R"({"h":{"dtype":"F16","shape":[3],"data_offsets":[0,6]},)"
                         R"("b":{"dtype":"BF16","shape":[2],"data_offsets":[6,10]}})";
    if ((8 + header.size()) % 2 == 0) header += ' ';
    const std::string data("\x00\x3c\x00\xc0\x01\x00\x80\x3f\x40\xc0", 10);
    const auto path = dir.path() / "t.safetensors";
    test::writeBytes(path, test::safetensorsBytes(header, data));
    SafetensorsFile file;
    ASSERT_TRUE(SafetensorsFile::open(path.string(), file, {.widenHalf = false}).ok());
    EXPECT_EQ(file.copiedBytes(), 10u);
    const TensorInfo* h = file.find("h");
    const TensorInfo* b = file.find("b");
    ASSERT_NE(h, nullptr);
    ASSERT_NE(b, nullptr);
    for (const TensorInfo* t : {h, b}) {
        EXPECT_TRUE(t->copied);
        EXPECT_EQ(t->data, nullptr);
        EXPECT_EQ(reinterpret_cast<std::uintptr_t>(t->raw) % 2, 0u);
    }
    const auto* hb = static_cast<const std::uint16_t*>(h->raw);
    const auto* bb = static_cast<const std::uint16_t*>(b->raw);
    EXPECT_EQ(halfToFloat(hb[0]), 1.0f);
    EXPECT_EQ(halfToFloat(hb[1]), -2.0f);
    EXPECT_EQ(halfToFloat(hb[2]), std::ldexp(1.0f, -24));
    EXPECT_EQ(bfloat16ToFloat(bb[0]), 1.0f);
    EXPECT_EQ(bfloat16ToFloat(bb[1]), -3.0f);
}

TEST(Safetensors, KeepsNonFloatTensorsWithoutData)
{
    SafetensorsFile file;
    const auto path = test::modelFixture("bert_tiny_bf16_prefixed") / "model.safetensors";
    ASSERT_TRUE(SafetensorsFile::open(path.string(), file).ok());
    const TensorInfo* ids = file.find("bert.embeddings.position_ids");
    ASSERT_NE(ids, nullptr);
    EXPECT_EQ(ids->dtype, "I64");
    EXPECT_EQ(ids->data, nullptr);
}

void expectRefused(const std::string& bytes, attn::StatusCode code, const std::string& inMessage)
{
    TempDir dir;
    SafetensorsFile file;
    const attn::Status s = openBytes(dir, bytes, file);
    EXPECT_EQ(s.code, code) << attn::describe(s);
    EXPECT_NE(attn::describe(s).find("t.safetensors"), std::string::npos) << attn::describe(s);
    EXPECT_NE(attn::describe(s).find(inMessage), std::string::npos) << attn::describe(s);
    EXPECT_TRUE(file.tensors().empty());
}

TEST(Safetensors, RefusesMissingFile)
{
    SafetensorsFile file;
    const attn::Status s = SafetensorsFile::open("/nonexistent/dir/model.safetensors", file);
    EXPECT_EQ(s.code, attn::StatusCode::FileOpen);
    EXPECT_NE(attn::describe(s).find("/nonexistent/dir/model.safetensors"), std::string::npos);
}

TEST(Safetensors, RefusesFilesShorterThanTheirHeader)
{
    expectRefused("", attn::StatusCode::FileTruncated, "header length");
    expectRefused("abc", attn::StatusCode::FileTruncated, "header length");
    std::string bytes =
        test::safetensorsBytes(R"({"a":{"dtype":"F32","shape":[1],"data_offsets":[0,4]}})", "");
    expectRefused(bytes.substr(0, 20), attn::StatusCode::FileTruncated, "does not fit");
}

TEST(Safetensors, RefusesHeaderAboveEightMebibytesBeforeReadingIt)
{
    std::string bytes(16, ' ');
    const auto setLength = [&bytes](std::uint64_t n) {
        for (int i = 0; i < 8; ++i)
            bytes[static_cast<std::size_t>(i)] = static_cast<char>((n >> (8 * i)) & 0xff);
    };
    for (const std::uint64_t n :
         {kMaxSafetensorsHeader + 1, std::uint64_t{100'000'000}, std::uint64_t{200'000'000},
          std::numeric_limits<std::uint64_t>::max()}) {
        setLength(n);
        expectRefused(bytes, attn::StatusCode::HeaderTooLarge, "8 MiB limit");
    }
}

TEST(Safetensors, RefusesATensorNamedTwice)
{
    // A JSON tree keeps one of the two entries; which one the model would get is not said.
    expectRefused(test::safetensorsBytes(R"({"w":{"dtype":"F32","shape":[1],"data_offsets":[0,4]},)"
                                         R"("w":{"dtype":"F32","shape":[1],"data_offsets":[4,8]}})",
                                         floatBytes({1, 2})),
                  attn::StatusCode::HeaderField, "appears twice");
    expectRefused(test::safetensorsBytes(
                      R"({"w":{"dtype":"F32","shape":[1],"dtype":"F16","data_offsets":[0,4]}})",
                      floatBytes({1})),
                  attn::StatusCode::HeaderField, "\"dtype\" appears twice");
}

TEST(Safetensors, ReadsFromMemoryAsFromAFile)
{
    const std::string bytes =
        test::readBytes(test::modelFixture("gpt2_tiny_f16_prefixed") / "model.safetensors");
    SafetensorsFile fromFile, fromMemory;
    const auto path = test::modelFixture("gpt2_tiny_f16_prefixed") / "model.safetensors";
    ASSERT_TRUE(SafetensorsFile::open(path.string(), fromFile).ok());
    ASSERT_TRUE(
        SafetensorsFile::fromMemory(bytes.data(), bytes.size(), "in memory", fromMemory).ok());
    ASSERT_EQ(fromMemory.tensors().size(), fromFile.tensors().size());
    for (std::size_t i = 0; i < fromFile.tensors().size(); ++i) {
        const TensorInfo& a = fromFile.tensors()[i];
        const TensorInfo& b = fromMemory.tensors()[i];
        EXPECT_EQ(a.name, b.name);
        EXPECT_EQ(a.shape, b.shape);
        ASSERT_EQ(a.data == nullptr, b.data == nullptr) << a.name;
        if (a.data) {
            EXPECT_EQ(std::memcmp(a.data, b.data, a.elementCount() * 4), 0) << a.name;
        }
    }
    EXPECT_EQ(fromMemory.path(), "in memory");
    const attn::Status s = SafetensorsFile::fromMemory(bytes.data(), 20, "cut", fromMemory);
    EXPECT_EQ(s.code, attn::StatusCode::FileTruncated) << attn::describe(s);
    EXPECT_TRUE(fromMemory.tensors().empty());
}

TEST(Safetensors, ListsTensorsByNameAndSkipsFieldsItDoesNotUse)
{
    TempDir dir;
    SafetensorsFile file;
    ASSERT_TRUE(openBytes(dir,
                          test::safetensorsBytes(
                              R"({"b":{"dtype":"F32","shape":[1],"data_offsets":[0,4],)"
                              R"("x":{"y":[[1,{"z":null}]]}},"__metadata__":{"format":"pt"},)"
                              R"("a":{"data_offsets":[4,8],"shape":[1],"dtype":"F32"}})",
                              floatBytes({1, 2})),
                          file)
                    .ok());
    ASSERT_EQ(file.tensors().size(), 2u);
    EXPECT_EQ(file.tensors()[0].name, "a");
    EXPECT_EQ(file.tensors()[1].name, "b");
    EXPECT_EQ(file.find("a")->data[0], 2.0f);
    EXPECT_EQ(file.find("b")->data[0], 1.0f);
}

TEST(Safetensors, RefusesHeadersThatAreNotJsonObjects)
{
    expectRefused(test::safetensorsBytes("{\"a\": [1, 2", ""), attn::StatusCode::HeaderSyntax,
                  "JSON");
    expectRefused(test::safetensorsBytes("[1, 2, 3]", ""), attn::StatusCode::HeaderSyntax,
                  "object");
    expectRefused(test::safetensorsBytes(R"({"a": 3})", ""), attn::StatusCode::HeaderField, "'a'");
    expectRefused(test::safetensorsBytes(R"({"a":{"dtype":"F32","shape":[1]}})", "abcd"),
                  attn::StatusCode::HeaderField, "data_offsets");
    expectRefused(test::safetensorsBytes(
                      R"({"a":{"dtype":"F32","shape":[-1],"data_offsets":[0,4]}})", "abcd"),
                  attn::StatusCode::HeaderField, "shape");
}

TEST(Safetensors, RefusesUnknownDtypeByName)
{
    expectRefused(
        test::safetensorsBytes(R"({"w":{"dtype":"F12","shape":[1],"data_offsets":[0,4]}})", "abcd"),
        attn::StatusCode::UnknownDtype, "\"F12\"");
}

TEST(Safetensors, RefusesOffsetsThatLie)
{
    // Past the end of the data.
    expectRefused(
        test::safetensorsBytes(R"({"w":{"dtype":"F32","shape":[4],"data_offsets":[0,16]}})",
                               floatBytes({1, 2})),
        attn::StatusCode::BadOffsets, "'w'");
    // Begin after end.
    expectRefused(
        test::safetensorsBytes(R"({"w":{"dtype":"F32","shape":[0],"data_offsets":[8,4]}})",
                               floatBytes({1, 2})),
        attn::StatusCode::BadOffsets, "begin 8 > end 4");
    // Span disagreeing with shape x dtype.
    expectRefused(
        test::safetensorsBytes(R"({"w":{"dtype":"F32","shape":[3],"data_offsets":[0,8]}})",
                               floatBytes({1, 2})),
        attn::StatusCode::BadOffsets, "needs 12");
    // Shape whose byte size overflows 64 bits.
    expectRefused(
        test::safetensorsBytes(
            R"({"w":{"dtype":"F32","shape":[4294967296,4294967296],"data_offsets":[0,8]}})",
            floatBytes({1, 2})),
        attn::StatusCode::BadOffsets, "overflows");
}

TEST(Safetensors, RefusesOverlappingTensors)
{
    expectRefused(
        test::safetensorsBytes(R"({"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]},)"
                               R"("b":{"dtype":"F32","shape":[2],"data_offsets":[4,12]}})",
                               floatBytes({1, 2, 3})),
        attn::StatusCode::Overlap, "overlap");
}

TEST(Safetensors, RefusesTruncatedCheckpoint)
{
    TempDir dir;
    const std::string good = test::readBytes(test::modelFixture("gpt2_tiny") / "model.safetensors");
    SafetensorsFile file;
    const attn::Status s = openBytes(dir, good.substr(0, good.size() / 2), file);
    EXPECT_EQ(s.code, attn::StatusCode::BadOffsets) << attn::describe(s);
    EXPECT_NE(attn::describe(s).find("past the data section"), std::string::npos)
        << attn::describe(s);
}

}  // namespace
}  // namespace attn::model
