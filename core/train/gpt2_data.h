// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What a whole model trains on and how it is measured: the induction task (random lowercase
// letters with repeats), the copy-accuracy probe, and a character-level vocabulary for any
// UTF-8 corpus, written as an ordinary GPT-2 byte-level BPE tokenizer.
//
// Induction training sequences (T letters, ids 0..25 for a..z): random letters in which one
// segment of k letters, k uniform in [kMin, kMax], starting at a uniformly random place, is
// followed right away by r copies of itself, r uniform in [1, maxRepeats] (as many as fit).
// The segment's letters are distinct (`distinct`; a random draw of k of the 26): inside it the
// current letter points to one place only, so the gradient towards "find the earlier
// occurrence of this letter and copy what followed it" is clean from the first steps. The
// repeats start anywhere and have any length, so no fixed offset predicts them. Trained on
// these, two layers form an induction head that also copies repeats of ordinary, non-distinct
// letters (the measure below); one layer cannot.
//
// Copy accuracy (the fixed measure): sequences of 2m random letters (m = half the context); in
// each, a segment of k letters, k uniform in [8, 3m/4], starting at a uniformly random place,
// is repeated right after itself. Each letter of the repeat after its first is scored: the
// argmax of the logits one position earlier against the true letter.

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/random_init.h"
#include "core/status.h"

namespace attn::gpt2 {

constexpr int kLetters = 26;

struct InductionMix {
    long kMin = 8;
    long kMax = 24;
    long maxRepeats = 3;
    double distinctShare = 0.85;  // the share of sequences whose segment has distinct letters
};

// B sequences of T letters (row-major) and their next-letter targets. The target of a
// sequence's last position is a fresh random letter (nothing in the sequence predicts it).
void inductionBatch(Rng& rng, long B, long T, const InductionMix& mix, std::vector<int>& tokens,
                    std::vector<int>& targets);

// The copy-accuracy probe: `count` sequences of 2m letters with their targets; `scored` marks
// the positions whose prediction counts (b * 2m + t).
struct CopyProbe {
    long count = 0;
    long T = 0;  // 2m
    std::vector<int> tokens, targets;
    std::vector<unsigned char> scored;
};
CopyProbe makeCopyProbe(long m, long count, std::uint64_t seed);
// The share of scored positions whose logits (rows of V, one per position of the probe, or
// of `rows` sequences of it starting at `first`) argmax to the target; adds to the counts.
void countCopyHits(const CopyProbe& probe, long first, long rows, std::span<const double> logits,
                   long V, long& hits, long& scoredCount);

// A character-level vocabulary of a UTF-8 text: every distinct character is one token, ids
// 0..characters-1 by decreasing count (ties: by code point). As a GPT-2 tokenizer, the
// characters' byte-level forms are built by merges from their first byte (a 3-byte character
// abc: "a b" then "ab c"); the byte strings those merges need that are not characters of the
// text get the ids after the characters, and are never produced by encoding the text.
struct CharVocabulary {
    std::vector<std::string> pieces;  // id -> byte-level vocabulary string ("Ġ", "ä½ł")
    long characters = 0;              // ids below this are the text's characters
    std::vector<std::string> merges;  // "left right", in rank order
};
// FileOpen-free: `field` names the text in the status. TokenizerSyntax if the text is not
// valid UTF-8 (value: the byte offset), EmptyInput if it has no characters.
Status buildCharVocabulary(std::string_view utf8, const std::string& field, CharVocabulary& out);
// vocab.json and merges.txt (with the "#version: 0.2" line) of the vocabulary.
std::string vocabJson(const CharVocabulary& vocab);
std::string mergesText(const CharVocabulary& vocab);
// The ids of the text's characters (every character must be in the vocabulary: -1 if not).
std::vector<int> encodeCharacters(const CharVocabulary& vocab, std::string_view utf8);

// B windows of T + 1 consecutive ids, each starting uniformly in the corpus: tokens are the
// first T, targets the last T. The corpus must hold at least T + 1 ids.
void corpusBatch(Rng& rng, std::span<const int> ids, long B, long T, std::vector<int>& tokens,
                 std::vector<int>& targets);

}  // namespace attn::gpt2
