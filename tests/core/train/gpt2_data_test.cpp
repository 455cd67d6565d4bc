// SPDX-License-Identifier: GPL-3.0-or-later
// The whole-model trainer's data: induction sequences, the copy-accuracy probe, and the
// character vocabulary read back by the GPT-2 tokenizer as an ordinary byte-level BPE.
#include "core/train/gpt2_data.h"

#include <algorithm>
#include <gtest/gtest.h>

#include "core/tokenize/gpt2_tokenizer.h"

namespace attn::gpt2::test {
namespace {

// How many of the B sequences hold a stretch of k letters (8 <= k <= 24) followed by a copy of
// itself; `distinct`: only stretches of k different letters count.
long sequencesWithARepeat(const std::vector<int>& tokens, long B, long T, bool distinct)
{
    long count = 0;
    for (long b = 0; b < B; ++b) {
        const int* x = tokens.data() + b * T;
        bool found = false;
        for (long k = 24; k >= 8 && !found; --k) {
            for (long s = 0; s + 2 * k <= T && !found; ++s) {
                if (!std::equal(x + s, x + s + k, x + s + k)) continue;
                std::vector<int> segment(x + s, x + s + k);
                std::sort(segment.begin(), segment.end());
                found = !distinct ||
                        std::adjacent_find(segment.begin(), segment.end()) == segment.end();
            }
        }
        if (found) ++count;
    }
    return count;
}

TEST(InductionData, TargetsAreTheNextLetterAndEachSequenceRepeatsASegment)
{
    const long B = 200, T = 64;
    std::vector<int> tokens, targets;
    for (const double share : {1.0, 0.0}) {
        InductionMix mix;
        mix.distinctShare = share;
        Rng rng(4);
        inductionBatch(rng, B, T, mix, tokens, targets);
        ASSERT_EQ(tokens.size(), static_cast<std::size_t>(B * T));
        for (long b = 0; b < B; ++b) {
            for (long t = 0; t < T; ++t) {
                ASSERT_GE(tokens[b * T + t], 0);
                ASSERT_LT(tokens[b * T + t], kLetters);
                if (t + 1 < T) {
                    ASSERT_EQ(targets[b * T + t], tokens[b * T + t + 1]);
                }
            }
        }
        // The last copy may run past position T - 1 (a sequence has T + 1 letters).
        EXPECT_GT(sequencesWithARepeat(tokens, B, T, false), B * 9 / 10) << share;
        const long distinct = sequencesWithARepeat(tokens, B, T, true);
        if (share == 1.0) {
            EXPECT_GT(distinct, B * 9 / 10);
        } else {
            // 8 or more random letters are all different with p < 0.3.
            EXPECT_LT(distinct, B * 4 / 10);
        }
        Rng again(4);
        std::vector<int> tokens2, targets2;
        inductionBatch(again, B, T, mix, tokens2, targets2);
        EXPECT_EQ(tokens, tokens2);
        EXPECT_EQ(targets, targets2);
    }
}

TEST(CopyProbe, ScoresEachLetterOfTheRepeatAfterItsFirst)
{
    const long m = 32;
    const CopyProbe p = makeCopyProbe(m, 200, 7);
    ASSERT_EQ(p.T, 64);
    long minScored = 1000, maxScored = 0;
    for (long b = 0; b < p.count; ++b) {
        long scored = 0, first = -1;
        for (long t = 0; t < p.T; ++t) {
            if (!p.scored[b * p.T + t]) continue;
            if (first < 0) first = t;
            ++scored;
        }
        // k - 1 scored positions, k in [8, 24], consecutive.
        ASSERT_GE(scored, 7);
        ASSERT_LE(scored, 23);
        minScored = std::min(minScored, scored);
        maxScored = std::max(maxScored, scored);
        const long k = scored + 1;
        for (long t = first; t < first + scored; ++t) {
            ASSERT_TRUE(p.scored[b * p.T + t]);
            // The target (letter t + 1) is a copy of the letter k places earlier.
            EXPECT_EQ(p.targets[b * p.T + t], p.tokens[b * p.T + t + 1 - k]);
        }
    }
    EXPECT_EQ(minScored, 7);
    EXPECT_EQ(maxScored, 23);
}

// Below m = 8 a segment of 8 letters and its repeat do not fit in 2m: the probe wrote past its
// sequence (and past its buffer at the last one). Each segment now fits its own sequence.
TEST(CopyProbe, ShortSequencesKeepTheirRepeatInsideThemselves)
{
    for (long m = 1; m <= 9; ++m) {
        const CopyProbe p = makeCopyProbe(m, 5, 3);
        ASSERT_EQ(p.T, 2 * m);
        ASSERT_EQ(p.scored.size(), static_cast<std::size_t>(5 * 2 * m));
        for (long b = 0; b < p.count; ++b) {
            long scored = 0, first = -1;
            for (long t = 0; t < p.T; ++t) {
                if (!p.scored[b * p.T + t]) continue;
                if (first < 0) first = t;
                ++scored;
            }
            if (scored == 0) continue;  // a segment of one letter scores nothing
            const long k = scored + 1;
            ASSERT_LE(k, m) << "m = " << m;
            for (long t = first; t < first + scored; ++t) {
                ASSERT_GE(t + 1 - k, 0) << "m = " << m;
                EXPECT_EQ(p.targets[b * p.T + t], p.tokens[b * p.T + t + 1 - k]) << "m = " << m;
            }
        }
    }
}

TEST(CopyProbe, PerfectLogitsScoreOneAndUniformLogitsScoreNone)
{
    const CopyProbe p = makeCopyProbe(8, 3, 2);
    std::vector<double> logits(static_cast<std::size_t>(p.count * p.T * kLetters), 0.0);
    long hits = 0, scored = 0;
    countCopyHits(p, 0, p.count, logits, kLetters, hits, scored);
    const long uniformHits = hits;
    for (long r = 0; r < p.count * p.T; ++r) logits[r * kLetters + p.targets[r]] = 1.0;
    hits = 0;
    scored = 0;
    countCopyHits(p, 0, p.count, logits, kLetters, hits, scored);
    EXPECT_EQ(hits, scored);
    EXPECT_GT(scored, 0);
    EXPECT_LT(uniformHits, scored);  // argmax of a flat row is letter a
}

TEST(CharVocabulary, IsReadBackAsAByteLevelBpeThatKeepsEveryCharacterWhole)
{
    const std::string text = "床前明月光，疑是地上霜。\n举头望明月，低头思故乡。\nab c😀é";
    CharVocabulary v;
    ASSERT_TRUE(buildCharVocabulary(text, "poems", v).ok());
    // 明, 月, 头 and ， 。 \n twice: the most frequent first.
    EXPECT_GT(v.characters, 20);
    const std::vector<int> ids = encodeCharacters(v, text);
    for (int id : ids) {
        EXPECT_GE(id, 0);
        EXPECT_LT(id, v.characters);
    }
    auto loaded = tok::Gpt2Tokenizer::fromStrings(vocabJson(v), mergesText(v));
    ASSERT_TRUE(std::holds_alternative<tok::Gpt2Tokenizer>(loaded));
    const auto& tokenizer = std::get<tok::Gpt2Tokenizer>(loaded);
    EXPECT_EQ(tokenizer.encode(text), ids);
    EXPECT_EQ(tokenizer.decode(ids), text);
    EXPECT_EQ(tokenizer.vocabSize(), v.pieces.size());
    // A character the text lacks is left out, as Hugging Face's tokenizers does without an
    // unknown token.
    EXPECT_EQ(tokenizer.encode("明X月"), encodeCharacters(v, "明月"));
}

TEST(CharVocabulary, LettersAreIdsZeroToTwentyFive)
{
    CharVocabulary v;
    ASSERT_TRUE(buildCharVocabulary("zyxwvutsrqponmlkjihgfedcba", "letters", v).ok());
    ASSERT_EQ(v.characters, 26);
    EXPECT_EQ(v.pieces.size(), 26u);
    EXPECT_TRUE(v.merges.empty());
    EXPECT_EQ(encodeCharacters(v, "abz"), (std::vector<int>{0, 1, 25}));
}

TEST(CharVocabulary, BrokenOrEmptyTextIsRefusedWithWhere)
{
    CharVocabulary v;
    Status s = buildCharVocabulary(std::string("ab\xE5\xAE") + "c", "corpus.txt", v);
    EXPECT_EQ(s.code, StatusCode::TokenizerSyntax);
    EXPECT_EQ(s.value, 2);
    EXPECT_NE(describe(s).find("corpus.txt"), std::string::npos) << describe(s);
    EXPECT_EQ(buildCharVocabulary("", "corpus.txt", v).code, StatusCode::EmptyInput);
}

}  // namespace
}  // namespace attn::gpt2::test
