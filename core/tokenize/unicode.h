// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Unicode facts the tokenizers need, from tables generated out of Python's unicodedata
// (scripts/make_unicode_tables.py), so that C++ and the Python reference agree exactly.

#include <string>
#include <string_view>

namespace attn::tok::unicode {

// Unicode version of the tables (that of the generating Python), e.g. "14.0.0".
const char* tablesVersion();

// UTF-8 decoding that never fails: each maximal ill-formed subsequence (WHATWG / Unicode
// "substitution of maximal subparts") becomes one U+FFFD. `invalid`, if given, is set when
// anything was replaced.
std::u32string decodeUtf8(std::string_view bytes, bool* invalid = nullptr);
// The character at bytes[i] (i < size) as decodeUtf8 reads it: sets `cp` (U+FFFD for an
// ill-formed sequence, and then `illFormed` if given) and returns how many bytes it takes (the
// maximal ill-formed part).
std::size_t decodeAt(std::string_view bytes, std::size_t i, char32_t& cp,
                     bool* illFormed = nullptr);
void appendUtf8(std::string& out, char32_t cp);
std::string encodeUtf8(std::u32string_view cps);
// Length of the well-formed UTF-8 sequence starting at bytes[i], or 0 if ill-formed there.
std::size_t validSequenceLength(std::string_view bytes, std::size_t i);
// True when bytes[i..] is the beginning of a well-formed sequence that the bytes end before
// completing (e.g. E5 AE: two of a Chinese character's three bytes).
bool isCutOffSequence(std::string_view bytes, std::size_t i);

bool isLetter(char32_t cp);          // general category L*
bool isNumber(char32_t cp);          // N*
bool isPunctuation(char32_t cp);     // P*
bool isOther(char32_t cp);           // C* (Cc, Cf, Cs, Co, Cn: includes unassigned)
bool isSpaceSeparator(char32_t cp);  // Zs
bool isNonspacingMark(char32_t cp);  // Mn
bool isWhiteSpace(char32_t cp);      // White_Space property (Python regex's \s)
bool isPythonSpace(char32_t cp);     // Python's str.isspace() (what str.split() splits on)
int combiningClass(char32_t cp);     // canonical combining class

std::u32string nfd(std::u32string_view text);
std::u32string nfc(std::u32string_view text);
// Python's str.lower(): full lower-case mapping, with the Greek final-sigma rule.
std::u32string toLowerPython(std::u32string_view text);

}  // namespace attn::tok::unicode
