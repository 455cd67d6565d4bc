// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The text-to-pieces and pieces-to-text stages of a Hugging Face tokenizer.json, each read from
// its JSON object and applied as Hugging Face's tokenizers applies it:
//
//   normalizer      NFC, NFD, Prepend, Replace (a String or a Regex), Sequence
//   pre_tokenizer   Split (a String or a Regex; every split behaviour, invert), ByteLevel
//                   (GPT-2's byte-to-character map, optionally its regex and a prefix space),
//                   Metaspace, Sequence
//   decoder         ByteLevel, Replace, ByteFallback, Fuse, Strip, Metaspace, Sequence
//
// A stage that is absent (JSON null) does nothing. A type this reader does not know is refused
// when the file is read, with the field's path ("pre_tokenizer.pretokenizers[2].type"), so a
// tokenizer that would silently give other ids than the model was trained on never loads.
//
// Normalizers and pre-tokenizers carry each byte's place in the text (aligned_text.h) and make
// their output through a TextBuilder held to the text's StageBudget: a stage that would grow
// the text beyond it gives nothing, and the budget names it. What a file may ask for is bounded
// when it is read: a Replace's content and a Prepend's text (kMaxInsertBytes), and how much
// longer a decoder's Replace steps could make a token (kMaxDecoderGrowth).

#include <memory>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/tokenize/aligned_text.h"
#include "core/tokenize/hf_regex.h"

namespace attn::tok::hf {

// The most bytes a Replace may put in place of a match, or a Prepend before a text: real files
// put one character ("▁", " ").
inline constexpr std::size_t kMaxInsertBytes = 256;
// How many times longer a decoder's Replace steps together may make a token, at worst.
inline constexpr double kMaxDecoderGrowth = 16.0;

// A Split's or Replace's pattern: a literal string or a compiled Oniguruma regex.
struct Pattern {
    std::string literal;                   // when regex is null
    std::shared_ptr<const HfRegex> regex;  // when set
    // Every match as [begin, end) byte offsets (non-overlapping, left to right).
    [[nodiscard]] std::vector<std::pair<std::size_t, std::size_t>> findAll(
        std::string_view text) const;
};

struct Normalizer {
    enum class Kind { Nfc, Nfd, Prepend, Replace, Sequence };
    Kind kind = Kind::Sequence;
    std::string stage;  // its path and type, for a refusal: "normalizer.normalizers[2] (Replace)"
    std::string text;   // Prepend: what is prepended; Replace: the replacement
    Pattern pattern;    // Replace
    std::vector<Normalizer> children;

    // The normalized text, or nothing when a stage would outgrow `budget` (which names it).
    [[nodiscard]] std::optional<AlignedText> apply(const AlignedText& text,
                                                   StageBudget& budget) const;
};

struct PreTokenizer {
    enum class Kind { Split, ByteLevel, Metaspace, Sequence };
    enum class Behavior { Removed, Isolated, MergedWithPrevious, MergedWithNext, Contiguous };
    Kind kind = Kind::Sequence;
    std::string stage;  // as Normalizer::stage
    Pattern pattern;    // Split; ByteLevel with use_regex (GPT-2's pattern)
    Behavior behavior = Behavior::Isolated;
    bool invert = false;
    bool addPrefixSpace = false;                                            // ByteLevel
    bool useRegex = false;                                                  // ByteLevel
    std::string replacement = "\u2581";                                     // Metaspace
    enum class Prepend { Always, First, Never } prepend = Prepend::Always;  // Metaspace
    bool split = true;                                                      // Metaspace
    std::vector<PreTokenizer> children;

    // The pieces of the pieces given (at first the whole text between two added tokens);
    // `first` says whether they begin the text, which Metaspace's "first" scheme needs.
    // Nothing when a stage would outgrow `budget` (which names it).
    [[nodiscard]] std::optional<Pieces> apply(const Pieces& pieces, bool first,
                                              StageBudget& budget) const;
    // The pieces of a plain text, under the budget of that text (for tests and tools).
    [[nodiscard]] std::vector<std::string> apply(const std::string& text, bool first) const;
};

struct Decoder {
    enum class Kind { ByteLevel, Replace, ByteFallback, Fuse, Strip, Metaspace, Sequence };
    Kind kind = Kind::Sequence;
    Pattern pattern;   // Replace
    std::string text;  // Replace: the replacement; Strip: the character; Metaspace: replacement
    int start = 0;     // Strip
    int stop = 0;      // Strip
    bool prependFirst = true;  // Metaspace: the first token's leading space was added
    std::vector<Decoder> children;

    // The decoder chain of Hugging Face: tokens in, tokens out (joined by the caller).
    [[nodiscard]] std::vector<std::string> decode(std::vector<std::string> tokens) const;
    // One token's raw bytes, for display: the steps that map a token to bytes (ByteLevel,
    // Replace, ByteFallback, Metaspace), without those that join or trim (Fuse, Strip) and
    // without repairing bytes that are a piece of a character.
    [[nodiscard]] std::string tokenBytes(std::string token) const;
    // At most how many times longer its Replace steps could make a text (the others never
    // make one longer): at least 1.
    [[nodiscard]] double worstGrowth() const;
};

// Each reader returns the stage, or sets `error` to "<path>: <what>" and returns nothing.
std::optional<Normalizer> readNormalizer(const nlohmann::json& j, const std::string& path,
                                         std::string& error);
std::optional<PreTokenizer> readPreTokenizer(const nlohmann::json& j, const std::string& path,
                                             std::string& error);
std::optional<Decoder> readDecoder(const nlohmann::json& j, const std::string& path,
                                   std::string& error);
// A {"String": s} or {"Regex": r} object.
std::optional<Pattern> readPattern(const nlohmann::json& j, const std::string& path,
                                   std::string& error);

// GPT-2's byte-to-character map (ByteLevel) and its inverse (-1: not a byte character).
std::string byteLevelEncode(std::string_view bytes);
int byteLevelDecodeChar(char32_t cp);

// `text` with every match of `pattern` replaced by `content` (decoders, which see tokens).
std::string replaceAll(const std::string& text, const Pattern& pattern, const std::string& content);

}  // namespace attn::tok::hf
