// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The head detectors (core/head_scores.h) on a checkpoint: `count` sequences of m tokens drawn
// at random from `candidates` followed by the same m tokens, each run through the model, every
// head's scores averaged over the sequences.

#include <cstdint>
#include <vector>

#include "core/head_scores.h"
#include "core/model/forward.h"
#include "core/model/model.h"

namespace attn::model {

// The shortest m the scores mean something at: with m = 2 the induction offset (i - m + 1) is
// the previous token, with m = 1 the token itself.
inline constexpr long kMinDetectHalf = 3;

struct DetectSpec {
    long m = 32;
    long count = 16;
    std::uint64_t seed = 1;
    // The ids to draw from (a tokenizer's whole-text tokens); empty: every id of the model.
    std::vector<int> candidates;
};

// Sequence `index` (from 0) of the spec: 2m ids. The same spec gives the same ids everywhere.
std::vector<int> repeatedSequence(const DetectSpec& spec, long vocab, long index);

// The scores averaged over the given sequences, each m ids followed by the same m ids.
attn::Status scoreSequences(const Model& model, long m,
                            const std::vector<std::vector<int>>& sequences, HeadScoreTable& out,
                            const ProgressCallback& progress = {});

// EmptyInput (m < 1 or count < 1), TooLong (2m beyond the model's positions), or a forward
// failure; `progress` (sequences done, total) may cancel.
attn::Status detectHeads(const Model& model, const DetectSpec& spec, HeadScoreTable& out,
                         const ProgressCallback& progress = {});

}  // namespace attn::model
