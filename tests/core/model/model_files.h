#pragma once
// Test helpers for checkpoints on disk: a temporary folder removed at the end of the test,
// copies of the committed model fixtures, and safetensors files written or rewritten byte by
// byte (to make truncated, lying and overlapping files from good ones).

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <vector>

#ifndef ATTNLAB_FIXTURE_DIR
#error "ATTNLAB_FIXTURE_DIR must name tests/reference/fixtures"
#endif

namespace attn::model::test {

namespace fs = std::filesystem;
using nlohmann::json;

inline fs::path modelFixture(const std::string& name)
{
    return fs::path(ATTNLAB_FIXTURE_DIR) / "models" / name;
}

class TempDir {
public:
    TempDir()
    {
        std::random_device rd;
        path_ = fs::temp_directory_path() /
                ("attnlab-model-" + std::to_string(rd()) + "-" + std::to_string(rd()));
        fs::create_directories(path_);
    }
    ~TempDir()
    {
        std::error_code ec;
        fs::remove_all(path_, ec);
    }
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;
    [[nodiscard]] const fs::path& path() const { return path_; }
    // A copy of the committed fixture `name` under this folder.
    [[nodiscard]] fs::path copyOf(const std::string& name) const
    {
        const fs::path target = path_ / name;
        fs::copy(modelFixture(name), target, fs::copy_options::recursive);
        return target;
    }

private:
    fs::path path_;
};

inline std::string readBytes(const fs::path& path)
{
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

inline void writeBytes(const fs::path& path, const std::string& bytes)
{
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

// 8-byte little-endian length + header text + data, exactly as given (no padding).
inline std::string safetensorsBytes(const std::string& header, const std::string& data)
{
    std::string out(8, '\0');
    std::uint64_t n = header.size();
    for (int i = 0; i < 8; ++i)
        out[static_cast<std::size_t>(i)] = static_cast<char>((n >> (8 * i)) & 0xff);
    return out + header + data;
}

// Rewrites the JSON header of a safetensors file through `edit`, keeping its data bytes.
inline void rewriteHeader(const fs::path& path, const std::function<void(json&)>& edit)
{
    const std::string bytes = readBytes(path);
    std::uint64_t n = 0;
    for (int i = 7; i >= 0; --i)
        n = (n << 8) | static_cast<unsigned char>(bytes[static_cast<std::size_t>(i)]);
    json header = json::parse(bytes.substr(8, n));
    edit(header);
    std::string text = header.dump();
    text.append((8 - text.size() % 8) % 8, ' ');
    writeBytes(path, safetensorsBytes(text, bytes.substr(8 + n)));
}

}  // namespace attn::model::test
