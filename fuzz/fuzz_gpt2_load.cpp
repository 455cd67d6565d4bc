// SPDX-License-Identifier: GPL-3.0-or-later
// libFuzzer target: loading a GPT-2 BPE tokenizer from its files. The input is split at the
// first NUL byte into vocab.json and merges.txt (Gpt2Tokenizer::fromStrings); an input that
// starts with '#' 't' is read as a tokenizer.json instead (fromTokenizerJsonString). A
// tokenizer that loads then encodes and decodes a fixed text and a slice of the input.
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <variant>

#include "core/tokenize/gpt2_tokenizer.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string_view in(reinterpret_cast<const char*>(data), size);
    attn::tok::Loaded<attn::tok::Gpt2Tokenizer> loaded = attn::Status{};
    if (in.size() >= 2 && in[0] == '#' && in[1] == 't') {
        loaded = attn::tok::Gpt2Tokenizer::fromTokenizerJsonString(in.substr(2));
    } else {
        const std::size_t nul = in.find('\0');
        const std::string_view vocab = in.substr(0, nul);
        const std::string_view merges =
            nul == std::string_view::npos ? std::string_view() : in.substr(nul + 1);
        loaded = attn::tok::Gpt2Tokenizer::fromStrings(vocab, merges);
    }
    const auto* t = std::get_if<attn::tok::Gpt2Tokenizer>(&loaded);
    if (t == nullptr) {
        (void)attn::describe(std::get<attn::Status>(loaded));
        return 0;
    }
    for (const std::string_view text : {std::string_view("The animal didn't cross, 它太累了!"),
                                        in.substr(0, std::min<std::size_t>(in.size(), 64))}) {
        const std::vector<int> ids = t->encode(text);
        for (const int id : ids) {
            if (id < 0 || static_cast<std::size_t>(id) >= t->vocabSize()) std::abort();
            (void)t->tokenLabel(id);
            (void)t->tokenText(id);
        }
        (void)t->decode(ids);
    }
    return 0;
}
