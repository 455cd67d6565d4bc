// SPDX-License-Identifier: GPL-3.0-or-later
// libFuzzer target: GPT-2 encoding of arbitrary bytes with the real vocabulary
// (tests/reference/tokenizers/gpt2, or $ATTNLAB_GPT2_DIR). Byte-level BPE loses nothing:
// decode(encode(x)) must be x with each ill-formed UTF-8 sequence replaced by U+FFFD.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <variant>

#include "core/tokenize/gpt2_tokenizer.h"

namespace {

const attn::tok::Gpt2Tokenizer& tokenizer()
{
    static const attn::tok::Gpt2Tokenizer t = [] {
        const char* env = std::getenv("ATTNLAB_GPT2_DIR");
        const std::string dir = env ? env : ATTNLAB_SOURCE_DIR "/tests/reference/tokenizers/gpt2";
        auto loaded = attn::tok::Gpt2Tokenizer::fromFiles(dir + "/vocab.json", dir + "/merges.txt");
        if (auto* e = std::get_if<attn::Status>(&loaded)) {
            std::fprintf(stderr, "%s\n", attn::describe(*e).c_str());
            std::abort();
        }
        return std::get<attn::tok::Gpt2Tokenizer>(std::move(loaded));
    }();
    return t;
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***)
{
    (void)tokenizer();
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    const attn::tok::Gpt2Tokenizer& t = tokenizer();
    const std::vector<int> ids = t.encode(text);
    for (const int id : ids) {
        if (id < 0 || static_cast<std::size_t>(id) >= t.vocabSize()) std::abort();
        (void)t.tokenLabel(id);
    }
    if (t.decode(ids) != attn::tok::replaceBrokenUtf8(text)) {
        std::fprintf(stderr, "decode(encode(x)) differs from x\n");
        std::abort();
    }
    return 0;
}
