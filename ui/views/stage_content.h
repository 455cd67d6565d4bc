// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Every stage AttnLab draws, built in one place for every panel and figure that shows it: the
// Pipeline tab, the walkthrough, the heads grid, the difference map and exported figures. Each
// gets its values, its token or component labels, its axis titles, its colour scale and a
// title with its shape.

#include <vector>

#include "core/attention.h"
#include "ui/readers/session.h"
#include "ui/views/heatmap_view.h"

namespace attnlab {

// The nine stages of one head in the order of the computation, then the two that compare or
// combine heads.
enum class Stage { X, Q, K, V, Scores, Scaled, Mask, Weights, Output, Difference, Combined };
inline constexpr int kHeadStageCount = 9;  // X … Output

// Titles: Full says what the stage is ("Q = X·W_Q (4 × 3)"); Short fits a small card.
enum class StageTitle { Full, Short };

// Rows are keys (K, V) rather than queries.
[[nodiscard]] bool hasKeyRows(Stage stage);
// Columns are vector components (X, Q, K, V, output, combined) rather than keys.
[[nodiscard]] bool hasComponentColumns(Stage stage);

// "self-attention", "causal self-attention" or "cross-attention", translated.
[[nodiscard]] QString modeTitle(attn::Mode mode);
// "(rows × cols)".
[[nodiscard]] QString shapeText(const attn::Matrix& m);

// What stages are built from: a session and its result, and for the difference map the weights
// before, one matrix per head (empty or of another shape: nothing to compare with).
struct StageSource {
    const Session* session = nullptr;
    const attn::AttentionResult* result = nullptr;
    const std::vector<attn::Matrix>* before = nullptr;
};

// One stage of head `head` (Combined is every head's). False, with `error` saying why, when
// a difference has nothing to compare with.
bool buildStage(const StageSource& source, int head, Stage stage, StageTitle title,
                HeatmapContent& out, QString* error = nullptr);

// One of the nine stages of one head (X … Output) from that head's result alone.
[[nodiscard]] HeatmapContent stageContent(const Session& session, const attn::HeadResult& hr,
                                          Stage stage, StageTitle title = StageTitle::Full);

}  // namespace attnlab
