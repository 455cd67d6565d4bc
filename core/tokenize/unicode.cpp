// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/tokenize/unicode.h"

#include <algorithm>
#include <cstdint>
#include <utility>

#include "core/tokenize/unicode_tables_data.h"

namespace attn::tok::unicode {
namespace {

using data::Range;

bool inRanges(const Range* ranges, std::size_t size, char32_t cp)
{
    const Range* end = ranges + size;
    const Range* it =
        std::upper_bound(ranges, end, cp, [](char32_t c, const Range& r) { return c < r.lo; });
    if (it == ranges) return false;
    --it;
    return cp <= it->hi;
}

const data::MapEntry* findEntry(const data::MapEntry* entries, std::size_t size, char32_t cp)
{
    const data::MapEntry* end = entries + size;
    const data::MapEntry* it = std::lower_bound(
        entries, end, cp, [](const data::MapEntry& e, char32_t c) { return e.cp < c; });
    if (it == end || it->cp != cp) return nullptr;
    return it;
}

// Hangul syllables decompose and compose algorithmically (Unicode chapter 3.12).
constexpr char32_t kSBase = 0xAC00, kLBase = 0x1100, kVBase = 0x1161, kTBase = 0x11A7;
constexpr char32_t kLCount = 19, kVCount = 21, kTCount = 28;
constexpr char32_t kNCount = kVCount * kTCount, kSCount = kLCount * kNCount;

bool isHangulSyllable(char32_t cp)
{
    return cp >= kSBase && cp < kSBase + kSCount;
}

// Expected continuation-byte range after a lead byte, per position (Unicode Table 3-7).
struct Pattern {
    int length;
    std::uint8_t lo1, hi1;
};

Pattern patternFor(std::uint8_t lead)
{
    if (lead < 0x80) return {1, 0, 0};
    if (lead >= 0xC2 && lead <= 0xDF) return {2, 0x80, 0xBF};
    if (lead == 0xE0) return {3, 0xA0, 0xBF};
    if (lead == 0xED) return {3, 0x80, 0x9F};
    if (lead >= 0xE1 && lead <= 0xEF) return {3, 0x80, 0xBF};
    if (lead == 0xF0) return {4, 0x90, 0xBF};
    if (lead >= 0xF1 && lead <= 0xF3) return {4, 0x80, 0xBF};
    if (lead == 0xF4) return {4, 0x80, 0x8F};
    return {0, 0, 0};
}

// Number of bytes from i that form a valid (possibly incomplete) prefix of a sequence.
std::size_t validPrefix(std::string_view bytes, std::size_t i, int* length)
{
    const auto lead = static_cast<std::uint8_t>(bytes[i]);
    const Pattern p = patternFor(lead);
    *length = p.length;
    if (p.length <= 1) return 1;
    std::size_t n = 1;
    for (int k = 1; k < p.length && i + n < bytes.size(); ++k) {
        const auto b = static_cast<std::uint8_t>(bytes[i + n]);
        const std::uint8_t lo = k == 1 ? p.lo1 : 0x80;
        const std::uint8_t hi = k == 1 ? p.hi1 : 0xBF;
        if (b < lo || b > hi) break;
        ++n;
    }
    return n;
}

}  // namespace

const char* tablesVersion()
{
    return data::kUnicodeVersion;
}

std::size_t validSequenceLength(std::string_view bytes, std::size_t i)
{
    if (i >= bytes.size()) return 0;
    int length = 0;
    const std::size_t n = validPrefix(bytes, i, &length);
    return (length > 0 && n == static_cast<std::size_t>(length)) ? n : 0;
}

bool isCutOffSequence(std::string_view bytes, std::size_t i)
{
    if (i >= bytes.size()) return false;
    int length = 0;
    const std::size_t n = validPrefix(bytes, i, &length);
    return length > 1 && n < static_cast<std::size_t>(length) && i + n == bytes.size();
}

std::size_t decodeAt(std::string_view bytes, std::size_t i, char32_t& cp, bool* illFormed)
{
    int length = 0;
    const std::size_t n = validPrefix(bytes, i, &length);
    const bool bad = length == 0 || n != static_cast<std::size_t>(length);
    if (illFormed) *illFormed = bad;
    if (bad) {
        cp = U'\uFFFD';
        return n;
    }
    const auto b0 = static_cast<std::uint8_t>(bytes[i]);
    if (length == 1) {
        cp = b0;
        return 1;
    }
    cp = b0 & (0xFFu >> (length + 1));
    for (int k = 1; k < length; ++k)
        cp = (cp << 6) | (static_cast<std::uint8_t>(bytes[i + k]) & 0x3Fu);
    return n;
}

std::u32string decodeUtf8(std::string_view bytes, bool* invalid)
{
    std::u32string out;
    out.reserve(bytes.size());
    if (invalid) *invalid = false;
    std::size_t i = 0;
    while (i < bytes.size()) {
        char32_t cp = 0;
        bool bad = false;
        const std::size_t n = decodeAt(bytes, i, cp, &bad);
        if (bad && invalid) *invalid = true;
        out.push_back(cp);
        i += n;
    }
    return out;
}

void appendUtf8(std::string& out, char32_t cp)
{
    if (cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) cp = 0xFFFD;
    if (cp < 0x80) {
        out.push_back(static_cast<char>(cp));
    } else if (cp < 0x800) {
        out.push_back(static_cast<char>(0xC0 | (cp >> 6)));
        out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    } else if (cp < 0x10000) {
        out.push_back(static_cast<char>(0xE0 | (cp >> 12)));
        out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
        out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    } else {
        out.push_back(static_cast<char>(0xF0 | (cp >> 18)));
        out.push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
        out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
        out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    }
}

std::string encodeUtf8(std::u32string_view cps)
{
    std::string out;
    out.reserve(cps.size());
    for (char32_t cp : cps) appendUtf8(out, cp);
    return out;
}

bool isLetter(char32_t cp)
{
    return inRanges(data::kLetter, data::kLetterSize, cp);
}
bool isNumber(char32_t cp)
{
    return inRanges(data::kNumber, data::kNumberSize, cp);
}
bool isPunctuation(char32_t cp)
{
    return inRanges(data::kPunctuation, data::kPunctuationSize, cp);
}
bool isOther(char32_t cp)
{
    return cp > 0x10FFFF || inRanges(data::kOther, data::kOtherSize, cp);
}
bool isSpaceSeparator(char32_t cp)
{
    return inRanges(data::kSpaceSeparator, data::kSpaceSeparatorSize, cp);
}
bool isNonspacingMark(char32_t cp)
{
    return inRanges(data::kNonspacingMark, data::kNonspacingMarkSize, cp);
}
bool isWhiteSpace(char32_t cp)
{
    return inRanges(data::kWhiteSpace, data::kWhiteSpaceSize, cp);
}

bool isPythonSpace(char32_t cp)
{
    return inRanges(data::kPythonSpace, data::kPythonSpaceSize, cp);
}

int combiningClass(char32_t cp)
{
    const data::ClassRange* begin = data::kCombiningClass;
    const data::ClassRange* end = begin + data::kCombiningClassSize;
    const data::ClassRange* it = std::upper_bound(
        begin, end, cp, [](char32_t c, const data::ClassRange& r) { return c < r.lo; });
    if (it == begin) return 0;
    --it;
    return cp <= it->hi ? it->ccc : 0;
}

std::u32string nfd(std::u32string_view text)
{
    std::u32string out;
    out.reserve(text.size());
    for (char32_t cp : text) {
        if (isHangulSyllable(cp)) {
            const char32_t s = cp - kSBase;
            out.push_back(kLBase + s / kNCount);
            out.push_back(kVBase + (s % kNCount) / kTCount);
            if (s % kTCount != 0) out.push_back(kTBase + s % kTCount);
            continue;
        }
        if (const data::MapEntry* e =
                findEntry(data::kDecomposition, data::kDecompositionSize, cp)) {
            out.append(data::kDecompositionPool + e->offset, e->length);
        } else {
            out.push_back(cp);
        }
    }
    // Canonical ordering: stable sort of every run of non-starters by combining class.
    std::size_t i = 0;
    while (i < out.size()) {
        if (combiningClass(out[i]) == 0) {
            ++i;
            continue;
        }
        std::size_t j = i;
        while (j < out.size() && combiningClass(out[j]) != 0) ++j;
        std::stable_sort(out.begin() + static_cast<std::ptrdiff_t>(i),
                         out.begin() + static_cast<std::ptrdiff_t>(j), [](char32_t a, char32_t b) {
                             return combiningClass(a) < combiningClass(b);
                         });
        i = j;
    }
    return out;
}

namespace {

char32_t composePair(char32_t a, char32_t b)
{
    if (a >= kLBase && a < kLBase + kLCount && b >= kVBase && b < kVBase + kVCount) {
        return kSBase + ((a - kLBase) * kVCount + (b - kVBase)) * kTCount;
    }
    if (isHangulSyllable(a) && (a - kSBase) % kTCount == 0 && b > kTBase && b < kTBase + kTCount) {
        return a + (b - kTBase);
    }
    const data::Composition* begin = data::kCompositions;
    const data::Composition* end = begin + data::kCompositionsSize;
    const auto key = std::make_pair(a, b);
    const data::Composition* it =
        std::lower_bound(begin, end, key, [](const data::Composition& c, const auto& k) {
            return std::make_pair(c.first, c.second) < k;
        });
    if (it != end && it->first == a && it->second == b) return it->composed;
    return 0;
}

}  // namespace

std::u32string nfc(std::u32string_view text)
{
    const std::u32string decomposed = nfd(text);
    std::u32string result;
    result.reserve(decomposed.size());
    bool haveStarter = false;
    std::size_t starter = 0;
    for (char32_t cp : decomposed) {
        const int ccc = combiningClass(cp);
        if (haveStarter) {
            const bool blocked =
                result.size() - 1 > starter && combiningClass(result.back()) >= ccc;
            if (!blocked) {
                if (const char32_t composed = composePair(result[starter], cp); composed != 0) {
                    result[starter] = composed;
                    continue;
                }
            }
        }
        if (ccc == 0) {
            haveStarter = true;
            starter = result.size();
        }
        result.push_back(cp);
    }
    return result;
}

std::u32string toLowerPython(std::u32string_view text)
{
    auto ignorable = [](char32_t c) {
        return inRanges(data::kCaseIgnorable, data::kCaseIgnorableSize, c);
    };
    auto cased = [](char32_t c) {
        return inRanges(data::kCasedNotIgnorable, data::kCasedNotIgnorableSize, c);
    };
    std::u32string out;
    out.reserve(text.size());
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char32_t cp = text[i];
        if (cp == U'\u03A3') {
            // CPython's handle_capital_sigma: final form when preceded by a cased letter
            // (skipping case-ignorables) and not followed by one.
            std::size_t j = i;
            while (j > 0 && ignorable(text[j - 1])) --j;
            bool final = j > 0 && cased(text[j - 1]);
            if (final) {
                std::size_t k = i + 1;
                while (k < text.size() && ignorable(text[k])) ++k;
                final = k == text.size() || !cased(text[k]);
            }
            out.push_back(final ? U'\u03C2' : U'\u03C3');
            continue;
        }
        if (const data::MapEntry* e = findEntry(data::kLower, data::kLowerSize, cp)) {
            out.append(data::kLowerPool + e->offset, e->length);
        } else {
            out.push_back(cp);
        }
    }
    return out;
}

}  // namespace attn::tok::unicode
