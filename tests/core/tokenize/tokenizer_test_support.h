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

}  // namespace attn::tok::testing
