#pragma once
// The nine stages of one head as heatmaps, built once for every place that shows them: the
// Pipeline tab, the walkthrough and exported figures. Each gets its values, its token or
// component labels, its axis titles, its colour scale and a title with its shape.

#include "core/attention.h"
#include "ui/document/session.h"
#include "ui/views/heatmap_view.h"

namespace attnlab {

// In the order of the computation (and of PipelinePanel::Stage).
enum class HeadStage { X, Q, K, V, Scores, Scaled, Mask, Weights, Output };
inline constexpr int kHeadStageCount = 9;

// Titles: Full says what the stage is ("Q = X·W_Q (4 × 3)"); Short fits a small card.
enum class StageTitle { Full, Short };

// Rows are keys (K, V) rather than queries.
[[nodiscard]] bool hasKeyRows(HeadStage stage);
// Columns are vector components (X, Q, K, V, output) rather than keys.
[[nodiscard]] bool hasComponentColumns(HeadStage stage);

// "self-attention", "causal self-attention" or "cross-attention", translated.
[[nodiscard]] QString modeTitle(attn::Mode mode);
// "(rows × cols)".
[[nodiscard]] QString shapeText(const attn::Matrix& m);

// One stage of head `hr` of `session`'s result.
[[nodiscard]] HeatmapContent stageContent(const Session& session, const attn::HeadResult& hr,
                                          HeadStage stage, StageTitle title = StageTitle::Full);

}  // namespace attnlab
