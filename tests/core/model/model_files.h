// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Test helpers for checkpoints on disk: a temporary folder removed at the end of the test,
// copies of the committed model fixtures, and safetensors files written or rewritten byte by
// byte (to make truncated, lying and overlapping files from good ones).

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <gtest/gtest.h>
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

// The Llama-family checkpoints of tests/reference/make_decoder_fixtures.py.
inline fs::path decoderFixture(const std::string& name)
{
    return fs::path(ATTNLAB_FIXTURE_DIR) / "decoders" / name;
}

// The encoder-decoder checkpoints of tests/reference/make_seq2seq_fixtures.py.
inline fs::path seq2seqFixture(const std::string& name)
{
    return fs::path(ATTNLAB_FIXTURE_DIR) / "seq2seq" / name;
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

// A GPT-2 checkpoint of the given shape with random weights (uniform noise of fixed ranges from
// a fixed xorshift seed), written straight to `folder` without holding it in memory.
struct Gpt2Shape {
    long layers = 12;
    long heads = 12;
    long width = 768;
    long positions = 1024;
    long vocab = 1000;
};

inline void writeRandomGpt2(const fs::path& folder, const Gpt2Shape& shape)
{
    const long d = shape.width, layers = shape.layers, positions = shape.positions,
               inner = 4 * shape.width, vocab = shape.vocab;
    writeBytes(folder / "config.json", json{{"model_type", "gpt2"},
                                            {"n_layer", layers},
                                            {"n_head", shape.heads},
                                            {"n_embd", d},
                                            {"n_positions", positions},
                                            {"vocab_size", vocab},
                                            {"layer_norm_epsilon", 1e-5},
                                            {"activation_function", "gelu_new"}}
                                           .dump());
    struct Entry {
        std::string name;
        std::vector<long> shape;
        float base;   // LayerNorm weights 1, everything else 0
        float range;  // plus uniform noise in [-range, range]
    };
    std::vector<Entry> entries{{"wte.weight", {vocab, d}, 0, 0.1f},
                               {"wpe.weight", {positions, d}, 0, 0.02f},
                               {"ln_f.weight", {d}, 1, 0},
                               {"ln_f.bias", {d}, 0, 0}};
    for (long i = 0; i < layers; ++i) {
        const std::string p = "h." + std::to_string(i) + ".";
        for (const auto& e : std::vector<Entry>{{"ln_1.weight", {d}, 1, 0},
                                                {"ln_1.bias", {d}, 0, 0},
                                                {"attn.c_attn.weight", {d, 3 * d}, 0, 0.06f},
                                                {"attn.c_attn.bias", {3 * d}, 0, 0.02f},
                                                {"attn.c_proj.weight", {d, d}, 0, 0.035f},
                                                {"attn.c_proj.bias", {d}, 0, 0.02f},
                                                {"ln_2.weight", {d}, 1, 0},
                                                {"ln_2.bias", {d}, 0, 0},
                                                {"mlp.c_fc.weight", {d, inner}, 0, 0.035f},
                                                {"mlp.c_fc.bias", {inner}, 0, 0.02f},
                                                {"mlp.c_proj.weight", {inner, d}, 0, 0.035f},
                                                {"mlp.c_proj.bias", {d}, 0, 0.02f}})
            entries.push_back({p + e.name, e.shape, e.base, e.range});
    }
    json header = json::object();
    std::size_t offset = 0;
    for (const Entry& e : entries) {
        std::size_t count = 1;
        for (long s : e.shape) count *= static_cast<std::size_t>(s);
        header[e.name] = {
            {"dtype", "F32"}, {"shape", e.shape}, {"data_offsets", {offset, offset + 4 * count}}};
        offset += 4 * count;
    }
    std::string text = header.dump();
    text.append((8 - text.size() % 8) % 8, ' ');
    std::FILE* f = std::fopen((folder / "model.safetensors").c_str(), "wb");
    ASSERT_NE(f, nullptr);
    const std::string prefix = safetensorsBytes(text, "");
    std::fwrite(prefix.data(), 1, prefix.size(), f);
    std::uint64_t state = 0x9E3779B97F4A7C15ull;
    std::vector<float> buffer;
    for (const Entry& e : entries) {
        std::size_t count = 1;
        for (long s : e.shape) count *= static_cast<std::size_t>(s);
        buffer.resize(count);
        for (float& v : buffer) {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            const float u = static_cast<float>(state >> 40) * (1.0f / 16777216.0f);  // [0, 1)
            v = e.base + e.range * (2.0f * u - 1.0f);
        }
        std::fwrite(buffer.data(), sizeof(float), count, f);
    }
    std::fclose(f);
}

// How far a run is from one case of a plain-PyTorch reference (edits.json): the largest absolute
// difference of any attention weight (case["attention"][layer][head], n x n flattened) and of
// any logit (case["logits"], one row per position).
struct TorchGap {
    double weight = 0.0;
    double logit = 0.0;
};

template <typename Run>
TorchGap gapToTorch(const Run& run, const json& c, long n)
{
    TorchGap g;
    for (std::size_t l = 0; l < run.layers.size(); ++l)
        for (std::size_t h = 0; h < run.layers[l].attention.size(); ++h) {
            const std::vector<double> w = c["attention"][l][h].template get<std::vector<double>>();
            const auto& got = run.layers[l].attention[h];
            for (long i = 0; i < n; ++i)
                for (long j = 0; j < n; ++j)
                    g.weight = std::max(
                        g.weight, std::abs(got(i, j) - w[static_cast<std::size_t>(i * n + j)]));
        }
    for (long i = 0; i < n; ++i) {
        const std::vector<double> row = c["logits"][i].template get<std::vector<double>>();
        for (std::size_t v = 0; v < row.size(); ++v)
            g.logit = std::max(g.logit, std::abs(run.logits(i, static_cast<long>(v)) - row[v]));
    }
    return g;
}

}  // namespace attn::model::test
