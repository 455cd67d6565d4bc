// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The dates translator's two measures.
//
// Exact match: the greedy translation's ids equal the labels (up to and with </s>).
//
// Alignment: for every label that belongs to a field (month, day, year), a cross-attention head
// is aligned on it when the row of the decoder position that predicts that label (teacher
// forced: the decoder has read the labels before it) puts its largest weight on a source token
// of the same field. A head's alignment is the fraction of field labels it is aligned on.

#include <cstdint>
#include <vector>

#include "core/train/dates_translator.h"
#include "core/train/marian_train.h"

namespace attn::dates {

// Counts, per layer and head, the field labels seen and those aligned.
class AlignmentCounter {
public:
    AlignmentCounter(long layers, long heads);
    // One pair's cross-attention weights of `layer`, head h's row t over source token s at
    // weights[(h * T + t) * stride + s] (T labels; stride >= the source's length).
    template <typename F>
    void add(long layer, const EncodedPair& pair, const F* weights, long T, long stride);
    // layers x heads fractions (0 where no label was seen).
    [[nodiscard]] std::vector<std::vector<double>> scores() const;

private:
    long layers_ = 0, heads_ = 0;
    std::vector<long> seen_, aligned_;
};

struct Alignment {
    std::vector<std::vector<double>> heads;  // layers x heads
    double best = 0.0;
    long bestLayer = 0, bestHead = 0;  // from 0
};
Alignment summarise(std::vector<std::vector<double>> scores);

// The trainer's alignment over `pairs`, teacher forced, in one forward pass (the trainer's
// last activations are replaced).
Alignment trainerAlignment(marian::Trainer& trainer, const std::vector<EncodedPair>& pairs,
                           int pad);

// Greedy translations by the trainer, `chunk` pairs per pass, at most `maxLength` ids each
// (ending in </s> unless cut).
std::vector<std::vector<int>> trainerGreedy(marian::Trainer& trainer,
                                            const std::vector<EncodedPair>& pairs, int pad, int eos,
                                            long maxLength, long chunk = 256);

// The fraction of `pairs` whose translation equals its labels.
double exactMatch(const std::vector<EncodedPair>& pairs,
                  const std::vector<std::vector<int>>& translations);

// The measure's fixed examples: `count` held-out dates (shuffled by `seed`), each in `form`; or
// (alignment) cycling through the three forms.
std::vector<EncodedPair> heldOutEncoded(const PairEncoder& encoder, std::uint64_t seed, long count,
                                        DateForm form);
std::vector<EncodedPair> heldOutMixed(const PairEncoder& encoder, std::uint64_t seed, long count);

}  // namespace attn::dates
