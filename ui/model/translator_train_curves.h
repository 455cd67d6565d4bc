// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The translator trainer's alignment plot: the best cross-attention head's alignment (thick,
// black) and every head's (thin, a colour per head, as under the live maps) at each measure,
// with the line at 0.5 that alignment forming is counted from, and the step it first passed
// marked. Its companion, the loss and exact match, is TrainingCurvePlot.

#include <vector>

#include "core/train/dates_run.h"
#include "ui/model/model_train_curves.h"

namespace attnlab {

class AlignmentCurvePlot : public PhaseMarkedPlot {
    Q_OBJECT
public:
    explicit AlignmentCurvePlot(QWidget* parent = nullptr);
    void reset(long steps, int layers, int heads);
    // The whole run's measures so far; only what is new is added.
    void update(const std::vector<attn::dates::Point>& measures);
    [[nodiscard]] QCPGraph* bestGraph() const { return best_; }
    // Head `head` of decoder layer `layer` (from 0).
    [[nodiscard]] QCPGraph* graph(int layer, int head) const;

protected:
    void changeEvent(QEvent* event) override;

private:
    void retranslate();
    int layers_ = 0, heads_ = 0;
    QCPGraph* best_ = nullptr;
    std::vector<QCPGraph*> graphs_;
    QCPItemStraightLine* threshold_ = nullptr;
    std::size_t measures_ = 0;
};

}  // namespace attnlab
