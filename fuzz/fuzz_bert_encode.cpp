// SPDX-License-Identifier: GPL-3.0-or-later
// libFuzzer target: BERT WordPiece encoding of arbitrary bytes with the real bert-base-uncased
// vocabulary (tests/reference/tokenizers/bert-base-uncased, or $ATTNLAB_BERT_DIR), through the
// basic tokenizer (clean-up, CJK, lower case, accents, punctuation) and WordPiece.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <variant>

#include "core/tokenize/bert_tokenizer.h"

namespace {

const attn::tok::BertTokenizer& tokenizer()
{
    static const attn::tok::BertTokenizer t = [] {
        const char* env = std::getenv("ATTNLAB_BERT_DIR");
        const std::string dir =
            env ? env : ATTNLAB_SOURCE_DIR "/tests/reference/tokenizers/bert-base-uncased";
        auto loaded = attn::tok::BertTokenizer::fromFiles(dir + "/vocab.txt");
        if (auto* e = std::get_if<attn::Status>(&loaded)) {
            std::fprintf(stderr, "%s\n", attn::describe(*e).c_str());
            std::abort();
        }
        return std::get<attn::tok::BertTokenizer>(std::move(loaded));
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
    const attn::tok::BertTokenizer& t = tokenizer();
    const std::vector<int> ids = t.encode(text);
    if (ids.size() < 2 || ids.front() != t.clsId() || ids.back() != t.sepId()) std::abort();
    for (const int id : ids) {
        if (id < 0 || static_cast<std::size_t>(id) >= t.vocabSize()) std::abort();
    }
    if (t.tokenize(text).size() + 2 != ids.size()) std::abort();
    return 0;
}
