// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The alignment measure (dates_measure.h) of a translator folder on disk, as `attnlab align`
// reports it: the model opened by core/model's Marian loader, its own tokenizer files, `count`
// held-out dates (forms cycling), every cross-attention head teacher forced, and the exact
// match of the model's greedy translations of the same dates.

#include <string>
#include <vector>

#include "core/model/head_edit.h"
#include "core/status.h"
#include "core/train/dates_measure.h"

namespace attn::dates {

// Refuses absurd counts before any work: 1..kMaxAlignCount.
inline constexpr long kMaxAlignCount = 7300;  // the held-out dates of the range

struct FolderAlignment {
    Alignment alignment;
    double accuracy = 0.0;
    long count = 0;
};

// UnsupportedModel (naming training.json's "task") when the folder is not a dates translator:
// the measure needs the task's field spans. The loader's and tokenizers' refusals as they are.
// `edits` (seq2seq_edit.h: ablations and vector scalings, positions in each date's own texts)
// apply to every forward pass, both the teacher-forced maps and the greedy translations: how
// much of the translation a head carries. An edit outside a date's texts is refused by name.
Status alignFolder(const std::string& folder, long count, FolderAlignment& out,
                   const std::vector<model::HeadEdit>& edits = {});

}  // namespace attn::dates
