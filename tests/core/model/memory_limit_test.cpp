// SPDX-License-Identifier: GPL-3.0-or-later
// Checkpoints and tokenizer files whose headers ask for absurd sizes (10^12 elements, nesting
// 10^6 deep, a 100 MB header, 2^24 layers) are refused before anything of that size is
// allocated: each is opened in a child process whose address space may grow by at most
// 100 MB beyond what it already holds (tests/core/support/address_limit.h).
#include <gtest/gtest.h>
#include <string>
#include <variant>

#include "core/model/config.h"
#include "core/model/model.h"
#include "core/model/safetensors.h"
#include "core/tokenize/bert_tokenizer.h"
#include "core/tokenize/gpt2_tokenizer.h"
#include "model_files.h"
#include "support/address_limit.h"

namespace attn::model {
namespace {

using test::json;
using test::TempDir;

constexpr unsigned long long kBudget = 100 * attn::test::kMiB;

std::string nested(std::size_t depth)
{
    return std::string(depth, '[') + std::string(depth, ']');
}

// Opens `bytes` as a safetensors file within the budget; the message (or "ok N tensors").
std::string openWithinBudget(const TempDir& dir, const std::string& bytes)
{
    const auto path = dir.path() / "model.safetensors";
    test::writeBytes(path, bytes);
    const attn::test::LimitedRun run = attn::test::runWithAddressBudget(kBudget, [&] {
        SafetensorsFile file;
        const attn::Status s = SafetensorsFile::open(path.string(), file);
        return s.ok() ? "ok " + std::to_string(file.tensors().size()) : attn::describe(s);
    });
    EXPECT_TRUE(run.exited) << "the child ended by signal " << run.signal;
    return run.report;
}

#define SKIP_UNDER_ASAN()                 \
    if (!attn::test::addressLimitWorks()) \
    GTEST_SKIP() << "AddressSanitizer reserves terabytes of address space: no RLIMIT_AS test"

TEST(MemoryLimit, SafetensorsTensorOfATrillionElementsIsRefusedWithin100MB)
{
    SKIP_UNDER_ASAN();
    TempDir dir;
    const std::string header =
        R"({"w":{"dtype":"F32","shape":[1000000,1000000],"data_offsets":[0,4000000000000]}})";
    const std::string report = openWithinBudget(dir, test::safetensorsBytes(header, "abcd"));
    EXPECT_NE(report.find("past the data section"), std::string::npos) << report;
}

TEST(MemoryLimit, SafetensorsHeaderLengthThatLiesIsRefusedWithin100MB)
{
    SKIP_UNDER_ASAN();
    TempDir dir;
    std::string bytes = test::safetensorsBytes(R"({"a":{}})", "");
    const std::uint64_t n = 100'000'000;
    for (int i = 0; i < 8; ++i)
        bytes[static_cast<std::size_t>(i)] = static_cast<char>((n >> (8 * i)) & 0xff);
    const std::string report = openWithinBudget(dir, bytes);
    EXPECT_NE(report.find("header length"), std::string::npos) << report;
}

TEST(MemoryLimit, SafetensorsHeaderOf100MBIsRefusedWithin100MB)
{
    SKIP_UNDER_ASAN();
    // A true 100 MB header: one metadata string (a JSON tree and its lexer each held a copy).
    TempDir dir;
    std::string header = R"({"__metadata__":{"note":")";
    header.append(100'000'000 - header.size() - 3, 'x');
    header += "\"}}";
    const std::string report = openWithinBudget(dir, test::safetensorsBytes(header, ""));
    EXPECT_NE(report.find("8 MiB limit"), std::string::npos) << report;
}

TEST(MemoryLimit, SafetensorsHeaderNestedTwoMillionDeepIsReadWithin100MB)
{
    SKIP_UNDER_ASAN();
    TempDir dir;
    // Nested inside a field the reader does not use: skipped, the file opens.
    const std::string skipped =
        R"({"a":{"dtype":"F32","shape":[1],"data_offsets":[0,4],"x":)" + nested(2'000'000) + "}}";
    std::string report = openWithinBudget(dir, test::safetensorsBytes(skipped, "abcd"));
    EXPECT_EQ(report, "ok 1");
    // Nested where an entry belongs: refused.
    const std::string entry = R"({"a":)" + nested(2'000'000) + "}";
    report = openWithinBudget(dir, test::safetensorsBytes(entry, ""));
    EXPECT_NE(report.find("entry is not a JSON object"), std::string::npos) << report;
}

TEST(MemoryLimit, SafetensorsHeaderOfTinyTensorsUpToTheLimitIsReadWithin100MB)
{
    SKIP_UNDER_ASAN();
    // The most tensors an 8 MiB header can declare: empty ones with short names.
    TempDir dir;
    std::string header = "{";
    long count = 0;
    while (header.size() < kMaxSafetensorsHeader - 64) {
        if (count) header += ',';
        header += '"' + std::to_string(count++) + R"(":{"dtype":"I8","shape":[0],)" +
                  R"("data_offsets":[0,0]})";
    }
    header += '}';
    const std::string report = openWithinBudget(dir, test::safetensorsBytes(header, ""));
    EXPECT_EQ(report, "ok " + std::to_string(count));
}

TEST(MemoryLimit, ConfigNestedAMillionDeepIsRefusedWithin100MB)
{
    SKIP_UNDER_ASAN();
    const std::string text =
        R"({"model_type":"gpt2","n_head":2,"n_embd":8,"n_layer":)" + nested(1'000'000) + "}";
    const attn::test::LimitedRun run = attn::test::runWithAddressBudget(kBudget, [&] {
        ModelConfig c;
        return attn::describe(parseConfig(text, "config.json", c));
    });
    ASSERT_TRUE(run.exited) << "the child ended by signal " << run.signal;
    EXPECT_NE(run.report.find("nested more than 64 levels"), std::string::npos) << run.report;
}

TEST(MemoryLimit, ConfigOfFifteenMebibytesIsRefusedWithin100MB)
{
    SKIP_UNDER_ASAN();
    TempDir dir;
    std::string text = R"({"model_type":"gpt2","id2label":[0)";
    while (text.size() < (15u << 20)) text += ",0";
    text += "]}";
    test::writeBytes(dir.path() / "config.json", text);
    const attn::test::LimitedRun run = attn::test::runWithAddressBudget(kBudget, [&] {
        ModelConfig c;
        return attn::describe(readConfig((dir.path() / "config.json").string(), c));
    });
    ASSERT_TRUE(run.exited) << "the child ended by signal " << run.signal;
    EXPECT_NE(run.report.find("not a config file"), std::string::npos) << run.report;
}

TEST(MemoryLimit, ModelDeclaringTwoToThe24LayersIsRefusedWithin100MB)
{
    SKIP_UNDER_ASAN();
    TempDir dir;
    const auto folder = dir.copyOf("gpt2_tiny");
    json config = json::parse(test::readBytes(folder / "config.json"));
    config["n_layer"] = 1 << 24;
    test::writeBytes(folder / "config.json", config.dump());
    const attn::test::LimitedRun run = attn::test::runWithAddressBudget(kBudget, [&] {
        Model m;
        return attn::describe(Model::load(folder.string(), m));
    });
    ASSERT_TRUE(run.exited) << "the child ended by signal " << run.signal;
    EXPECT_NE(run.report.find("h.2.ln_1.weight"), std::string::npos) << run.report;
    EXPECT_NE(run.report.find("missing"), std::string::npos) << run.report;
}

TEST(MemoryLimit, TokenizerFilesNestedFourMillionDeepAreRefusedWithin100MB)
{
    SKIP_UNDER_ASAN();
    const std::string deep = nested(4'000'000);
    attn::test::LimitedRun run = attn::test::runWithAddressBudget(kBudget, [&] {
        const auto loaded = attn::tok::Gpt2Tokenizer::fromStrings(deep, "a b\n");
        const auto* e = std::get_if<attn::Status>(&loaded);
        return e ? e->detail : std::string("loaded");
    });
    ASSERT_TRUE(run.exited) << "the child ended by signal " << run.signal;
    EXPECT_NE(run.report.find("nested more than 64 levels"), std::string::npos) << run.report;
    run = attn::test::runWithAddressBudget(kBudget, [&] {
        const auto loaded = attn::tok::BertTokenizer::optionsFromConfigJson(deep, "cfg.json");
        const auto* e = std::get_if<attn::Status>(&loaded);
        return e ? e->detail : std::string("loaded");
    });
    ASSERT_TRUE(run.exited) << "the child ended by signal " << run.signal;
    EXPECT_NE(run.report.find("nested more than 64 levels"), std::string::npos) << run.report;
}

}  // namespace
}  // namespace attn::model
