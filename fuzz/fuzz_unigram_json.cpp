// SPDX-License-Identifier: GPL-3.0-or-later
// libFuzzer target: a T5 tokenizer.json (Unigram) turned back into a SentencePiece model
// (unigram_spm.h), handed to libsentencepiece, and a text encoded with it. Input: two bytes of
// text length (little-endian), the text, then the tokenizer.json. A file the converter and the
// library accept must give ids below the vocabulary and report unknown characters inside the
// text.
#include <cstdint>
#include <cstdlib>
#include <string>

#include "core/tokenize/spm_tokenizer.h"
#include "core/tokenize/unigram_spm.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    if (size < 2) return 0;
    const std::size_t textLength = std::min<std::size_t>(data[0] | (data[1] << 8), size - 2);
    const std::string text(reinterpret_cast<const char*>(data + 2), textLength);
    const std::string json(reinterpret_cast<const char*>(data + 2 + textLength),
                           size - 2 - textLength);
    auto converted = attn::tok::spmFromTokenizerJson(json, "tokenizer.json");
    const auto* u = std::get_if<attn::tok::UnigramSpm>(&converted);
    if (u == nullptr) return 0;
    if (u->model.empty() || u->extraIds < 0) std::abort();
    attn::tok::SpmOptions options;
    options.extraIds = u->extraIds;
    auto loaded = attn::tok::SpmTokenizer::fromBytes(u->model, "tokenizer.json", options);
    const auto* t = std::get_if<attn::tok::SpmTokenizer>(&loaded);
    if (t == nullptr) return 0;
    std::vector<attn::tok::Dropped> dropped;
    const std::vector<int> ids = t->encode(text, dropped);
    for (const int id : ids) {
        if (id < 0 || static_cast<std::size_t>(id) >= t->vocabSize()) std::abort();
        (void)t->tokenBytes(id);
    }
    for (const attn::tok::Dropped& d : dropped)
        if (d.offset + d.length > text.size()) std::abort();
    return 0;
}
