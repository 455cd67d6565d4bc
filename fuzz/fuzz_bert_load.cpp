// SPDX-License-Identifier: GPL-3.0-or-later
// libFuzzer target: loading a BERT WordPiece tokenizer: vocab.txt (BertTokenizer::fromVocabText)
// and, after the first NUL byte, tokenizer_config.json (optionsFromConfigJson) for its options.
// A tokenizer that loads then encodes a fixed text and a slice of the input.
#include <cstdint>
#include <cstdlib>
#include <string_view>
#include <variant>

#include "core/tokenize/bert_tokenizer.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string_view in(reinterpret_cast<const char*>(data), size);
    const std::size_t nul = in.find('\0');
    const std::string_view vocab = in.substr(0, nul);
    attn::tok::BertOptions options;
    if (nul != std::string_view::npos) {
        auto parsed =
            attn::tok::BertTokenizer::optionsFromConfigJson(in.substr(nul + 1), "config.json");
        if (const auto* o = std::get_if<attn::tok::BertOptions>(&parsed)) options = *o;
    }
    const auto loaded = attn::tok::BertTokenizer::fromVocabText(vocab, options);
    const auto* t = std::get_if<attn::tok::BertTokenizer>(&loaded);
    if (t == nullptr) {
        (void)attn::describe(std::get<attn::Status>(loaded));
        return 0;
    }
    for (const std::string_view text : {std::string_view("The animal didn't cross, 它太累了!"),
                                        vocab.substr(0, std::min<std::size_t>(vocab.size(), 64))}) {
        for (const int id : t->encode(text)) {
            if (id < 0 || static_cast<std::size_t>(id) >= t->vocabSize()) std::abort();
            (void)t->piece(id);
        }
    }
    return 0;
}
