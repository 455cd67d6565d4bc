// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/tokenize/unicode.h"

#include <gtest/gtest.h>

namespace attn::tok::unicode {
namespace {

TEST(TokenizerUnicode, DecodesUtf8AndReplacesMaximalIllFormedParts)
{
    bool invalid = true;
    EXPECT_EQ(decodeUtf8("a\xC3\xA9\xE8\xA1\x97\xF0\x9F\x98\x80", &invalid),
              U"a\u00e9\u8857\U0001F600");
    EXPECT_FALSE(invalid);
    // Truncated 3-byte sequence (one U+FFFD), surrogate ED A0 80 (three), overlong C0 AF (two),
    // F4 90 (beyond U+10FFFF: two), then a valid 'x'.
    EXPECT_EQ(decodeUtf8("\xE8\xA1x\xED\xA0\x80\xC0\xAF\xF4\x90x", &invalid),
              U"\uFFFDx\uFFFD\uFFFD\uFFFD\uFFFD\uFFFD\uFFFD\uFFFDx");
    EXPECT_TRUE(invalid);
    EXPECT_EQ(encodeUtf8(U"a\u00e9\u8857\U0001F600"), "a\xC3\xA9\xE8\xA1\x97\xF0\x9F\x98\x80");
}

TEST(TokenizerUnicode, ClassifiesLettersNumbersSpacesAndPunctuation)
{
    EXPECT_TRUE(isLetter(U'a'));
    EXPECT_TRUE(isLetter(U'\u8857'));  // 街
    EXPECT_FALSE(isLetter(U'1'));
    EXPECT_TRUE(isNumber(U'\u00BD'));  // ½
    EXPECT_TRUE(isNumber(U'\u0663'));  // Arabic-Indic 3
    EXPECT_TRUE(isWhiteSpace(U'\u3000'));
    EXPECT_TRUE(isWhiteSpace(U'\u0085'));
    EXPECT_FALSE(isWhiteSpace(U'\u200B'));
    EXPECT_TRUE(isPunctuation(U'\uFF0C'));  // fullwidth comma
    EXPECT_FALSE(isPunctuation(U'$'));      // Sc, only BERT's ASCII rule makes it punctuation
    EXPECT_TRUE(isOther(U'\u200B'));        // Cf
    EXPECT_TRUE(isOther(U'\U000E0080'));    // unassigned
    EXPECT_TRUE(isNonspacingMark(U'\u0301'));
    EXPECT_EQ(combiningClass(U'\u0301'), 230);
    EXPECT_EQ(combiningClass(U'\u0323'), 220);
}

TEST(TokenizerUnicode, NormalisesLikePython)
{
    EXPECT_EQ(nfd(U"\u00C5\u212B"), U"A\u030AA\u030A");
    EXPECT_EQ(nfc(U"A\u030A\u212B"), U"\u00C5\u00C5");
    EXPECT_EQ(nfd(U"a\u0301\u0323"), U"a\u0323\u0301");  // canonical order
    EXPECT_EQ(nfc(U"a\u0301\u0323"), U"\u1EA1\u0301");   // ạ + acute
    EXPECT_EQ(nfd(U"\uD55C"), U"\u1112\u1161\u11AB");    // 한
    EXPECT_EQ(nfc(U"\u1112\u1161\u11AB"), U"\uD55C");
    EXPECT_EQ(toLowerPython(U"\u0130"), U"i\u0307");  // İ
    EXPECT_EQ(toLowerPython(U"\u039F\u0394\u039F\u03A3 \u03A3"),
              U"\u03BF\u03B4\u03BF\u03C2 \u03C3");
}

}  // namespace
}  // namespace attn::tok::unicode
