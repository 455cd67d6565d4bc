// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/tokenize/token_display.h"

#include <gtest/gtest.h>
#include <string>
#include <vector>

#include "core/tokenize/gpt2_tokenizer.h"
#include "core/tokenize/tokenizer_loader.h"
#include "tokenize/tokenizer_test_support.h"

namespace attn::tok {
namespace {

const std::string kMark(kContinuationMark);

std::vector<std::string> labelsOf(const std::vector<TokenDisplay>& d)
{
    std::vector<std::string> out;
    for (const TokenDisplay& t : d) out.push_back(t.label);
    return out;
}

std::vector<std::string> textsOf(const std::vector<TokenDisplay>& d)
{
    std::vector<std::string> out;
    for (const TokenDisplay& t : d) out.push_back(t.text);
    return out;
}

TEST(TokenDisplay, CharacterSplitOverTwoTokensShowsItOnTheFirstPiece)
{
    // "é" is C3 A9.
    const auto d = displayTokens({"\xC3", "\xA9"});
    ASSERT_EQ(d.size(), 2u);
    EXPECT_EQ(labelsOf(d), (std::vector<std::string>{"\xC3\xA9", kMark}));
    EXPECT_EQ(textsOf(d), (std::vector<std::string>{"\xC3\xA9 (1/2)", "\xC3\xA9 (2/2)"}));
    EXPECT_TRUE(d[0].split);
    EXPECT_TRUE(d[1].split);
    EXPECT_EQ(d[0].bytes, "C3");
    EXPECT_EQ(d[1].bytes, "A9");
}

TEST(TokenDisplay, CharacterSplitOverThreeTokensNumbersEachPiece)
{
    // 它 is E5 AE 83.
    const auto d = displayTokens({"\xE5", "\xAE", "\x83"});
    EXPECT_EQ(labelsOf(d), (std::vector<std::string>{"它", kMark, kMark}));
    EXPECT_EQ(textsOf(d), (std::vector<std::string>{"它 (1/3)", "它 (2/3)", "它 (3/3)"}));
    for (const TokenDisplay& t : d) EXPECT_EQ(t.label.find('<'), std::string::npos) << t.label;
}

TEST(TokenDisplay, TokenHoldingTheEndOfOneCharacterAndTheWholeNextOne)
{
    // 它太: [E5 AE] [83 E5 A4 AA].
    const auto d = displayTokens({"\xE5\xAE", "\x83\xE5\xA4\xAA"});
    EXPECT_EQ(labelsOf(d), (std::vector<std::string>{"它", kMark + "太"}));
    EXPECT_EQ(textsOf(d), (std::vector<std::string>{"它 (1/2)", "它 (2/2) 太"}));
    EXPECT_EQ(d[1].bytes, "83 E5 A4 AA");
}

TEST(TokenDisplay, TokenEndingOneCharacterAndStartingTheNext)
{
    // 那只: [E9 82] [A3 E5] [8F AA].
    const auto d = displayTokens({"\xE9\x82", "\xA3\xE5", "\x8F\xAA"});
    EXPECT_EQ(labelsOf(d), (std::vector<std::string>{"那", kMark + "只", kMark}));
    EXPECT_EQ(textsOf(d), (std::vector<std::string>{"那 (1/2)", "那 (2/2) 只 (1/2)", "只 (2/2)"}));
}

TEST(TokenDisplay, LeadingSpaceBeforeAPieceKeepsItsMark)
{
    const auto d = displayTokens({" \xE5\xAE", "\x83"});
    EXPECT_EQ(labelsOf(d), (std::vector<std::string>{"\u2423它", kMark}));
    EXPECT_EQ(textsOf(d), (std::vector<std::string>{"\u2423它 (1/2)", "它 (2/2)"}));
}

TEST(TokenDisplay, InvalidUtf8StaysAsHexCodes)
{
    // A byte that begins nothing, a stray continuation byte, and a lead byte whose next token
    // does not continue it.
    const auto d = displayTokens({"\xFF", "a\x80", "\xE5", "A"});
    EXPECT_EQ(labelsOf(d), (std::vector<std::string>{"<FF>", "a<80>", "<E5>", "A"}));
    EXPECT_EQ(textsOf(d), (std::vector<std::string>{"<FF>", "a<80>", "<E5>", "A"}));
    for (const TokenDisplay& t : d) EXPECT_FALSE(t.split);
    EXPECT_FALSE(d[2].cutOff);  // "A" follows: not a cut-off character but a broken one
}

TEST(TokenDisplay, CharacterTheTokensEndBeforeCompletingIsMarkedCutOff)
{
    // A predicted next token holding the first two bytes of a Chinese character.
    const auto d = displayTokens({"\xE5\xAE"});
    ASSERT_EQ(d.size(), 1u);
    EXPECT_EQ(d[0].label, "<E5><AE>");
    EXPECT_TRUE(d[0].cutOff);
    EXPECT_FALSE(d[0].split);
}

TEST(TokenDisplay, OrdinaryTokensKeepTheirLabels)
{
    const std::vector<std::string> bytes{" the", "\n", "  ", "\x01", "cat"};
    const auto d = displayTokens(bytes);
    for (std::size_t i = 0; i < bytes.size(); ++i) {
        EXPECT_EQ(d[i].label, displayLabelForBytes(bytes[i])) << i;
        EXPECT_EQ(d[i].text, d[i].label) << i;
        EXPECT_FALSE(d[i].split);
        EXPECT_FALSE(d[i].cutOff);
    }
    EXPECT_EQ(d[0].bytes, "20 74 68 65");
}

TEST(TokenDisplay, RealGpt2ChineseSentenceShowsEveryCharacterAndNoByteCodes)
{
    auto loaded = loadTokenizer(testing::tokenizerFixtureDir() / "gpt2", "gpt2");
    ASSERT_TRUE(std::holds_alternative<Tokenizer>(loaded));
    const Tokenizer& tokenizer = std::get<Tokenizer>(loaded);
    const std::string text = "那只动物没过街，因为它太累了";
    const std::vector<int> ids = tokenizer.encode(text);
    const auto d = tokenizer.display(ids);
    ASSERT_EQ(d.size(), ids.size());
    ASSERT_GT(ids.size(), 14u);  // byte-level BPE splits characters: more tokens than characters
    std::string shown;
    int split = 0;
    for (const TokenDisplay& t : d) {
        EXPECT_EQ(t.label.find('<'), std::string::npos) << t.label;
        split += t.split ? 1 : 0;
        // The labels with the continuation marks taken out spell the text.
        std::string l = t.label;
        for (std::size_t at; (at = l.find(kMark)) != std::string::npos;) l.erase(at, kMark.size());
        shown += l;
    }
    EXPECT_EQ(shown, text);
    EXPECT_GT(split, 0);
}

}  // namespace
}  // namespace attn::tok
