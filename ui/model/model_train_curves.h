// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The model trainer's plots over steps, each marking the moment the run is known for (GPT-2's
// phase change, the translator's alignment forming) with a vertical line:
// - the loss of every step (left axis) and an accuracy at each measure (right axis, 0-1): GPT-2's
//   copy accuracy, the translator's exact match;
// - every head's induction score (solid) and previous-token score (dashed), a colour per head
//   (the translator's alignment plot is in translator_train_curves.h).
// Each takes the run's data as it grows and draws only what is new.

#include <utility>
#include <vector>

#include <qcustomplot.h>

#include "core/train/gpt2_run.h"

namespace attnlab {

// The colour of head `index` (layer * heads + head) in the plots and under the live grid's
// maps: matplotlib's tab10, repeated beyond ten heads.
QColor trainHeadColor(int index);

class PhaseMarkedPlot : public QCustomPlot {
    Q_OBJECT
public:
    // What the mark's words say.
    enum class Mark { PhaseChange, AlignmentForms };

    explicit PhaseMarkedPlot(QWidget* parent = nullptr);
    void setMark(Mark mark);
    // The phase change's step, or -1 to hide the mark.
    void setPhaseStep(long step);
    [[nodiscard]] long phaseStep() const { return phase_; }
    [[nodiscard]] QCPItemText* phaseLabel() const { return label_; }

protected:
    void setTitle(const QString& title);
    void retranslateMark();
    void changeEvent(QEvent* event) override;

private:
    // Above the plotting area, centred on the line's top end where the area allows.
    void placeLabel();
    [[nodiscard]] double labelHeight() const;

    QCPItemStraightLine* line_ = nullptr;
    QCPItemText* label_ = nullptr;
    long phase_ = -1;
    Mark mark_ = Mark::PhaseChange;
};

class TrainingCurvePlot : public PhaseMarkedPlot {
    Q_OBJECT
public:
    // Which accuracy the right axis shows, if any.
    enum class Accuracy { None, Copy, ExactMatch };

    explicit TrainingCurvePlot(QWidget* parent = nullptr);
    // `steps`: the run's length (the x range).
    void reset(long steps, Accuracy accuracy);
    // The whole run so far: the loss of every step and the accuracy at each measure (step,
    // value); only what is new is added.
    void update(const std::vector<double>& losses,
                const std::vector<std::pair<long, double>>& accuracy);
    [[nodiscard]] QCPGraph* lossGraph() const { return loss_; }
    [[nodiscard]] QCPGraph* accuracyGraph() const { return accuracy_; }

protected:
    void changeEvent(QEvent* event) override;

private:
    void retranslate();
    QCPGraph* loss_ = nullptr;
    QCPGraph* accuracy_ = nullptr;
    Accuracy kind_ = Accuracy::Copy;
    std::size_t losses_ = 0, measures_ = 0;
    double lo_ = 1e300, hi_ = -1e300;
};

class HeadScoreCurvePlot : public PhaseMarkedPlot {
    Q_OBJECT
public:
    explicit HeadScoreCurvePlot(QWidget* parent = nullptr);
    void reset(long steps, int layers, int heads);
    void update(const std::vector<attn::gpt2::Measure>& measures);
    // The induction (or previous-token) curve of a head.
    [[nodiscard]] QCPGraph* graph(int layer, int head, bool induction) const;

protected:
    void changeEvent(QEvent* event) override;

private:
    void retranslate();
    int layers_ = 0, heads_ = 0;
    std::vector<QCPGraph*> graphs_;  // per head: induction, previous-token
    std::size_t measures_ = 0;
};

}  // namespace attnlab
