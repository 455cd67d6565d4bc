// SPDX-License-Identifier: GPL-3.0-or-later
#include "support/decoder_folder.h"

#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <iterator>
#include <random>

#include <QTemporaryDir>

#include "core/model/safetensors.h"
#include "core/model/safetensors_write.h"

namespace attnlab::test {

namespace {

// Qwen3's vocab_size in config.json (the tokenizer's ids stop at 151,668).
constexpr std::int64_t kQwen3Vocab = 151936;

}  // namespace

QString qwen3Folder(const QTemporaryDir& dir)
{
    namespace fs = std::filesystem;
    const fs::path source = fs::path(ATTNLAB_FIXTURE_DIR) / "decoders" / "qwen3_qknorm_bf16";
    const fs::path folder = fs::path(dir.path().toStdString()) / "qwen3-tiny";
    fs::create_directories(folder);
    attn::model::SafetensorsFile weights;
    const attn::Status opened =
        attn::model::SafetensorsFile::open((source / "model.safetensors").string(), weights);
    EXPECT_TRUE(opened.ok()) << attn::describe(opened);
    std::vector<attn::model::TensorToWrite> tensors;
    std::mt19937 random(7);
    std::normal_distribution<float> normal(0.0f, 0.5f);
    for (const attn::model::TensorInfo& t : weights.tensors()) {
        attn::model::TensorToWrite w{t.name, t.shape,
                                     std::vector<float>(t.data, t.data + t.elementCount())};
        if (t.name == "model.embed_tokens.weight") {
            const std::int64_t width = t.shape[1];
            w.shape[0] = kQwen3Vocab;
            w.values.resize(static_cast<std::size_t>(kQwen3Vocab * width));
            for (std::size_t i = static_cast<std::size_t>(t.elementCount()); i < w.values.size();
                 ++i)
                w.values[i] = normal(random);
        }
        tensors.push_back(std::move(w));
    }
    const attn::Status written =
        attn::model::writeSafetensors((folder / "model.safetensors").string(), tensors);
    EXPECT_TRUE(written.ok()) << attn::describe(written);
    std::string config;
    {
        std::ifstream in(source / "config.json");
        config.assign(std::istreambuf_iterator<char>(in), {});
    }
    const std::string from = "\"vocab_size\": 64";
    const auto at = config.find(from);
    EXPECT_NE(at, std::string::npos) << "the fixture's config changed";
    if (at != std::string::npos)
        config.replace(at, from.size(), "\"vocab_size\": " + std::to_string(kQwen3Vocab));
    std::ofstream(folder / "config.json") << config;
    const fs::path tokenizer = fs::path(ATTNLAB_HF_TOKENIZER_DIR) / "qwen3";
    for (const char* f : {"tokenizer.json", "tokenizer_config.json"})
        fs::copy_file(tokenizer / f, folder / f, fs::copy_options::overwrite_existing);
    return QString::fromStdString(folder.string());
}

}  // namespace attnlab::test
