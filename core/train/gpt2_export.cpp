// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/train/gpt2_export.h"

#include <filesystem>
#include <nlohmann/json.hpp>
#include <system_error>

#include "core/io/atomic_file.h"

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
    std::error_code ec;
    std::filesystem::create_directories(folder, ec);
    if (ec) return failure(StatusCode::FileOpen, folder, "", ec.message());
    const std::string configPath = (std::filesystem::path(folder) / "config.json").string();
    const std::string config = checkpointConfig(params.config);
    if (const io::WriteStatus w = io::writeFileAtomically(configPath, config.data(), config.size());
        !w.ok())
        return failure(StatusCode::FileOpen, configPath, "", io::describe(w));
    return model::writeSafetensors((std::filesystem::path(folder) / "model.safetensors").string(),
                                   checkpointTensors(params), {{"format", "pt"}});
}

}  // namespace attn::gpt2
