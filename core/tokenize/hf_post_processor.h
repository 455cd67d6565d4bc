// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The special tokens a tokenizer.json's post-processor puts around a single text (Llama's
// "<s>" before it, BERT-style [CLS] ... [SEP]), and the Llama tokenizer classes' own rule in
// tokenizer_config.json (add_bos_token / add_eos_token), which transformers follows whatever
// tokenizer.json says. Internal to core/tokenize (hf_tokenizer.cpp).

#include <functional>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/status.h"

namespace attn::tok::hf {

// A template may have at most this many items, and add at most this many ids to a text: real
// ones have two or three ("<s>" $A, [CLS] $A [SEP]). A template of 100,000 "<s>" made every
// text 100,000 tokens longer.
inline constexpr std::size_t kMaxTemplateItems = 64;
inline constexpr std::size_t kMaxSpecialIds = 64;

struct SpecialIds {
    std::vector<int> prefix;  // before the text
    std::vector<int> suffix;  // after it
};

// Reads the post_processor object at `path` for a tokenizer of `idCount` ids; "<path>: what"
// when it is malformed, unsupported or beyond the limits.
std::optional<std::string> readPostProcessor(const nlohmann::json& p, const std::string& path,
                                             long idCount, SpecialIds& out);

// Applies tokenizer_config.json (named `configName`) when its tokenizer class is a Llama one;
// idOf gives a token's id by its content (-1: none).
std::optional<Status> readLlamaConfig(std::string_view configJson, const std::string& configName,
                                      const std::function<int(const std::string&)>& idOf,
                                      SpecialIds& out);

}  // namespace attn::tok::hf
