// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Text as a tokenizer's stages pass it on, each byte (or code point) with the bytes of the
// text given to encode() that it stands for, so that what the tokenizer cannot represent is
// reported where the user typed it, whatever normalizers and pre-tokenizers made of it before
// (as Hugging Face's NormalizedString keeps its alignments). And the one bound on what the
// stages of a tokenizer.json may make of a text, which every stage's output goes through.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace attn::tok {

// The bytes [begin, end) of the text given to encode() that a byte stands for: the whole
// character it belongs to, or the characters a stage made it of (a Replace's match, characters
// NFC composed). Empty (begin == end) for what a stage inserted (a Prepend's text, a prefix
// space): nothing of the text is lost when such a byte is.
struct Span {
    std::uint32_t begin = 0;
    std::uint32_t end = 0;
    [[nodiscard]] bool empty() const { return begin == end; }
    friend bool operator==(const Span&, const Span&) = default;
};

// UTF-8 text with where each byte came from (from.size() == text.size()).
struct AlignedText {
    std::string text;
    std::vector<Span> from;
    [[nodiscard]] std::size_t size() const { return text.size(); }
    [[nodiscard]] bool empty() const { return text.empty(); }
    [[nodiscard]] AlignedText slice(std::size_t begin, std::size_t end) const;
};

// Code points with where each came from.
struct AlignedChars {
    std::u32string cps;
    std::vector<Span> from;
};

// `input` as a stage's text: valid UTF-8, each maximal ill-formed sequence replaced by U+FFFD
// (as unicode::decodeUtf8 does), every byte aligned to the character it belongs to.
AlignedText alignInput(std::string_view input);
AlignedChars alignInputChars(std::string_view input);
AlignedChars toChars(const AlignedText& text);
AlignedText toText(const AlignedChars& chars);

// The smallest span holding the non-empty spans of bytes [begin, end); if all are empty, an
// empty span where the bytes are.
Span spanOf(const AlignedText& text, std::size_t begin, std::size_t end);
Span spanOf(const std::vector<Span>& from, std::size_t begin, std::size_t end);

// `form` (NFC, NFD, Python's lower()) applied to the whole text, each resulting code point
// aligned to the character (a starter and the marks after it) it came from. Where the form
// joins characters (Hangul jamo under NFC), the joined code points share the span of all.
AlignedChars transformAligned(const AlignedChars& in, std::u32string (*form)(std::u32string_view));

// ---- the bound on the stages of a tokenizer.json ---------------------------------------------

// No stage may make of a text more than kStageGrowth times its bytes plus kStageSlack, and
// never more than kMaxStageBytes. The text is what the pipeline is given: the text between two
// added tokens. The bound holds for each stage's output against that text, not against the
// previous stage's output, so that chained stages cannot multiply their growth: three Replaces
// that each made "a" a million "a"s once took 47 s and 4.7 GB before the process was killed.
// Real pipelines stay far below it: NFD makes Korean syllables three times longer, ByteLevel
// doubles what is not ASCII, Metaspace turns a space into three bytes.
inline constexpr std::size_t kStageGrowth = 16;
inline constexpr std::size_t kStageSlack = 256;
inline constexpr std::size_t kMaxStageBytes = std::size_t{1} << 30;

class StageBudget {
public:
    explicit StageBudget(std::size_t textBytes);
    [[nodiscard]] std::size_t limit() const { return limit_; }
    [[nodiscard]] std::size_t textBytes() const { return text_; }
    // Whether a stage may give `bytes`; if not, the stage is recorded as refused (the first).
    bool admit(std::string_view stage, std::size_t bytes);
    [[nodiscard]] bool refused() const { return refused_; }
    [[nodiscard]] const std::string& stage() const { return stage_; }
    [[nodiscard]] std::size_t wouldReach() const { return wouldReach_; }

private:
    std::size_t text_ = 0;
    std::size_t limit_ = 0;
    bool refused_ = false;
    std::string stage_;
    std::size_t wouldReach_ = 0;
};

// A stage's output, made piece by piece (and cut into pieces for a pre-tokenizer). It never
// holds more than its budget's limit: beyond it, it only counts the bytes it would hold, so
// that the refusal can say how long the text would have become.
class TextBuilder {
public:
    explicit TextBuilder(const StageBudget& budget);
    // Appends `bytes`, all standing for `from`.
    void append(std::string_view bytes, Span from);
    // Appends bytes [begin, end) of `source` with their own spans.
    void appendCopy(const AlignedText& source, std::size_t begin, std::size_t end);
    // Ends a piece here (pre-tokenizers); empty pieces are not kept.
    void cut();
    [[nodiscard]] std::size_t size() const { return size_; }
    // The text, or nothing when it would be longer than the limit: the budget then names
    // `stage` with the size it would have reached.
    std::optional<AlignedText> finish(StageBudget& budget, std::string_view stage);
    // The piece ends recorded by cut() (after finish()).
    [[nodiscard]] std::vector<std::size_t> takeCuts() { return std::move(cuts_); }

private:
    std::size_t limit_;
    std::size_t size_ = 0;
    AlignedText out_;
    std::vector<std::size_t> cuts_;
};

// A pre-tokenizer's pieces: consecutive ranges of one text.
struct Pieces {
    AlignedText all;
    std::vector<std::size_t> ends;  // piece i is [ends[i - 1] (or 0), ends[i])
    [[nodiscard]] std::size_t count() const { return ends.size(); }
    [[nodiscard]] std::pair<std::size_t, std::size_t> range(std::size_t i) const
    {
        return {i == 0 ? 0 : ends[i - 1], ends[i]};
    }
};

}  // namespace attn::tok
