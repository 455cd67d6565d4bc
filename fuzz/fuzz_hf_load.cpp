// SPDX-License-Identifier: GPL-3.0-or-later
// libFuzzer target: loading a tokenizer.json (HfTokenizer::fromStrings). The input is split at
// the first NUL byte into tokenizer.json and tokenizer_config.json (which may be absent). A
// tokenizer that loads then encodes a fixed text and a slice of the input, with and without
// special tokens, labels every token and decodes the ids.
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <variant>

#include "core/tokenize/hf_tokenizer.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string_view in(reinterpret_cast<const char*>(data), size);
    const std::size_t nul = in.find('\0');
    const std::string_view json = in.substr(0, nul);
    const std::string_view config =
        nul == std::string_view::npos ? std::string_view() : in.substr(nul + 1);
    const auto loaded = attn::tok::HfTokenizer::fromStrings(json, config);
    const auto* t = std::get_if<attn::tok::HfTokenizer>(&loaded);
    if (t == nullptr) {
        (void)attn::describe(std::get<attn::Status>(loaded));
        return 0;
    }
    for (const std::string_view text :
         {std::string_view("The animal didn't cross, 它太累了! <s>  \n\n 12345 <|im_end|>"),
          in.substr(0, std::min<std::size_t>(in.size(), 64))}) {
        for (const bool special : {false, true}) {
            const std::vector<int> ids = t->encode(text, special);
            for (const int id : ids) {
                if (id < 0 || static_cast<std::size_t>(id) >= t->vocabSize()) std::abort();
                (void)t->tokenBytes(id);
            }
            (void)t->decode(ids);
        }
    }
    return 0;
}
