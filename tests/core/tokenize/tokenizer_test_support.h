// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Shared helpers for the tokenizer tests: where the committed fixtures live, and small files.

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

namespace attn::tok::testing {

inline std::filesystem::path tokenizerFixtureDir()
{
    return std::filesystem::path(ATTNLAB_FIXTURE_DIR).parent_path() / "tokenizers";
}

inline nlohmann::json readJsonFixture(const std::string& name)
{
    std::ifstream in(tokenizerFixtureDir() / name, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return nlohmann::json::parse(ss.str());
}

// A fresh empty folder under the system temp dir.
inline std::filesystem::path freshTempDir(const std::string& name)
{
    const auto dir = std::filesystem::temp_directory_path() / ("attnlab_tok_" + name);
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    return dir;
}

inline void writeFile(const std::filesystem::path& path, const std::string& content)
{
    std::ofstream out(path, std::ios::binary);
    out << content;
}

// A tokenizer.json around a character vocabulary, with the pipeline given.
inline nlohmann::json tinyJson(const std::string& pipelineJson)
{
    nlohmann::json j = nlohmann::json::parse(pipelineJson);
    nlohmann::json vocab = nlohmann::json::object();
    int id = 0;
    for (const std::string piece :
         {"<unk>", "<s>", "a", "b", "c", "ab", "abc", "-", " ", "x", "\xE2\x96\x81",
          "\xE2\x96\x81"
          "a",
          "<0xC3>", "<0xA9>", "[X]", "_"})
        vocab[piece] = id++;
    nlohmann::json model = {
        {"type", "BPE"}, {"vocab", vocab}, {"merges", {"a b", "ab c", "\xE2\x96\x81 a"}}};
    if (j.contains("model")) model.update(j["model"]);
    j["model"] = model;
    return j;
}

}  // namespace attn::tok::testing
