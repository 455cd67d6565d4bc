// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Every stage of the current head, in the order the text computes them, each as a
// small heatmap with its shape in the title:
//   X, Q, K, V, S = Q Kᵀ, S scaled, mask, P = softmax, output = P V.
// Hovering a score shows the dot product split into its terms. The selection frames
// follow the document. It only reads the document's result.

#include <array>

#include <QWidget>

#include "ui/views/stage_content.h"

namespace attnlab {

class Document;
class HeatmapView;

class PipelinePanel : public QWidget {
    Q_OBJECT
public:
    // The nine stages of one head (stage_content.h), indexed as ints.
    static constexpr int StageCount = kHeadStageCount;

    explicit PipelinePanel(Document* document, QWidget* parent = nullptr);

    [[nodiscard]] int stageCount() const { return StageCount; }
    [[nodiscard]] HeatmapView* stageView(int stage) const;
    [[nodiscard]] HeatmapView* stageView(Stage stage) const
    {
        return stageView(static_cast<int>(stage));
    }
    [[nodiscard]] QString stageTitle(int stage) const;
    // The score S(row, col) of the current head written out: for dot-product scoring
    // each term q_row[c] · k_col[c] and their sum, then the scaling; for additive
    // scoring the formula and the value.
    [[nodiscard]] QString scoreBreakdown(int row, int col) const;

private:
    void rebuild();
    void updateSelection();
    void onHovered(int stage, int row, int col);
    void onClicked(int stage, int row, int col);

    Document* document_;
    std::array<HeatmapView*, StageCount> views_{};
    int shownHead_ = -1;
};

}  // namespace attnlab
