// SPDX-License-Identifier: GPL-3.0-or-later
// The strict JSON reader: what a tree-building parser accepts silently or pays for is refused
// as it is met, with the JSON path of the value: a key twice in one object, nesting past the
// limit, more values than the limit, UTF-16 and UTF-32 text; what nlohmann refuses (ill-formed
// UTF-8, bad syntax) is refused with its line and column.
#include "core/io/json_read.h"

#include <cmath>
#include <gtest/gtest.h>
#include <map>
#include <string>
#include <vector>

#include "support/address_limit.h"

namespace attn::io {
namespace {

using Kind = JsonProblem::Kind;

JsonProblem problemOf(std::string_view text, const JsonLimits& limits = {})
{
    nlohmann::json out;
    const JsonProblem p = parseJson(text, out, limits);
    if (!p.ok()) {
        EXPECT_TRUE(out.is_null());
    }
    return p;
}

TEST(JsonRead, ReadsAnObjectAsNlohmannDoesAndKeepsNegativeZero)
{
    nlohmann::json out;
    ASSERT_TRUE(parseJson("\xEF\xBB\xBF{\"a\": [1, -0.0, \"x\"], \"b\": {\"c\": null}}", out).ok());
    EXPECT_EQ(out["a"][0], 1);
    EXPECT_TRUE(std::signbit(out["a"][1].get<double>()));
    EXPECT_EQ(out["b"]["c"], nullptr);
}

TEST(JsonRead, AKeyTwiceInOneObjectIsRefusedWithItsPath)
{
    const JsonProblem p = problemOf(R"({"options": {"mode": "self", "mode": "causal"}})");
    EXPECT_EQ(p.kind, Kind::DuplicateKey);
    EXPECT_EQ(describe(p),
              "options.mode: appears twice in the same object; each key may appear only once");
    // The same key in two objects is fine.
    EXPECT_TRUE(problemOf(R"([{"a": 1}, {"a": 2}])").ok());
}

TEST(JsonRead, PathsCountListElementsFromOne)
{
    const JsonProblem p = problemOf(R"({"heads": [{}, {"W_K": 1, "W_K": 2}]})");
    EXPECT_EQ(p.kind, Kind::DuplicateKey);
    EXPECT_EQ(p.path, "heads[2].W_K");
}

TEST(JsonRead, NestingPastTheLimitIsRefusedBeforeTheTreeGrows)
{
    const std::string deep = R"({"x": [[0], )" + std::string(1'000'000, '[');
    const JsonProblem p = problemOf(deep);
    EXPECT_EQ(p.kind, Kind::TooDeep);
    EXPECT_EQ(p.message, "nested more than 64 levels deep");
    EXPECT_EQ(p.path.substr(0, 8), "x[2][1][");  // lists counted from 1
    EXPECT_TRUE(problemOf(std::string(64, '[') + std::string(64, ']')).ok());
}

TEST(JsonRead, MoreValuesThanTheLimitAreRefused)
{
    const JsonProblem p = problemOf("[1, 2, 3, 4]", JsonLimits{64, 4});
    EXPECT_EQ(p.kind, Kind::TooManyValues);
    EXPECT_EQ(describe(p), "[4]: holds more than 4 values");
}

TEST(JsonRead, Utf16AndUtf32AndIllFormedUtf8AreRefused)
{
    using namespace std::string_view_literals;
    EXPECT_EQ(problemOf("\xFF\xFE{\0}\0"sv).kind, Kind::Utf16);
    EXPECT_EQ(problemOf("\xFF\xFE\0\0{\0\0\0"sv).kind, Kind::Utf32);
    const JsonProblem p = problemOf("{\"a\": \"\xC3\x28\"}");
    EXPECT_EQ(p.kind, Kind::InvalidUtf8);
    EXPECT_NE(p.message.find("line 1"), std::string::npos) << p.message;
    EXPECT_NE(p.message.find("UTF-8"), std::string::npos) << p.message;
}

TEST(JsonRead, ListLengthsAreCountedThroughKeysAloneWithoutATree)
{
    std::map<std::string, std::size_t> lengths;
    ASSERT_TRUE(jsonListLengths(
        R"({"target": {"tokens": ["a", "b", "c"], "embeddings": [[1], [2]]}, "x": [{"y": [1]}],)"
        R"( "a": {"b": {"c": [1, 2]}}})",
        2, lengths));
    const std::map<std::string, std::size_t> expected = {
        {"target.tokens", 3}, {"target.embeddings", 2}, {"x", 1}};
    EXPECT_EQ(lengths, expected);  // not x[0].y, not a.b.c (three keys deep)
    EXPECT_FALSE(jsonListLengths(std::string(100, '['), 2, lengths));
}

TEST(JsonRead, StreamedContainersHandOverEachElementAndStayEmptyInTheTree)
{
    std::vector<std::string> seen;
    const JsonStream streams[] = {
        {"m.vocab",
         [&seen](std::string* key, std::size_t i, nlohmann::json& v, std::string&) {
             seen.push_back(*key + "=" + v.dump() + "@" + std::to_string(i));
             return true;
         }},
        {"m.merges", [&seen](std::string* key, std::size_t i, nlohmann::json& v, std::string&) {
             seen.push_back((key ? "key?" : "") + v.dump() + "@" + std::to_string(i));
             return true;
         }}};
    nlohmann::json out;
    ASSERT_TRUE(
        parseJson(R"({"m": {"merges": ["a b", ["c", {"d": [1]}]], "vocab": {"x": 1, "y": 2},)"
                  R"( "k": 3}, "list": [{"vocab": {"z": 0}}]})",
                  out, streams)
            .ok());
    const std::vector<std::string> want = {R"("a b"@0)", R"(["c",{"d":[1]}]@1)", "x=1@0", "y=2@1"};
    EXPECT_EQ(seen, want)
        << "containers inside an element come whole; a list's elements have no key";
    EXPECT_EQ(out["m"]["vocab"], nlohmann::json::object());
    EXPECT_EQ(out["m"]["merges"], nlohmann::json::array());
    EXPECT_EQ(out["m"]["k"], 3);
    EXPECT_EQ(out["list"][0]["vocab"]["z"], 0) << "a path through a list is not streamed";
}

TEST(JsonRead, AStreamsRefusalStopsTheParseWithItsMessageAndPath)
{
    const JsonStream streams[] = {
        {"merges", [](std::string*, std::size_t i, nlohmann::json&, std::string& message) {
             message = "no " + std::to_string(i);
             return i < 2;
         }}};
    nlohmann::json out;
    const JsonProblem p = parseJson(R"({"merges": [1, [2], 3, 4]})", out, streams);
    EXPECT_EQ(p.kind, Kind::Refused);
    EXPECT_EQ(p.message, "no 2");
    EXPECT_EQ(p.path, "merges[3]");
    EXPECT_TRUE(out.is_null());
}

// Empty objects are 3 bytes of text each and about 100 bytes of tree: within its size limit a
// file could ask for many times its size. The reader counts what the tree takes as it grows.
TEST(JsonRead, ATreeLargerThanItsMemoryLimitIsRefusedAsItGrows)
{
    std::string text = "{\"overrides\": [";
    for (int i = 0; i < 100000; ++i) text += i ? ",{}" : "{}";
    text += "]}";
    JsonLimits limits;
    limits.maxTreeBytes = std::size_t{1} << 20;
    const JsonProblem p = problemOf(text, limits);
    EXPECT_EQ(p.kind, Kind::TooLarge);
    EXPECT_NE(p.message.find("more than 1 MiB of memory"), std::string::npos) << p.message;
    EXPECT_EQ(p.path.substr(0, 10), "overrides[");
    limits.maxTreeBytes = std::size_t{64} << 20;
    EXPECT_TRUE(problemOf(text, limits).ok());
}

// A 40 MB text of empty objects, which nlohmann's own parser turns into about 1.3 GB of tree,
// read with a limit of 256 MiB: refused before it is read to its end, and the parse never takes
// much more than the limit (the child's address space may grow by 400 MiB only).
TEST(JsonRead, EmptyObjectsPastTheLimitAreRefusedWithinItsMemory)
{
    if (!test::addressLimitWorks()) GTEST_SKIP() << "AddressSanitizer reserves terabytes";
    std::string text = "[{}";
    text.reserve(40u << 20);
    while (text.size() < (40u << 20)) text += ",{}";
    text += "]";
    const test::LimitedRun run = test::runWithAddressBudget(400 * test::kMiB, [&text] {
        nlohmann::json out;
        JsonLimits limits;
        limits.maxTreeBytes = std::size_t{256} << 20;
        const JsonProblem p = parseJson(text, out, limits);
        return std::to_string(static_cast<int>(p.kind)) + " " + p.message;
    });
    ASSERT_TRUE(run.exited) << "signal " << run.signal;
    EXPECT_EQ(run.report.substr(0, run.report.find(' ')),
              std::to_string(static_cast<int>(Kind::TooLarge)))
        << run.report;
}

TEST(JsonRead, ANumberThatWouldReadAsZeroOrInfinityIsRefused)
{
    JsonProblem p = problemOf("{\"eps\": 1e-400}");
    EXPECT_EQ(p.kind, Kind::NumberRange);
    EXPECT_EQ(p.path, "eps");
    EXPECT_NE(p.message.find("would read as 0"), std::string::npos) << p.message;
    EXPECT_NE(problemOf("[1e999]").kind, Kind::None);
    nlohmann::json out;
    ASSERT_TRUE(parseJson("[0.0, -0e5, 0.000e-999, 5e-324, 1e-300]", out).ok());
    EXPECT_EQ(out[3].get<double>(), 5e-324);
}

}  // namespace
}  // namespace attn::io
