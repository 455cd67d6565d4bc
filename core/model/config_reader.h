// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Typed reads of config.json fields, each failure a status naming the file and the field. Shared
// by the GPT-2/BERT parser (config.cpp) and the decoders' (config_decoder.cpp).

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

#include "core/model/config.h"

namespace attn::model::detail {

using nlohmann::json;

inline constexpr long kMaxDimension = 1L << 24;
// A value as written, shortened for a message (a 1 MiB string does not belong in one).
inline std::string shown(const json& v)
{
    std::string s = v.dump();
    if (s.size() > 64) {
        std::size_t cut = 60;
        while (cut > 0 && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80) --cut;
        s = s.substr(0, cut) + " ...";
    }
    return s;
}

class Reader {
public:
    Reader(const json& j, const std::string& file) : j_(j), file_(file) {}

    // A required (or defaulted, when `fallback` >= 0) positive integer.
    // A whole number from `minimum` to 2^24 (`fallback` when absent, if it is not negative).
    attn::Status size(const char* key, long& out, long fallback = -1, long minimum = 1) const
    {
        const auto it = j_.find(key);
        if (it == j_.end() || it->is_null()) {
            if (fallback >= 0) {
                out = fallback;
                return {};
            }
            return attn::failure(attn::StatusCode::ConfigField, file_, key, "missing");
        }
        if (!it->is_number_integer() || it->get<std::int64_t>() < minimum ||
            it->get<std::int64_t>() > kMaxDimension)
            return attn::failure(attn::StatusCode::ConfigField, file_, key,
                                 "must be a whole number from " + std::to_string(minimum) +
                                     " to 2^24 (16777216), got " + shown(*it));
        out = static_cast<long>(it->get<std::int64_t>());
        return {};
    }

    attn::Status number(const char* key, float& out, float fallback) const
    {
        const auto it = j_.find(key);
        if (it == j_.end() || it->is_null()) {
            out = fallback;
            return {};
        }
        if (!it->is_number() || !(it->get<double>() > 0.0) || !(it->get<double>() < 1.0))
            return attn::failure(attn::StatusCode::ConfigField, file_, key,
                                 "must be a number in (0, 1), got " + shown(*it));
        out = static_cast<float>(it->get<double>());
        return {};
    }

    attn::Status flag(const char* key, bool& out, bool fallback) const
    {
        const auto it = j_.find(key);
        if (it == j_.end() || it->is_null()) {
            out = fallback;
            return {};
        }
        if (!it->is_boolean())
            return attn::failure(attn::StatusCode::ConfigField, file_, key,
                                 "must be true or false, got " + shown(*it));
        out = it->get<bool>();
        return {};
    }

    attn::Status text(const char* key, std::string& out, const char* fallback) const
    {
        const auto it = j_.find(key);
        if (it == j_.end() || it->is_null()) {
            out = fallback;
            return {};
        }
        if (!it->is_string())
            return attn::failure(attn::StatusCode::ConfigField, file_, key,
                                 "must be a string, got " + shown(*it));
        out = it->get<std::string>();
        return {};
    }

    attn::Status activation(const char* key, const char* fallback, Activation& out) const
    {
        std::string name;
        if (attn::Status s = text(key, name, fallback); !s.ok()) return s;
        if (name == "gelu_new" || name == "gelu_pytorch_tanh")
            out = Activation::GeluTanh;
        else if (name == "gelu")
            out = Activation::GeluErf;
        else if (name == "relu")
            out = Activation::Relu;
        else
            return attn::failure(attn::StatusCode::UnsupportedModel, file_, key,
                                 "activation \"" + name +
                                     "\" is not supported (supported: gelu_new, "
                                     "gelu_pytorch_tanh, gelu, relu)");
        return {};
    }

    // A finite number above 0 (or `fallback` when absent or null).
    attn::Status positive(const char* key, double& out, double fallback) const
    {
        const auto it = j_.find(key);
        if (it == j_.end() || it->is_null()) {
            out = fallback;
            return {};
        }
        if (!it->is_number() || !(it->get<double>() > 0.0) || !(it->get<double>() < 1e300))
            return attn::failure(attn::StatusCode::ConfigField, file_, key,
                                 "must be a number above 0 and below 1e300, got " + shown(*it));
        out = it->get<double>();
        return {};
    }

    // The value of `key`, or nullptr when it is absent or null.
    [[nodiscard]] const json* find(const char* key) const
    {
        const auto it = j_.find(key);
        return it == j_.end() || it->is_null() ? nullptr : &*it;
    }

    [[nodiscard]] const std::string& file() const { return file_; }

    [[nodiscard]] bool has(const char* key) const
    {
        const auto it = j_.find(key);
        return it != j_.end() && !it->is_null();
    }

private:
    const json& j_;
    const std::string& file_;
};

// Parses the decoders' config.json fields (config_decoder.cpp) into `c`; `type` is model_type.
attn::Status parseDecoder(const Reader& r, const json& j, const std::string& file,
                          const std::string& type, ModelConfig& c);

// The text of the config.json at `path`: a config is a few kB, so anything much larger is refused
// before it is read, and a FIFO or a device (a link to /dev/zero) without reading it at all.
attn::Status readConfigText(const std::string& path, std::string& text);

}  // namespace attn::model::detail
