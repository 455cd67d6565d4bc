// SPDX-License-Identifier: GPL-3.0-or-later
// libFuzzer target: a SentencePiece model handed to libsentencepiece through SpmTokenizer, and a
// text encoded with it. Input: two bytes of text length (little-endian), the text, then the
// model's bytes. A model the library accepts must give ids below its vocabulary and report
// unknown characters inside the text, also through the Tokenizer that cuts the text at the
// special tokens it spells and reads a leading language code (Marian's and T5's).
#include <cstdint>
#include <cstdlib>
#include <string>

#include "core/tokenize/spm_tokenizer.h"
#include "core/tokenize/tokenizer_loader.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    if (size < 2) return 0;
    const std::size_t textLength = std::min<std::size_t>(data[0] | (data[1] << 8), size - 2);
    const std::string text(reinterpret_cast<const char*>(data + 2), textLength);
    const std::string model(reinterpret_cast<const char*>(data + 2 + textLength),
                            size - 2 - textLength);
    attn::tok::SpmOptions options;
    options.extraIds = data[0] % 3 == 0 ? 100 : 0;
    auto loaded = attn::tok::SpmTokenizer::fromBytes(model, "spiece.model", options);
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

    attn::tok::Tokenizer cut(*t, "marian");
    std::vector<attn::tok::Tokenizer::TextSpecial> specials;
    for (const char* piece : {"</s>", "<unk>", "<pad>", "<extra_id_0>", "<extra_id_99>"})
        if (const int id = t->idOf(piece); id >= 0) specials.push_back({piece, id, false});
    if (specials.empty()) specials.push_back({"</s>", t->unknownId(), false});
    cut.setSpecials({}, {}, "marian", specials);
    cut.setLanguageCodes(true);
    const attn::tok::Encoded e = cut.encodeReported(text);
    for (const attn::tok::Token& token : e.tokens)
        if (token.id < 0 || static_cast<std::size_t>(token.id) >= t->vocabSize()) std::abort();
    for (const attn::tok::Dropped& d : e.dropped)
        if (d.offset + d.length > text.size()) std::abort();
    if (cut.encode(text).size() != e.tokens.size()) std::abort();
    return 0;
}
