// SPDX-License-Identifier: GPL-3.0-or-later
// The Marian-layout translator's parameters (marian_train.h): their layout in one flat buffer,
// in Hugging Face's order (shared embedding, encoder layers, decoder layers, logits bias), and
// Marian's initialisation.
#include <algorithm>
#include <string>

#include "core/random_init.h"
#include "core/train/checks.h"
#include "core/train/marian_train.h"

namespace attn::marian {

namespace {

Status configError(const char* field, const std::string& detail)
{
    return failure(StatusCode::ConfigField, "", field, detail);
}

// Adds tensors to the layout, each starting on a 64-byte line.
struct LayoutBuilder {
    Parameters& p;
    std::size_t at = 0;

    std::size_t add(std::string name, std::vector<long> shape)
    {
        std::size_t count = 1;
        for (long d : shape) count *= static_cast<std::size_t>(d);
        p.tensors.push_back({std::move(name), std::move(shape), at, count});
        at = gpt2::alignedOffset(at + count);
        return p.tensors.back().offset;
    }

    void layerNorm(const std::string& name, std::size_t& w, std::size_t& b)
    {
        const long C = p.config.channels;
        w = add(name + ".weight", {C});
        b = add(name + ".bias", {C});
    }

    AttentionOffsets attention(const std::string& prefix, bool cross)
    {
        const long C = p.config.channels;
        AttentionOffsets o;
        const std::string name = prefix + (cross ? "encoder_attn" : "self_attn");
        if (cross) {
            o.qw = add(name + ".q_proj.weight", {C, C});
            o.qb = add(name + ".q_proj.bias", {C});
            o.kvw = add(name + ".kv_proj.weight", {C, 2 * C});
            o.kvb = add(name + ".kv_proj.bias", {2 * C});
        } else {
            o.qw = add(name + ".qkv_proj.weight", {C, 3 * C});
            o.qb = add(name + ".qkv_proj.bias", {3 * C});
        }
        o.ow = add(name + ".out_proj.weight", {C, C});
        o.ob = add(name + ".out_proj.bias", {C});
        layerNorm(name + "_layer_norm", o.lnw, o.lnb);
        return o;
    }

    FfnOffsets ffn(const std::string& prefix)
    {
        const long C = p.config.channels;
        const long F = p.config.ffn;
        FfnOffsets o;
        o.fc1w = add(prefix + "fc1.weight", {C, F});
        o.fc1b = add(prefix + "fc1.bias", {F});
        o.fc2w = add(prefix + "fc2.weight", {F, C});
        o.fc2b = add(prefix + "fc2.bias", {C});
        layerNorm(prefix + "final_layer_norm", o.lnw, o.lnb);
        return o;
    }
};

}  // namespace

Status validate(const Config& c)
{
    if (Status s = train_detail::positiveSizes({{"vocab", c.vocab},
                                                {"maxT", c.maxT},
                                                {"encoderLayers", c.encoderLayers},
                                                {"decoderLayers", c.decoderLayers},
                                                {"heads", c.heads},
                                                {"channels", c.channels},
                                                {"ffn", c.ffn}});
        !s.ok())
        return s;
    if (c.channels % c.heads != 0)
        return configError("channels", std::to_string(c.channels) + " channels do not split into " +
                                           std::to_string(c.heads) + " heads");
    for (const auto& [name, id] : {std::pair{"padId", c.padId}, std::pair{"eosId", c.eosId}})
        if (id < 0 || id >= c.vocab)
            return configError(name, std::to_string(id) + " is outside the vocabulary of " +
                                         std::to_string(c.vocab));
    return {};
}

const Tensor* Parameters::find(const std::string& name) const
{
    for (const Tensor& t : tensors)
        if (t.name == name) return &t;
    return nullptr;
}

Status makeParameters(const Config& c, Parameters& out)
{
    if (Status s = validate(c); !s.ok()) return s;
    Parameters p;
    p.config = c;
    LayoutBuilder build{p};
    p.shared = build.add("model.shared.weight", {c.vocab, c.channels});
    for (long l = 0; l < c.encoderLayers; ++l) {
        const std::string prefix = "model.encoder.layers." + std::to_string(l) + ".";
        LayerOffsets o;
        o.self = build.attention(prefix, false);
        o.ffn = build.ffn(prefix);
        p.encoder.push_back(o);
    }
    for (long l = 0; l < c.decoderLayers; ++l) {
        const std::string prefix = "model.decoder.layers." + std::to_string(l) + ".";
        LayerOffsets o;
        o.self = build.attention(prefix, false);
        o.cross = build.attention(prefix, true);
        o.ffn = build.ffn(prefix);
        p.decoder.push_back(o);
    }
    p.logitsBias = build.add("final_logits_bias", {c.vocab});
    p.values.assign(build.at, 0.0);
    out = std::move(p);
    return {};
}

void initialise(Parameters& p, std::uint64_t seed, double stddev)
{
    Rng rng(seed);
    for (const Tensor& t : p.tensors) {
        double* v = p.values.data() + t.offset;
        const bool layerNormWeight =
            t.name.find("layer_norm") != std::string::npos && t.name.ends_with(".weight");
        if (layerNormWeight) {
            std::fill(v, v + t.count, 1.0);
        } else if (t.shape.size() == 1) {
            std::fill(v, v + t.count, 0.0);
        } else {
            for (std::size_t i = 0; i < t.count; ++i) v[i] = stddev * rng.normal();
        }
    }
    const auto C = static_cast<std::size_t>(p.config.channels);
    double* pad = p.values.data() + p.shared + static_cast<std::size_t>(p.config.padId) * C;
    std::fill(pad, pad + C, 0.0);
}

}  // namespace attn::marian
