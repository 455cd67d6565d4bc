// SPDX-License-Identifier: GPL-3.0-or-later
// Opening a Llama-family checkpoint: one model.safetensors, or the shards that
// model.safetensors.index.json maps tensor names to, as the hub ships models over ~5 GB.
#include <algorithm>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sys/mman.h>
#include <unistd.h>

#include "core/io/bounded_file.h"
#include "core/io/json_read.h"
#include "core/model/model_binder.h"
#include "core/model/model_folder.h"

namespace attn::model {

namespace {

#define ATTN_TRY(expr)                                     \
    do {                                                   \
        if (attn::Status s_ = (expr); !s_.ok()) return s_; \
    } while (false)

// An index lists a name per tensor: a few MB for the largest models there are.
constexpr std::uint64_t kMaxIndexBytes = std::uint64_t{64} << 20;

// The shard files model.safetensors.index.json names, in the order they first appear, each a
// plain file name inside the folder. Every tensor it maps must be in the file it names.
attn::Status readIndex(const std::filesystem::path& index, std::vector<std::string>& files,
                       std::map<std::string, std::string>& where)
{
    const std::string path = index.string();
    std::string text;
    const io::ReadStatus rs = io::readBoundedFile(path, kMaxIndexBytes, text);
    if (rs.error != io::ReadError::Ok)
        return attn::failure(attn::StatusCode::FileOpen, path, "",
                             "cannot read: " + io::describe(rs));
    nlohmann::json j;
    if (const io::JsonProblem p = io::parseJson(text, j); !p.ok())
        return attn::failure(
            attn::StatusCode::ConfigField, path, p.path,
            p.kind == io::JsonProblem::Kind::Syntax ? "not valid JSON: " + p.message : p.message);
    const auto map = j.is_object() ? j.find("weight_map") : j.end();
    if (map == j.end() || !map->is_object() || map->empty())
        return attn::failure(attn::StatusCode::ConfigField, path, "weight_map",
                             "missing or empty (it maps every tensor to its shard)");
    std::set<std::string> seen;
    for (auto it = map->begin(); it != map->end(); ++it) {
        if (!it.value().is_string())
            return attn::failure(attn::StatusCode::ConfigField, path, "weight_map." + it.key(),
                                 "must be a file name");
        const std::string file = it.value().get<std::string>();
        if (file.empty() || file.find('/') != std::string::npos ||
            file.find('\\') != std::string::npos || file == "." || file == "..")
            return attn::failure(attn::StatusCode::ConfigField, path, "weight_map." + it.key(),
                                 "\"" + file + "\" is not a file name in the model's folder");
        if (seen.insert(file).second) files.push_back(file);
        where[it.key()] = file;
    }
    return {};
}

// A BF16 checkpoint widened to float at open would take twice its size in memory: the matrices
// stay in the mapping instead, and the kernels widen them as they read them.
constexpr SafetensorsOptions kKeepHalf{.widenHalf = false};

}  // namespace

attn::Status openShards(const std::string& folder, std::vector<SafetensorsFile>& shards)
{
    const std::filesystem::path dir(folder);
    const WeightsFile weights = findWeights(dir);
    shards.clear();
    if (weights.path.empty()) {
        shards.emplace_back();
        return attn::failure(attn::StatusCode::FileOpen, (dir / "model.safetensors").string(), "",
                             "missing, and so are model.safetensors.index.json and "
                             "pytorch_model.bin");
    }
    if (!weights.sharded) {
        shards.emplace_back();
        return SafetensorsFile::open(weights.path.string(), shards.back(), kKeepHalf);
    }
    const std::filesystem::path index = weights.path;
    std::vector<std::string> files;
    std::map<std::string, std::string> where;
    ATTN_TRY(readIndex(index, files, where));
    for (const std::string& f : files) {
        shards.emplace_back();
        ATTN_TRY(SafetensorsFile::open((dir / f).string(), shards.back(), kKeepHalf));
    }
    for (const auto& [name, file] : where) {
        const auto pos =
            static_cast<std::size_t>(std::find(files.begin(), files.end(), file) - files.begin());
        if (shards[pos].find(name) == nullptr)
            return attn::failure(attn::StatusCode::MissingTensor, shards[pos].path(), name,
                                 "the index places it in this shard, which lacks it");
    }
    return {};
}

// The norms and biases are widened to floats at open: 60 to 120 small tensors spread over the
// file. From a cold page cache each would be a disk read of its own, one after another (0.35 to
// 1.6 s for Qwen3-0.6B, 16-19 ms with the advice); asking for all their pages first lets the
// reads overlap.
void askForSmallTensors(const SafetensorsFile& f)
{
    constexpr std::uint64_t kSmall = 256 * 1024;
    const auto page = static_cast<std::uintptr_t>(sysconf(_SC_PAGESIZE));
    for (const TensorInfo& t : f.tensors()) {
        if (t.copied || t.raw == nullptr || t.end - t.begin > kSmall || t.end == t.begin) continue;
        const auto begin = reinterpret_cast<std::uintptr_t>(t.raw);
        const std::uintptr_t first = begin / page * page;
        const std::uintptr_t last = begin + (t.end - t.begin);
        // Advice only: a failure leaves the pages to be read when they are touched.
        madvise(reinterpret_cast<void*>(first), last - first, MADV_WILLNEED);
    }
}

attn::Status loadDecoder(const std::string& folder, const ModelConfig& c, DecoderWeights out)
{
    std::vector<SafetensorsFile>& shards = out.shards;
    if (attn::Status s = openShards(folder, shards); !s.ok()) {
        if (shards.empty()) shards.emplace_back();
        return s;
    }
    std::vector<const SafetensorsFile*> files;
    for (const SafetensorsFile& f : shards) {
        files.push_back(&f);
        askForSmallTensors(f);
    }
    const Binder b(files, "model.", &out.widened);
    std::vector<LayerWeights>& layers = out.layers;
    const long d = c.width;
    const long dh = c.headDim();
    const long qWidth = c.heads * dh;
    const long kvWidth = c.kvHeads * dh;
    out.embedding = Dense();
    out.embedding.in = d;
    out.embedding.out = c.vocab;
    out.embedding.outByIn = true;
    ATTN_TRY(b.bindMatrix("embed_tokens.weight", {c.vocab, d}, out.embedding));
    ATTN_TRY(b.rmsNorm("norm", d, out.finalNorm));
    out.output = out.embedding;
    if (b.has("lm_head.weight") || !c.tieWordEmbeddings)
        ATTN_TRY(b.bindMatrix("lm_head.weight", {c.vocab, d}, out.output));
    // Layer by layer as the checkpoint backs them (num_hidden_layers is only a number).
    layers.clear();
    for (long i = 0; i < c.layers; ++i) {
        const std::string p = "layers." + std::to_string(i) + ".";
        LayerWeights& L = layers.emplace_back();
        ATTN_TRY(b.rmsNorm(p + "input_layernorm", d, L.ln1));
        ATTN_TRY(b.dense(p + "self_attn.q_proj", d, qWidth, true, L.q, c.attentionBias));
        ATTN_TRY(b.dense(p + "self_attn.k_proj", d, kvWidth, true, L.k, c.attentionBias));
        ATTN_TRY(b.dense(p + "self_attn.v_proj", d, kvWidth, true, L.v, c.attentionBias));
        ATTN_TRY(b.dense(p + "self_attn.o_proj", qWidth, d, true, L.attnOut, c.outputBias));
        if (c.qkNorm) {
            ATTN_TRY(b.rmsNorm(p + "self_attn.q_norm", dh, L.qNorm));
            ATTN_TRY(b.rmsNorm(p + "self_attn.k_norm", dh, L.kNorm));
        }
        ATTN_TRY(b.rmsNorm(p + "post_attention_layernorm", d, L.ln2));
        ATTN_TRY(b.dense(p + "mlp.gate_proj", d, c.inner, true, L.gate, c.mlpBias));
        ATTN_TRY(b.dense(p + "mlp.up_proj", d, c.inner, true, L.mlpIn, c.mlpBias));
        ATTN_TRY(b.dense(p + "mlp.down_proj", c.inner, d, true, L.mlpOut, c.mlpBias));
    }
    return {};
}

}  // namespace attn::model
