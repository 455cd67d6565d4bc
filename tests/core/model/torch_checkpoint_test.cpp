// SPDX-License-Identifier: GPL-3.0-or-later
// pytorch_model.bin, as torch.save writes it (tests/reference/make_torch_checkpoints.py):
// every dtype, views and tied weights read as PyTorch saved them, the same bytes as the
// safetensors twin, a model that runs the same, and a pickle that names anything but a state
// dict's parts refused by that name, never run.
#include <cstring>
#include <gtest/gtest.h>

#include "core/model/forward.h"
#include "core/model/model.h"
#include "core/model/safetensors.h"
#include "model_files.h"

namespace attn::model {
namespace {

using test::json;
using test::fs::path;

path torchFixture(const std::string& name)
{
    return path(ATTNLAB_FIXTURE_DIR) / "torch" / name;
}

attn::Status openTorch(const std::string& name, SafetensorsFile& file,
                       const SafetensorsOptions& options = {})
{
    return SafetensorsFile::open(torchFixture(name).string(), file, options);
}

double valueAt(const TensorInfo& t, std::int64_t k)
{
    if (t.data != nullptr) return t.data[k];
    std::int64_t v = 0;
    std::memcpy(&v, static_cast<const char*>(t.raw) + 8 * k, 8);
    return static_cast<double>(v);
}

TEST(TorchCheckpoint, ReadsEveryDtypeViewTiedAndEmptyTensorAsTorchSavedThem)
{
    SafetensorsFile file;
    const attn::Status s = openTorch("mixed.bin", file);
    ASSERT_TRUE(s.ok()) << attn::describe(s);
    const json expected = json::parse(test::readBytes(torchFixture("mixed.json")));
    ASSERT_EQ(file.tensors().size(), expected.size());
    for (const json& e : expected) {
        const std::string name = e["name"];
        SCOPED_TRACE(name);
        const TensorInfo* t = file.find(name);
        ASSERT_NE(t, nullptr);
        EXPECT_EQ(t->dtype, e["dtype"].get<std::string>());
        EXPECT_EQ(t->shape, e["shape"].get<std::vector<std::int64_t>>());
        const auto values = e["values"].get<std::vector<double>>();
        ASSERT_EQ(t->elementCount(), static_cast<std::int64_t>(values.size()));
        // Exact: F16 and BF16 widen to float without rounding, and torch wrote the doubles
        // from the same stored values.
        for (std::size_t k = 0; k < values.size(); ++k)
            EXPECT_EQ(valueAt(*t, static_cast<std::int64_t>(k)), values[k]) << "element " << k;
    }
    // A view and an alias read the bytes of the tensor they belong to.
    EXPECT_EQ(file.find("tied")->raw, file.find("weight")->raw);
    EXPECT_EQ(static_cast<const char*>(file.find("row")->raw),
              static_cast<const char*>(file.find("weight")->raw) + 6 * sizeof(float));
}

TEST(TorchCheckpoint, HoldsTheSameBytesAsTheSafetensorsTwinInEveryDtype)
{
    const std::pair<const char*, const char*> twins[] = {
        {"gpt2_tiny.bin", "gpt2_tiny"},
        {"gpt2_tiny_f16.bin", "gpt2_tiny_f16_prefixed"},
        {"bert_tiny_bf16.bin", "bert_tiny_bf16_prefixed"}};
    for (const auto& [bin, folder] : twins) {
        SCOPED_TRACE(bin);
        for (const bool widen : {true, false}) {
            SafetensorsFile torch, twin;
            ASSERT_TRUE(openTorch(bin, torch, {.widenHalf = widen}).ok());
            ASSERT_TRUE(
                SafetensorsFile::open((test::modelFixture(folder) / "model.safetensors").string(),
                                      twin, {.widenHalf = widen})
                    .ok());
            for (const TensorInfo& t : twin.tensors()) {
                const TensorInfo* b = torch.find(t.name);
                ASSERT_NE(b, nullptr) << t.name;
                EXPECT_EQ(b->dtype, t.dtype) << t.name;
                EXPECT_EQ(b->shape, t.shape) << t.name;
                ASSERT_EQ(b->end - b->begin, t.end - t.begin) << t.name;
                EXPECT_EQ(std::memcmp(b->raw, t.raw, t.end - t.begin), 0) << t.name;
                if (t.data != nullptr) {
                    EXPECT_EQ(std::memcmp(b->data, t.data, 4 * t.elementCount()), 0) << t.name;
                }
            }
        }
    }
}

TEST(TorchCheckpoint, AModelFolderWithOnlyPytorchModelBinRunsAsItsSafetensorsTwin)
{
    test::TempDir dir;
    for (const auto& [bin, folder] : {std::pair{"gpt2_tiny.bin", "gpt2_tiny"},
                                      std::pair{"bert_tiny_bf16.bin", "bert_tiny_bf16_prefixed"}}) {
        SCOPED_TRACE(bin);
        const path twin = test::modelFixture(folder);
        const path only = dir.path() / folder;
        test::fs::create_directories(only);
        test::fs::copy(twin / "config.json", only / "config.json");
        test::fs::copy(torchFixture(bin), only / "pytorch_model.bin");
        Model a, b;
        ASSERT_TRUE(Model::load(twin.string(), a).ok());
        const attn::Status s = Model::load(only.string(), b);
        ASSERT_TRUE(s.ok()) << attn::describe(s);
        const std::vector<int> ids = {3, 1, 4, 1, 5};
        ForwardResult ra, rb;
        ASSERT_TRUE(forward(a, ids, {}, ra).ok());
        ASSERT_TRUE(forward(b, ids, {}, rb).ok());
        ASSERT_EQ(ra.layers.size(), rb.layers.size());
        for (std::size_t l = 0; l < ra.layers.size(); ++l)
            for (std::size_t h = 0; h < ra.layers[l].attention.size(); ++h)
                EXPECT_EQ(ra.layers[l].attention[h], rb.layers[l].attention[h]) << l << " " << h;
        EXPECT_EQ(ra.finalHidden, rb.finalHidden);
    }
}

// The hub shards a large .bin checkpoint as it shards safetensors: an index names each
// tensor's file.
TEST(TorchCheckpoint, ADecoderShardedIntoBinFilesRunsAsItsSafetensorsTwin)
{
    test::TempDir dir;
    const path twin = test::decoderFixture("llama2_sharded_f16");
    const path only = dir.path() / "llama2";
    test::fs::copy(torchFixture("llama2_sharded_f16"), only);
    test::fs::copy(twin / "config.json", only / "config.json");
    Model a, b;
    ASSERT_TRUE(Model::load(twin.string(), a).ok());
    const attn::Status s = Model::load(only.string(), b);
    ASSERT_TRUE(s.ok()) << attn::describe(s);
    const std::vector<int> ids = {2, 7, 1, 8};
    ForwardResult ra, rb;
    ASSERT_TRUE(forward(a, ids, {}, ra).ok());
    ASSERT_TRUE(forward(b, ids, {}, rb).ok());
    for (std::size_t l = 0; l < ra.layers.size(); ++l)
        for (std::size_t h = 0; h < ra.layers[l].attention.size(); ++h)
            EXPECT_EQ(ra.layers[l].attention[h], rb.layers[l].attention[h]) << l << " " << h;
    ASSERT_FALSE(ra.predictions.empty());
    EXPECT_EQ(ra.logits, rb.logits);
}

void putLe(std::string& out, std::uint64_t v, int bytes)
{
    for (int i = 0; i < bytes; ++i) out.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}

// A zip of stored entries, as torch.save writes it (without its alignment padding).
std::string storedZip(const std::vector<std::pair<std::string, std::string>>& entries)
{
    std::string out, directory;
    for (const auto& [name, data] : entries) {
        const std::uint64_t local = out.size();
        putLe(out, 0x04034b50, 4);
        out.append(22,
                   '\0');  // version, flags, method 0, time, crc, sizes: read from the directory
        putLe(out, name.size(), 2);
        putLe(out, 0, 2);
        out += name + data;
        putLe(directory, 0x02014b50, 4);
        directory.append(16, '\0');
        putLe(directory, data.size(), 4);
        putLe(directory, data.size(), 4);
        putLe(directory, name.size(), 2);
        directory.append(12, '\0');
        putLe(directory, local, 4);
        directory += name;
    }
    const std::uint64_t at = out.size();
    out += directory;
    putLe(out, 0x06054b50, 4);
    out.append(4, '\0');
    putLe(out, entries.size(), 2);
    putLe(out, entries.size(), 2);
    putLe(out, directory.size(), 4);
    putLe(out, at, 4);
    putLe(out, 0, 2);
    return out;
}

attn::Status readPickle(const std::string& pickle)
{
    const std::string zip = storedZip({{"archive/data.pkl", pickle}});
    SafetensorsFile file;
    return SafetensorsFile::fromMemory(zip.data(), zip.size(), "hand.bin", file);
}

// What a pickle may build is bounded however small the file: a million objects, or a stack of
// a million, and no deeper.
TEST(TorchCheckpoint, APickleBuildingMoreThanItsBoundIsRefusedSayingSo)
{
    const std::string none((std::size_t{1} << 20) + 1, 'N');
    const std::string dup = "N" + std::string(std::size_t{1} << 20, '2');
    const std::string marks((std::size_t{1} << 20) + 1, '(');
    for (const std::string* p : {&none, &dup, &marks}) {
        // Appended in place: GCC 12 warns falsely (stringop-overflow) on the operator+ chain.
        std::string pickle("\x80\x02");
        pickle.append(*p).push_back('.');
        const attn::Status s = readPickle(pickle);
        EXPECT_EQ(s.code, attn::StatusCode::HeaderTooLarge) << attn::describe(s);
        EXPECT_NE(attn::describe(s).find("1048576"), std::string::npos) << attn::describe(s);
    }
    // Within the bound, the same opcodes are read: an empty dict is an empty state dict.
    EXPECT_TRUE(readPickle("\x80\x02NN00}.").ok());
    const attn::Status s = readPickle("\x80\x02].");
    EXPECT_NE(attn::describe(s).find("no dict of tensors"), std::string::npos) << attn::describe(s);
}

TEST(TorchCheckpoint, RefusesAPickleThatNamesAnyOtherFunctionByThatName)
{
    SafetensorsFile file;
    const attn::Status s = openTorch("runs_code.bin", file);
    EXPECT_FALSE(s.ok());
    EXPECT_NE(attn::describe(s).find("posix.system"), std::string::npos) << attn::describe(s);
    EXPECT_NE(attn::describe(s).find("runs_code.bin"), std::string::npos) << attn::describe(s);
    EXPECT_TRUE(file.tensors().empty());
}

TEST(TorchCheckpoint, RefusesStridedCompressedAndPre16FilesSayingWhy)
{
    const std::pair<const char*, const char*> cases[] = {{"not_contiguous.bin", "'weight.T'"},
                                                         {"compressed.bin", "compressed"},
                                                         {"legacy.bin", "PyTorch 1.6"}};
    for (const auto& [name, said] : cases) {
        SafetensorsFile file;
        const attn::Status s = openTorch(name, file);
        EXPECT_FALSE(s.ok()) << name;
        EXPECT_NE(attn::describe(s).find(said), std::string::npos) << attn::describe(s);
    }
}

// Every cut of a good file, and every single byte changed to 0xff in its pickle and zip
// directory: a clear refusal or a file whose tensors all lie inside it, never a crash.
TEST(TorchCheckpoint, CutOrDamagedFilesAreRefusedOrReadInsideTheirBytes)
{
    const std::string good = test::readBytes(torchFixture("mixed.bin"));
    auto check = [](const std::string& bytes) {
        SafetensorsFile file;
        const attn::Status s =
            SafetensorsFile::fromMemory(bytes.data(), bytes.size(), "damaged.bin", file);
        if (!s.ok()) {
            EXPECT_TRUE(file.tensors().empty());
            EXPECT_FALSE(attn::describe(s).empty());
            return;
        }
        for (const TensorInfo& t : file.tensors()) EXPECT_LE(t.end, bytes.size()) << t.name;
    };
    for (std::size_t n = 0; n < good.size(); ++n) check(good.substr(0, n));
    for (std::size_t k = 0; k < good.size(); ++k) {
        std::string bad = good;
        bad[k] = static_cast<char>(0xff);
        check(bad);
    }
}

}  // namespace
}  // namespace attn::model
