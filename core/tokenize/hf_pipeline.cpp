// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/tokenize/hf_pipeline.h"

#include <algorithm>
#include <array>

#include "core/tokenize/gpt2_tokenizer.h"
#include "core/tokenize/unicode.h"

namespace attn::tok::hf {

namespace {

using Range = std::pair<std::size_t, std::size_t>;

// Hugging Face's NormalizedString::split: the text cut into matches and the parts between them,
// then joined or dropped by the behaviour. Empty pieces are dropped.
std::vector<Range> splitBy(std::string_view text, const Pattern& pattern,
                           PreTokenizer::Behavior behavior, bool invert)
{
    std::vector<std::pair<Range, bool>> parts;
    std::size_t prev = 0;
    for (const auto& [from, to] : pattern.findAll(text)) {
        if (prev != from) parts.push_back({{prev, from}, invert});
        parts.push_back({{from, to}, !invert});
        prev = to;
    }
    if (prev != text.size()) parts.push_back({{prev, text.size()}, invert});

    using B = PreTokenizer::Behavior;
    std::vector<Range> kept;
    bool previousMatch = false;
    switch (behavior) {
    case B::Removed:
        for (const auto& [r, isMatch] : parts)
            if (!isMatch) kept.push_back(r);
        break;
    case B::Isolated:
        for (const auto& [r, isMatch] : parts) kept.push_back(r);
        break;
    case B::MergedWithPrevious:
        for (const auto& [r, isMatch] : parts) {
            if (isMatch && !previousMatch && !kept.empty())
                kept.back().second = r.second;
            else
                kept.push_back(r);
            previousMatch = isMatch;
        }
        break;
    case B::MergedWithNext:
        for (auto it = parts.rbegin(); it != parts.rend(); ++it) {
            if (it->second && !previousMatch && !kept.empty())
                kept.back().first = it->first.first;
            else
                kept.push_back(it->first);
            previousMatch = it->second;
        }
        std::reverse(kept.begin(), kept.end());
        break;
    case B::Contiguous:
        for (const auto& [r, isMatch] : parts) {
            if (isMatch == previousMatch && !kept.empty())
                kept.back().second = r.second;
            else
                kept.push_back(r);
            previousMatch = isMatch;
        }
        break;
    }
    std::erase_if(kept, [](const Range& r) { return r.second <= r.first; });
    return kept;
}

// GPT-2's byte-to-character map as UTF-8, one string per byte.
const std::array<std::string, 256>& byteLevelChars()
{
    static const std::array<std::string, 256> table = [] {
        std::array<std::string, 256> t;
        for (int b = 0; b < 256; ++b)
            unicode::appendUtf8(t[static_cast<std::size_t>(b)],
                                Gpt2Tokenizer::byteToUnicode(static_cast<std::uint8_t>(b)));
        return t;
    }();
    return table;
}

}  // namespace

std::vector<std::pair<std::size_t, std::size_t>> Pattern::findAll(std::string_view text) const
{
    if (regex) return regex->findAll(text);
    std::vector<std::pair<std::size_t, std::size_t>> out;
    if (literal.empty()) return out;
    for (std::size_t at = text.find(literal); at != std::string_view::npos;
         at = text.find(literal, at + literal.size()))
        out.emplace_back(at, at + literal.size());
    return out;
}

std::string byteLevelEncode(std::string_view bytes)
{
    std::string out;
    for (const char c : bytes)
        unicode::appendUtf8(out, Gpt2Tokenizer::byteToUnicode(static_cast<std::uint8_t>(c)));
    return out;
}

int byteLevelDecodeChar(char32_t cp)
{
    static const auto inverse = [] {
        std::vector<int> table(0x200, -1);
        for (int b = 0; b < 256; ++b)
            table[Gpt2Tokenizer::byteToUnicode(static_cast<std::uint8_t>(b))] = b;
        return table;
    }();
    return cp < inverse.size() ? inverse[cp] : -1;
}

std::string replaceAll(const std::string& text, const Pattern& pattern, const std::string& content)
{
    std::string out;
    std::size_t at = 0;
    for (const auto& [from, to] : pattern.findAll(text)) {
        out.append(text, at, from - at);
        out += content;
        at = to;
    }
    out.append(text, at, std::string::npos);
    return out;
}

// ---- normalizers ----------------------------------------------------------------------------

namespace {

std::optional<AlignedText> normalizeForm(const AlignedText& in, const Normalizer& n,
                                         std::u32string (*form)(std::u32string_view),
                                         StageBudget& budget)
{
    TextBuilder out(budget);
    const std::u32string cps = unicode::decodeUtf8(in.text);
    if (form(cps) == cps) {
        out.appendCopy(in, 0, in.size());  // already in this form, as most text is
    } else {
        const AlignedText made = toText(transformAligned(toChars(in), form));
        out.appendCopy(made, 0, made.size());
    }
    return out.finish(budget, n.stage);
}

// Each match of the pattern becomes the content, standing for what it replaced (an empty
// match's content for nothing of the text).
std::optional<AlignedText> replace(const AlignedText& in, const Normalizer& n, StageBudget& budget)
{
    TextBuilder out(budget);
    std::size_t at = 0;
    for (const auto& [from, to] : n.pattern.findAll(in.text)) {
        out.appendCopy(in, at, from);
        out.append(n.text, spanOf(in, from, to));
        at = to;
    }
    out.appendCopy(in, at, in.size());
    return out.finish(budget, n.stage);
}

}  // namespace

std::optional<AlignedText> Normalizer::apply(const AlignedText& in, StageBudget& budget) const
{
    switch (kind) {
    case Kind::Nfc: return normalizeForm(in, *this, unicode::nfc, budget);
    case Kind::Nfd: return normalizeForm(in, *this, unicode::nfd, budget);
    case Kind::Prepend: {
        if (in.empty()) return in;
        TextBuilder out(budget);
        out.append(text, spanOf(in, 0, 0));
        out.appendCopy(in, 0, in.size());
        return out.finish(budget, stage);
    }
    case Kind::Replace: return replace(in, *this, budget);
    case Kind::Sequence: {
        std::optional<AlignedText> s = in;
        for (const auto& child : children) {
            s = child.apply(*s, budget);
            if (!s) return std::nullopt;
        }
        return s;
    }
    }
    return in;
}

// ---- pre-tokenizers -------------------------------------------------------------------------

namespace {

// ByteLevel on bytes [begin, end) of `all`: a space before them if asked for, GPT-2's split,
// each byte as its character (standing for the character the byte is part of).
void byteLevel(const PreTokenizer& p, const AlignedText& all, std::size_t begin, std::size_t end,
               TextBuilder& out)
{
    const std::string_view piece = std::string_view(all.text).substr(begin, end - begin);
    const bool prefix = p.addPrefixSpace && !piece.starts_with(' ');
    std::string spaced;
    if (prefix) {
        spaced.reserve(piece.size() + 1);
        spaced.push_back(' ');
        spaced.append(piece);
    }
    const std::string_view s = prefix ? std::string_view(spaced) : piece;
    const Span inserted = spanOf(all, begin, begin);
    const std::vector<Range> parts =
        p.useRegex ? splitBy(s, p.pattern, PreTokenizer::Behavior::Isolated, false)
                   : std::vector<Range>{{0, s.size()}};
    const auto& chars = byteLevelChars();
    for (const auto& [from, to] : parts) {
        for (std::size_t k = from; k < to; ++k) {
            const Span span =
                prefix ? (k == 0 ? inserted : all.from[begin + k - 1]) : all.from[begin + k];
            out.append(chars[static_cast<unsigned char>(s[k])], span);
        }
        out.cut();
    }
}

// Metaspace on one piece: each space as the replacement, the replacement before it if asked
// for, then cut before each replacement.
void metaspace(const PreTokenizer& p, const AlignedText& piece, bool first, TextBuilder& out)
{
    AlignedText s;
    const bool prependHere = p.prepend == PreTokenizer::Prepend::Always ||
                             (p.prepend == PreTokenizer::Prepend::First && first);
    if (prependHere && !piece.text.starts_with(' ') && !piece.text.starts_with(p.replacement)) {
        s.text = p.replacement;
        s.from.assign(s.text.size(), spanOf(piece, 0, 0));
    }
    for (std::size_t k = 0; k < piece.size(); ++k) {
        const bool space = piece.text[k] == ' ';
        s.text += space ? std::string_view(p.replacement) : std::string_view(&piece.text[k], 1);
        s.from.insert(s.from.end(), space ? p.replacement.size() : 1, piece.from[k]);
    }
    Pattern marker;
    marker.literal = p.replacement;
    const std::vector<Range> parts =
        p.split ? splitBy(s.text, marker, PreTokenizer::Behavior::MergedWithNext, false)
                : std::vector<Range>{{0, s.size()}};
    for (const auto& [from, to] : parts) {
        out.appendCopy(s, from, to);
        out.cut();
    }
}

}  // namespace

std::optional<Pieces> PreTokenizer::apply(const Pieces& in, bool first, StageBudget& budget) const
{
    if (kind == Kind::Sequence) {
        std::optional<Pieces> pieces = in;
        for (const auto& child : children) {
            pieces = child.apply(*pieces, first, budget);
            if (!pieces) return std::nullopt;
        }
        return pieces;
    }
    TextBuilder out(budget);
    for (std::size_t i = 0; i < in.count(); ++i) {
        const auto [begin, end] = in.range(i);
        switch (kind) {
        case Kind::Split:
            for (const auto& [from, to] :
                 splitBy(std::string_view(in.all.text).substr(begin, end - begin), pattern,
                         behavior, invert)) {
                out.appendCopy(in.all, begin + from, begin + to);
                out.cut();
            }
            break;
        case Kind::ByteLevel: byteLevel(*this, in.all, begin, end, out); break;
        case Kind::Metaspace:
            metaspace(*this, in.all.slice(begin, end), first && i == 0, out);
            break;
        case Kind::Sequence: break;
        }
    }
    std::optional<AlignedText> all = out.finish(budget, stage);
    if (!all) return std::nullopt;
    return Pieces{std::move(*all), out.takeCuts()};
}

std::vector<std::string> PreTokenizer::apply(const std::string& text, bool first) const
{
    Pieces in{alignInput(text), {}};
    if (!text.empty()) in.ends.push_back(in.all.size());
    StageBudget budget(text.size());
    std::vector<std::string> out;
    if (const auto pieces = apply(in, first, budget)) {
        for (std::size_t i = 0; i < pieces->count(); ++i) {
            const auto [begin, end] = pieces->range(i);
            out.push_back(pieces->all.text.substr(begin, end - begin));
        }
    }
    return out;
}

}  // namespace attn::tok::hf
