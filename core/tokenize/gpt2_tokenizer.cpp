// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/tokenize/gpt2_tokenizer.h"

#include <algorithm>
#include <array>
#include <cstdio>
#include <limits>

#include "core/tokenize/unicode.h"

namespace attn::tok {
namespace {

// GPT-2's bytes_to_unicode(): printable bytes stand for themselves, the others are moved to
// 256, 257, ... in byte order.
std::array<char32_t, 256> makeByteToUnicode()
{
    std::array<char32_t, 256> map{};
    char32_t next = 256;
    for (int b = 0; b < 256; ++b) {
        const bool printable = (b >= '!' && b <= '~') || (b >= 0xA1 && b <= 0xAC) || (b >= 0xAE);
        map[static_cast<std::size_t>(b)] = printable ? static_cast<char32_t>(b) : next++;
    }
    return map;
}

const std::array<char32_t, 256>& byteToUnicodeTable()
{
    static const std::array<char32_t, 256> table = makeByteToUnicode();
    return table;
}

// Inverse map, code point -> byte, for code points below 324 (the largest is 323).
int unicodeToByte(char32_t cp)
{
    static const std::array<int, 324> inverse = [] {
        std::array<int, 324> inv{};
        inv.fill(-1);
        const auto& forward = byteToUnicodeTable();
        for (int b = 0; b < 256; ++b) inv[forward[static_cast<std::size_t>(b)]] = b;
        return inv;
    }();
    return cp < inverse.size() ? inverse[cp] : -1;
}

// Class of a code point for the pre-tokenizer.
enum class CharClass { Letter, Number, Space, Other };

CharClass classify(char32_t cp)
{
    if (unicode::isWhiteSpace(cp)) return CharClass::Space;
    if (unicode::isLetter(cp)) return CharClass::Letter;
    if (unicode::isNumber(cp)) return CharClass::Number;
    return CharClass::Other;
}

// Length of GPT-2's pattern match at position i (always >= 1).
std::size_t matchAt(const std::u32string& t, const std::vector<CharClass>& cls, std::size_t i)
{
    const std::size_t n = t.size();
    // 's|'t|'re|'ve|'m|'ll|'d
    if (t[i] == U'\'' && i + 1 < n) {
        const char32_t c1 = t[i + 1];
        if (c1 == U's' || c1 == U't' || c1 == U'm' || c1 == U'd') return 2;
        if (i + 2 < n) {
            const char32_t c2 = t[i + 2];
            if ((c1 == U'r' && c2 == U'e') || (c1 == U'v' && c2 == U'e') ||
                (c1 == U'l' && c2 == U'l')) {
                return 3;
            }
        }
    }
    // ` ?\p{L}+`, ` ?\p{N}+`, ` ?[^\s\p{L}\p{N}]+`, tried in that order.
    const std::size_t start = (t[i] == U' ' && i + 1 < n) ? i + 1 : i;
    for (CharClass want : {CharClass::Letter, CharClass::Number, CharClass::Other}) {
        std::size_t j = i;
        if (cls[j] != want) {
            if (start == i || cls[start] != want) continue;
            j = start;  // the optional space
        }
        while (j < n && cls[j] == want) ++j;
        return j - i;
    }
    // `\s+(?!\S)` then `\s+`.
    std::size_t j = i;
    while (j < n && cls[j] == CharClass::Space) ++j;
    if (j == n) return j - i;
    if (j - i >= 2) return j - i - 1;  // leave the last space to prefix the next word
    return 1;
}

}  // namespace

char32_t Gpt2Tokenizer::byteToUnicode(std::uint8_t byte)
{
    return byteToUnicodeTable()[byte];
}

namespace {

// GPT-2's pieces of a text, as [begin, end) code point ranges.
std::vector<std::pair<std::size_t, std::size_t>> pieceRanges(const std::u32string& text)
{
    std::vector<CharClass> cls(text.size());
    for (std::size_t k = 0; k < text.size(); ++k) cls[k] = classify(text[k]);
    std::vector<std::pair<std::size_t, std::size_t>> pieces;
    for (std::size_t i = 0; i < text.size();) {
        const std::size_t len = matchAt(text, cls, i);
        pieces.emplace_back(i, i + len);
        i += len;
    }
    return pieces;
}

}  // namespace

std::vector<std::string> Gpt2Tokenizer::preTokenize(std::string_view utf8)
{
    const std::u32string text = unicode::decodeUtf8(utf8);
    std::vector<std::string> pieces;
    for (const auto& [begin, end] : pieceRanges(text))
        pieces.push_back(unicode::encodeUtf8(std::u32string_view(text).substr(begin, end - begin)));
    return pieces;
}

void Gpt2Tokenizer::bpe(const std::string& pieceBytes, std::vector<int>& ids) const
{
    std::vector<int> word;
    word.reserve(pieceBytes.size());
    for (char c : pieceBytes) word.push_back(byteSymbols_[static_cast<std::uint8_t>(c)]);
    auto lookup = [this](int l, int r) -> const Merge* {
        const std::uint64_t key =
            (static_cast<std::uint64_t>(l) << 32) | static_cast<std::uint32_t>(r);
        const auto it = merges_.find(key);
        return it == merges_.end() ? nullptr : &it->second;
    };
    // OpenAI's loop: find the lowest-ranked adjacent pair, merge every non-overlapping
    // occurrence of it from left to right, repeat until no pair has a rank.
    std::vector<int> next;
    while (word.size() > 1) {
        const Merge* best = nullptr;
        int bestLeft = 0, bestRight = 0;
        for (std::size_t k = 0; k + 1 < word.size(); ++k) {
            const Merge* m = lookup(word[k], word[k + 1]);
            if (m && (!best || m->rank < best->rank)) {
                best = m;
                bestLeft = word[k];
                bestRight = word[k + 1];
            }
        }
        if (!best) break;
        next.clear();
        std::size_t k = 0;
        while (k < word.size()) {
            if (k + 1 < word.size() && word[k] == bestLeft && word[k + 1] == bestRight) {
                next.push_back(best->result);
                k += 2;
            } else {
                next.push_back(word[k]);
                ++k;
            }
        }
        word.swap(next);
    }
    // Every merge's halves and result are tokens (gpt2_load.cpp checks), and encode() gave no
    // byte the vocabulary lacks: every symbol has an id.
    for (int symbol : word) ids.push_back(symbolId_[static_cast<std::size_t>(symbol)]);
}

std::vector<int> Gpt2Tokenizer::encode(std::string_view utf8) const
{
    std::vector<Dropped> dropped;
    return encode(utf8, dropped);
}

std::vector<int> Gpt2Tokenizer::encode(std::string_view utf8, std::vector<Dropped>& dropped) const
{
    const AlignedChars text = alignInputChars(utf8);
    const auto hasId = [this](unsigned char byte) {
        return symbolId_[static_cast<std::size_t>(byteSymbols_[byte])] >= 0;
    };
    std::vector<int> ids;
    DropLog log;
    std::string bytes;
    for (const auto& [begin, end] : pieceRanges(text.cps)) {
        // A character whose bytes the vocabulary does not all hold is left out whole, before
        // the merges, so that its neighbours merge as if it had never been there.
        bytes.clear();
        for (std::size_t k = begin; k < end; ++k) {
            std::string ch;
            unicode::appendUtf8(ch, text.cps[k]);
            if (std::all_of(ch.begin(), ch.end(), [&](char c) { return hasId(c); }))
                bytes += ch;
            else
                log.add(text.from[k], Dropped::Fate::Omitted);
        }
        if (!bytes.empty()) bpe(bytes, ids);
    }
    dropped = log.report(utf8);
    return ids;
}

std::string Gpt2Tokenizer::decode(const std::vector<int>& ids) const
{
    std::string out;
    for (int id : ids) out += tokenBytes(id);
    return out;
}

const std::string& Gpt2Tokenizer::piece(int id) const
{
    static const std::string empty;
    if (id < 0 || static_cast<std::size_t>(id) >= pieces_.size()) return empty;
    return pieces_[static_cast<std::size_t>(id)];
}

std::string Gpt2Tokenizer::tokenBytes(int id) const
{
    std::string bytes;
    for (char32_t cp : unicode::decodeUtf8(piece(id))) {
        const int byte = unicodeToByte(cp);
        if (byte >= 0) {
            bytes.push_back(static_cast<char>(byte));
        } else {
            unicode::appendUtf8(bytes, cp);  // not byte-level (added token): keep as text
        }
    }
    return bytes;
}

std::string Gpt2Tokenizer::tokenText(int id) const
{
    return replaceBrokenUtf8(tokenBytes(id));
}

std::string Gpt2Tokenizer::tokenLabel(int id) const
{
    return displayLabelForBytes(tokenBytes(id));
}

int Gpt2Tokenizer::idOf(std::string_view p) const
{
    const auto it = vocab_.find(std::string(p));
    return it == vocab_.end() ? -1 : it->second;
}

std::string replaceBrokenUtf8(std::string_view bytes)
{
    return unicode::encodeUtf8(unicode::decodeUtf8(bytes));
}

std::string displayLabelForBytes(std::string_view bytes)
{
    const bool allSpaces = !bytes.empty() && bytes.find_first_not_of(' ') == std::string_view::npos;
    std::string out;
    std::size_t i = 0;
    while (i < bytes.size()) {
        const auto b = static_cast<std::uint8_t>(bytes[i]);
        if (b == ' ' && (i == 0 || allSpaces)) {
            out += "\u2423";
            ++i;
            continue;
        }
        if (b == '\n') {
            out += "\u21B5";
            ++i;
            continue;
        }
        if (b == '\t') {
            out += "\u21E5";
            ++i;
            continue;
        }
        const std::size_t len = unicode::validSequenceLength(bytes, i);
        if (len == 0 || b < 0x20 || b == 0x7F) {
            char hex[8];
            std::snprintf(hex, sizeof hex, "<%02X>", b);
            out += hex;
            ++i;
            continue;
        }
        out.append(bytes.substr(i, len));
        i += len;
    }
    return out;
}

}  // namespace attn::tok
