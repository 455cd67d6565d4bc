// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// BERT's WordPiece tokenizer as Hugging Face's BertTokenizer runs it (tokenization_bert.py):
//
//  1. Special tokens ([UNK] [SEP] [PAD] [CLS] [MASK]) written in the text are cut out first
//     and kept whole, wherever they occur (PreTrainedTokenizer's added-token split).
//  2. BasicTokenizer on the rest: drop U+0000, U+FFFD and control/format/unassigned characters
//     (category C*, except \t \n \r), turn whitespace (\t \n \r, Zs) into spaces, put spaces
//     around CJK ideographs, NFC, split on whitespace (str.split(): also U+2028/U+2029); per word:
//     lower-case (Python's str.lower()) and strip accents (NFD, drop Mn) as the options say; split
//     off every punctuation character (ASCII !-/ :-@ [-` {-~ and Unicode P*).
//  3. WordPiece: greedy longest match first, continuation pieces prefixed "##"; a word with no
//     match, or longer than 100 code points, becomes [UNK].
// encode() adds [CLS] ... [SEP]. Invalid UTF-8 in the text is replaced by U+FFFD, which step 2
// drops, so encode never fails. What becomes [UNK] (a word, as a whole) and what step 2 drops
// (control characters, NUL, U+FFFD) is reported with its place in the text (dropped.h).

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/tokenize/dropped.h"
#include "core/tokenize/loaded.h"

namespace attn::tok {

struct BertOptions {
    bool lowerCase = true;             // tokenizer_config.json "do_lower_case"
    std::optional<bool> stripAccents;  // "strip_accents": unset = follow lowerCase
    bool tokenizeChineseChars = true;  // "tokenize_chinese_chars"
    std::size_t maxInputCharsPerWord = 100;
};

class BertTokenizer {
public:
    // vocab.txt (one token per line, id = line number from 0) and, if present,
    // tokenizer_config.json for the options (an empty path means defaults).
    static Loaded<BertTokenizer> fromFiles(const std::filesystem::path& vocabTxt,
                                           const std::filesystem::path& tokenizerConfigJson = {});
    static Loaded<BertTokenizer> fromVocabText(std::string_view vocabTxt, BertOptions options = {},
                                               const std::string& name = "vocab.txt");
    // Reads the options from a tokenizer_config.json text; missing keys keep their defaults.
    static Loaded<BertOptions> optionsFromConfigJson(std::string_view json,
                                                     const std::string& name);

    // [CLS] + tokens + [SEP], and what of the text became [UNK] or was dropped.
    [[nodiscard]] std::vector<int> encode(std::string_view utf8) const;
    [[nodiscard]] std::vector<int> encode(std::string_view utf8,
                                          std::vector<Dropped>& dropped) const;
    // WordPiece strings without [CLS]/[SEP], e.g. {"the", "animal", "[MASK]", "cross"}.
    [[nodiscard]] std::vector<std::string> tokenize(std::string_view utf8) const;
    // BasicTokenizer's words (before WordPiece), special tokens kept whole.
    [[nodiscard]] std::vector<std::string> basicTokenize(std::string_view utf8) const;
    // WordPiece of one word.
    void wordPiece(const std::string& word, std::vector<std::string>& out) const;

    [[nodiscard]] const std::string& piece(int id) const;  // empty for an unknown id
    [[nodiscard]] int idOf(std::string_view piece) const;  // [UNK]'s id if absent
    [[nodiscard]] bool contains(std::string_view piece) const;
    [[nodiscard]] std::size_t vocabSize() const { return pieces_.size(); }
    [[nodiscard]] const BertOptions& options() const { return options_; }

    [[nodiscard]] int unkId() const { return unk_; }
    [[nodiscard]] int clsId() const { return cls_; }
    [[nodiscard]] int sepId() const { return sep_; }
    [[nodiscard]] std::optional<int> padId() const { return pad_; }
    [[nodiscard]] std::optional<int> maskId() const { return mask_; }

    // A word of BasicTokenizer with the bytes of the text it came from.
    struct Word {
        std::string text;
        Span span;
        bool special = false;  // a special token, kept whole
    };

private:
    BertTokenizer() = default;
    [[nodiscard]] std::vector<Word> words(std::string_view utf8, DropLog* log) const;
    [[nodiscard]] AlignedChars cleanChunk(std::string_view chunk, std::size_t offset,
                                          DropLog* log) const;
    void basicTokenizeChunk(std::string_view chunk, std::size_t offset, std::vector<Word>& out,
                            DropLog* log) const;

    BertOptions options_;
    std::vector<std::string> pieces_;
    std::unordered_map<std::string, int> vocab_;
    std::vector<std::string> specials_;  // the special tokens present in the vocabulary
    int unk_ = 0, cls_ = 0, sep_ = 0;
    std::optional<int> pad_, mask_;
};

}  // namespace attn::tok
