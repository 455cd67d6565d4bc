// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What a tokenizer could not represent of a text, reported instead of silently lost: a
// character its vocabulary lacks becomes the unknown token where the model has one (BERT's
// [UNK], a tokenizer.json's unk_token; byte_fallback represents it exactly and is not
// reported), or is left out where it has none (GPT-2's byte-level vocabularies), always as a
// whole character: never some of its bytes as tokens and the rest dropped.

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "core/tokenize/aligned_text.h"

namespace attn::tok {

struct Dropped {
    enum class Fate {
        Unknown,  // it became the unknown token
        Omitted,  // it was left out: no token stands for it
    };
    // The characters as they are in the text, valid UTF-8 (an ill-formed byte sequence as
    // U+FFFD): one character, or what became one unknown token together (BERT's word that
    // WordPiece could not split, characters a normalizer made into one).
    std::string text;
    std::size_t offset = 0;  // their first byte in the text given to encode
    std::size_t length = 0;  // their bytes in that text
    Fate fate = Fate::Omitted;

    friend bool operator==(const Dropped&, const Dropped&) = default;
};

// Gathers the spans a tokenizer lost as it encodes, and writes them out as Dropped.
class DropLog {
public:
    // Notes `span` (ignored when empty: what a stage inserted is no part of the text).
    void add(Span span, Dropped::Fate fate);
    // The report for `input`, in the order of the text, each span once.
    [[nodiscard]] std::vector<Dropped> report(std::string_view input) const;

private:
    struct Entry {
        Span span;
        Dropped::Fate fate;
    };
    std::vector<Entry> entries_;
};

}  // namespace attn::tok
