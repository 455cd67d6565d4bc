// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/tokenize/aligned_text.h"

#include <algorithm>

#include "core/tokenize/unicode.h"

namespace attn::tok {

AlignedText AlignedText::slice(std::size_t begin, std::size_t end) const
{
    AlignedText out;
    out.text = text.substr(begin, end - begin);
    out.from.assign(from.begin() + static_cast<std::ptrdiff_t>(begin),
                    from.begin() + static_cast<std::ptrdiff_t>(end));
    return out;
}

AlignedChars alignInputChars(std::string_view input)
{
    AlignedChars out;
    out.cps.reserve(input.size());
    out.from.reserve(input.size());
    for (std::size_t i = 0; i < input.size();) {
        char32_t cp = 0;
        const std::size_t n = unicode::decodeAt(input, i, cp);
        out.cps.push_back(cp);
        out.from.push_back({static_cast<std::uint32_t>(i), static_cast<std::uint32_t>(i + n)});
        i += n;
    }
    return out;
}

AlignedText alignInput(std::string_view input)
{
    AlignedText out;
    out.text.reserve(input.size());
    out.from.reserve(input.size());
    for (std::size_t i = 0; i < input.size();) {
        char32_t cp = 0;
        bool illFormed = false;
        const std::size_t n = unicode::decodeAt(input, i, cp, &illFormed);
        const Span span{static_cast<std::uint32_t>(i), static_cast<std::uint32_t>(i + n)};
        const std::string_view bytes = illFormed ? "\xEF\xBF\xBD" : input.substr(i, n);
        out.text.append(bytes);
        for (std::size_t k = 0; k < bytes.size(); ++k) out.from.push_back(span);
        i += n;
    }
    return out;
}

AlignedChars toChars(const AlignedText& text)
{
    AlignedChars out;
    out.cps.reserve(text.size());
    out.from.reserve(text.size());
    for (std::size_t i = 0; i < text.size();) {
        char32_t cp = 0;
        const std::size_t n = unicode::decodeAt(text.text, i, cp);
        out.cps.push_back(cp);
        out.from.push_back(spanOf(text, i, i + n));
        i += n;
    }
    return out;
}

AlignedText toText(const AlignedChars& chars)
{
    AlignedText out;
    out.text.reserve(chars.cps.size());
    out.from.reserve(chars.cps.size());
    for (std::size_t k = 0; k < chars.cps.size(); ++k) {
        const std::size_t before = out.text.size();
        unicode::appendUtf8(out.text, chars.cps[k]);
        for (std::size_t b = before; b < out.text.size(); ++b) out.from.push_back(chars.from[k]);
    }
    return out;
}

Span spanOf(const std::vector<Span>& from, std::size_t begin, std::size_t end)
{
    Span out;
    bool any = false;
    for (std::size_t i = begin; i < end; ++i) {
        const Span s = from[i];
        if (s.empty()) continue;
        out = any ? Span{std::min(out.begin, s.begin), std::max(out.end, s.end)} : s;
        any = true;
    }
    if (any) return out;
    // Nothing of the text: an empty span where these bytes are (or where the text ends).
    const std::uint32_t at = begin < from.size() ? from[begin].begin
                             : from.empty()      ? 0
                             : begin > 0         ? from[begin - 1].end
                                                 : 0;
    return {at, at};
}

Span spanOf(const AlignedText& text, std::size_t begin, std::size_t end)
{
    return spanOf(text.from, begin, end);
}

namespace {

// The segments a form works within: a starter and the non-starters (marks) after it.
std::vector<std::size_t> segmentEnds(const std::u32string& cps)
{
    std::vector<std::size_t> ends;
    for (std::size_t k = 1; k < cps.size(); ++k)
        if (unicode::combiningClass(cps[k]) == 0) ends.push_back(k);
    if (!cps.empty()) ends.push_back(cps.size());
    return ends;
}

// Aligns `exact` (the form of the whole text) by `pieces` (the forms of its segments, each
// code point with its segment's span): one to one where they agree in length, else the
// common start and end one to one and what lies between under one span.
std::vector<Span> alignExact(const std::u32string& exact, const AlignedChars& pieces)
{
    const std::size_t n = exact.size();
    if (n == pieces.cps.size()) return pieces.from;
    std::size_t head = 0;
    while (head < n && head < pieces.cps.size() && exact[head] == pieces.cps[head]) ++head;
    std::size_t tail = 0;
    while (tail < n - head && tail < pieces.cps.size() - head &&
           exact[n - 1 - tail] == pieces.cps[pieces.cps.size() - 1 - tail])
        ++tail;
    std::vector<Span> out(pieces.from.begin(),
                          pieces.from.begin() + static_cast<std::ptrdiff_t>(head));
    const Span middle = spanOf(pieces.from, head, pieces.cps.size() - tail);
    out.insert(out.end(), n - head - tail, middle);
    out.insert(out.end(), pieces.from.end() - static_cast<std::ptrdiff_t>(tail), pieces.from.end());
    return out;
}

}  // namespace

AlignedChars transformAligned(const AlignedChars& in, std::u32string (*form)(std::u32string_view))
{
    AlignedChars out;
    out.cps = form(in.cps);
    const bool ascii =
        std::all_of(in.cps.begin(), in.cps.end(), [](char32_t c) { return c < 0x80; });
    if (ascii && out.cps.size() == in.cps.size()) {
        out.from = in.from;  // NFC, NFD and lower() keep ASCII one to one
        return out;
    }
    AlignedChars pieces;
    std::size_t begin = 0;
    for (const std::size_t end : segmentEnds(in.cps)) {
        const std::u32string_view segment = std::u32string_view(in.cps).substr(begin, end - begin);
        const std::u32string made =
            segment.size() == 1 && segment[0] < 0x80 ? std::u32string(segment) : form(segment);
        pieces.cps += made;
        pieces.from.insert(pieces.from.end(), made.size(), spanOf(in.from, begin, end));
        begin = end;
    }
    out.from = alignExact(out.cps, pieces);
    return out;
}

// ---- the bound ----------------------------------------------------------------------------------

StageBudget::StageBudget(std::size_t textBytes) : text_(textBytes)
{
    const std::size_t grown = textBytes > (kMaxStageBytes - kStageSlack) / kStageGrowth
                                  ? kMaxStageBytes
                                  : textBytes * kStageGrowth + kStageSlack;
    limit_ = std::min(grown, kMaxStageBytes);
}

bool StageBudget::admit(std::string_view stage, std::size_t bytes)
{
    if (bytes <= limit_) return true;
    if (!refused_) {
        refused_ = true;
        stage_ = stage;
        wouldReach_ = bytes;
    }
    return false;
}

TextBuilder::TextBuilder(const StageBudget& budget) : limit_(budget.limit())
{
    // Most stages give about as many bytes as the text has.
    out_.text.reserve(budget.textBytes());
    out_.from.reserve(budget.textBytes());
}

void TextBuilder::append(std::string_view bytes, Span from)
{
    size_ += bytes.size();
    if (size_ > limit_) return;
    out_.text.append(bytes);
    for (std::size_t k = 0; k < bytes.size(); ++k) out_.from.push_back(from);
}

void TextBuilder::appendCopy(const AlignedText& source, std::size_t begin, std::size_t end)
{
    size_ += end - begin;
    if (size_ > limit_) return;
    out_.text.append(source.text, begin, end - begin);
    out_.from.insert(out_.from.end(), source.from.begin() + static_cast<std::ptrdiff_t>(begin),
                     source.from.begin() + static_cast<std::ptrdiff_t>(end));
}

void TextBuilder::cut()
{
    if (size_ > limit_) return;
    if (out_.size() > (cuts_.empty() ? 0 : cuts_.back())) cuts_.push_back(out_.size());
}

std::optional<AlignedText> TextBuilder::finish(StageBudget& budget, std::string_view stage)
{
    if (!budget.admit(stage, size_)) return std::nullopt;
    return std::move(out_);
}

}  // namespace attn::tok
