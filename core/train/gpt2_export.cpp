// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/train/gpt2_export.h"

#include <nlohmann/json.hpp>

#include "core/io/command_files.h"
#include "core/model/model_folder.h"

namespace attn::gpt2 {

namespace {

model::TensorToWrite filled(std::string name, std::vector<std::int64_t> shape, float value)
{
    std::size_t count = 1;
    for (std::int64_t d : shape) count *= static_cast<std::size_t>(d);
    return {std::move(name), std::move(shape), std::vector<float>(count, value)};
}

}  // namespace

std::vector<model::TensorToWrite> checkpointTensors(const Parameters& params)
{
    std::vector<model::TensorToWrite> out;
    for (const Tensor& t : params.tensors) {
        model::TensorToWrite w;
        w.name = t.name;
        w.shape.assign(t.shape.begin(), t.shape.end());
        w.values.resize(t.count);
        for (std::size_t i = 0; i < t.count; ++i)
            w.values[i] = static_cast<float>(params.values[t.offset + i]);
        out.push_back(std::move(w));
        if (!params.config.attentionOnly || !t.name.ends_with("attn.c_proj.bias")) continue;
        // The block's MLP, after its attention as Hugging Face orders them.
        const std::string h = t.name.substr(0, t.name.find("attn."));
        const std::int64_t C = params.config.channels;
        out.push_back(filled(h + "ln_2.weight", {C}, 1.0f));
        out.push_back(filled(h + "ln_2.bias", {C}, 0.0f));
        out.push_back(filled(h + "mlp.c_fc.weight", {C, 4 * C}, 0.0f));
        out.push_back(filled(h + "mlp.c_fc.bias", {4 * C}, 0.0f));
        out.push_back(filled(h + "mlp.c_proj.weight", {4 * C, C}, 0.0f));
        out.push_back(filled(h + "mlp.c_proj.bias", {C}, 0.0f));
    }
    return out;
}

std::string checkpointConfig(const Config& c)
{
    const nlohmann::ordered_json j = {{"model_type", "gpt2"},
                                      {"architectures", {"GPT2LMHeadModel"}},
                                      {"vocab_size", c.vocab},
                                      {"n_positions", c.maxT},
                                      {"n_ctx", c.maxT},
                                      {"n_embd", c.channels},
                                      {"n_layer", c.layers},
                                      {"n_head", c.heads},
                                      {"n_inner", 4 * c.channels},
                                      {"activation_function", "gelu_new"},
                                      {"layer_norm_epsilon", 1e-5},
                                      {"scale_attn_weights", true},
                                      {"tie_word_embeddings", true}};
    return j.dump(2) + "\n";
}

Status exportCheckpoint(const Parameters& params, const std::string& folder)
{
    std::string weights;
    if (Status s = model::safetensorsBytes(checkpointTensors(params), {{"format", "pt"}}, weights);
        !s.ok())
        return s;
    return writeModelFolder(folder, {{"config.json", checkpointConfig(params.config)},
                                     {"model.safetensors", std::move(weights)}});
}

std::vector<std::string> modelFolderNames()
{
    return {"config.json", "model.safetensors", "vocab.json", "merges.txt", "training.json"};
}

io::FolderPolicy modelFolderPolicy(const std::string& folder)
{
    model::FolderRecord record;
    io::FolderPolicy policy;
    {
        const io::OutputProbe probe;  // the record of the folder to be replaced is no input
        policy.mayReplace = model::readFolderRecord(folder, record).ok() && record.ours;
    }
    policy.keepOthers = true;
    policy.makeParents = true;
    return policy;
}

Status writeModelFolder(const std::string& folder,
                        const std::vector<std::pair<std::string, std::string>>& files)
{
    std::vector<io::FolderFile> parts;
    for (const auto& [name, bytes] : files) parts.push_back({name, bytes});
    const io::WriteStatus w = io::writeFolderAtomically(folder, parts, modelFolderPolicy(folder));
    if (!w.ok()) return failure(StatusCode::FileOpen, folder, "", io::describe(w));
    return {};
}

Status checkModelFolder(const std::string& folder)
{
    const io::WriteStatus w =
        io::checkFolderWritable(folder, modelFolderNames(), modelFolderPolicy(folder));
    if (!w.ok()) return failure(StatusCode::FileOpen, folder, "", io::describe(w));
    return {};
}

}  // namespace attn::gpt2
