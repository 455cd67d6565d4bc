// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// GPT-2's byte-level BPE tokenizer (OpenAI's encoder.py / Hugging Face GPT2Tokenizer).
//
// encode(): the UTF-8 text is split by GPT-2's pre-tokenizing pattern
//   's|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+
// (implemented by hand; \s is Unicode White_Space as in Python's `regex` module), each piece's
// bytes are mapped to printable characters by bytes_to_unicode(), and merged by BPE rank.
// Text that is not valid UTF-8 is first repaired: each maximal ill-formed byte sequence becomes
// U+FFFD (as Python's bytes.decode(errors="replace") does), so encode never fails. GPT-2's
// vocabularies have no unknown token: a character whose bytes the vocabulary does not all hold
// (a character-level vocabulary holds only its text's) is left out whole and reported
// (dropped.h), never some of its bytes as tokens and the rest lost.
//
// Display: a token's bytes may be part of a UTF-8 sequence (one Chinese character can span two
// tokens). tokenText() replaces each broken sequence by U+FFFD; tokenLabel() is for drawing a
// token on screen: broken bytes appear as <E6>-style hex, a leading space as "␣" (U+2423, OPEN
// BOX: unlike "·" it never occurs in ordinary text), and a token made only of spaces shows
// every space as "␣"; "\n" shows as "↵" and "\t" as "⇥", other control characters as <0A>-style
// hex.

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "core/tokenize/dropped.h"
#include "core/tokenize/loaded.h"

namespace attn::tok {

class Gpt2Tokenizer {
public:
    // vocab.json (token -> id) and merges.txt ("a b" per line, optional "#version" first line).
    static Loaded<Gpt2Tokenizer> fromFiles(const std::filesystem::path& vocabJson,
                                           const std::filesystem::path& mergesTxt);
    // Hugging Face fast-tokenizer file: model.vocab and model.merges ("a b" or ["a", "b"]).
    static Loaded<Gpt2Tokenizer> fromTokenizerJson(const std::filesystem::path& tokenizerJson);
    // The same from memory; the names appear in error messages.
    static Loaded<Gpt2Tokenizer> fromStrings(std::string_view vocabJson, std::string_view merges,
                                             const std::string& vocabName = "vocab.json",
                                             const std::string& mergesName = "merges.txt");
    static Loaded<Gpt2Tokenizer> fromTokenizerJsonString(
        std::string_view json, const std::string& name = "tokenizer.json");

    // Token ids of a UTF-8 text (any bytes accepted, see above), and the characters left out.
    [[nodiscard]] std::vector<int> encode(std::string_view utf8) const;
    [[nodiscard]] std::vector<int> encode(std::string_view utf8,
                                          std::vector<Dropped>& dropped) const;
    // The concatenated bytes of the tokens (ids out of range are skipped).
    [[nodiscard]] std::string decode(const std::vector<int>& ids) const;

    // GPT-2's pre-tokenizer alone: the pieces of a text, as UTF-8.
    [[nodiscard]] static std::vector<std::string> preTokenize(std::string_view utf8);

    // The vocabulary string (byte-to-unicode form, e.g. "Ġthe"); empty for an unknown id.
    [[nodiscard]] const std::string& piece(int id) const;
    // The raw bytes a token stands for (may be an incomplete UTF-8 sequence).
    [[nodiscard]] std::string tokenBytes(int id) const;
    // Valid UTF-8: the bytes with every broken sequence replaced by U+FFFD.
    [[nodiscard]] std::string tokenText(int id) const;
    // On-screen label, see the header comment.
    [[nodiscard]] std::string tokenLabel(int id) const;
    // Id of a vocabulary string, or -1.
    [[nodiscard]] int idOf(std::string_view piece) const;
    // Number of ids (one past the largest id).
    [[nodiscard]] std::size_t vocabSize() const { return pieces_.size(); }
    [[nodiscard]] std::size_t mergeCount() const { return merges_.size(); }

    // GPT-2's bytes_to_unicode(): the printable code point standing for each byte.
    static char32_t byteToUnicode(std::uint8_t byte);

private:
    Gpt2Tokenizer() = default;
    static Loaded<Gpt2Tokenizer> build(
        const std::vector<std::pair<std::string, long long>>& vocab,
        const std::vector<std::pair<std::string, std::string>>& merges,
        const std::string& vocabName);
    int intern(const std::string& symbol);
    void bpe(const std::string& pieceBytes, std::vector<int>& ids) const;

    struct Merge {
        int rank;
        int result;  // symbol index
    };
    std::unordered_map<std::string, int> vocab_;  // vocabulary string -> id
    std::vector<std::string> pieces_;             // id -> vocabulary string
    // BPE works on interned symbols: every vocabulary string and every merge part or result.
    std::unordered_map<std::string, int> symbols_;
    std::vector<std::string> symbolText_;
    std::vector<int> symbolId_;                        // symbol -> vocabulary id, or -1
    std::unordered_map<std::uint64_t, Merge> merges_;  // (left << 32 | right) -> merge
    int byteSymbols_[256] = {};
};

// The on-screen label for raw token bytes (used by Gpt2Tokenizer::tokenLabel).
std::string displayLabelForBytes(std::string_view bytes);
// The bytes with each broken UTF-8 sequence replaced by U+FFFD.
std::string replaceBrokenUtf8(std::string_view bytes);

}  // namespace attn::tok
