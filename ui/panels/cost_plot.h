// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The log–log plot of lesson 13: measured time (left axis) and memory (right axis) against n,
// an n² line through the last measured time, the estimate of every kept stage, the memory
// budget, and the text's numbers (n = 1,000 → 10⁶ scores; n = 100,000 → 10¹⁰). Points beyond
// the budget of every stage, computed keeping only the weights in float, have series of their
// own (triangles) beside the estimate of what that path holds.

#include <vector>

#include <qcustomplot.h>

#include "ui/lessons/cost_study.h"

namespace attnlab {

class CostPlot : public QCustomPlot {
    Q_OBJECT
public:
    explicit CostPlot(QWidget* parent = nullptr);

    // Redraws the curves that depend on the sizes and the budget (no measurement).
    void setShape(const CostShape& shape, const attn::Limits& limits);
    // Redraws the measured points (in order of n) and the n² line through the last one.
    void setPoints(const std::vector<CostPoint>& points);

    [[nodiscard]] QCPGraph* timeGraph() const { return time_; }
    [[nodiscard]] QCPGraph* weightsGraph() const { return weights_; }
    [[nodiscard]] QCPGraph* squareGraph() const { return square_; }
    [[nodiscard]] QCPGraph* estimateGraph() const { return estimate_; }
    [[nodiscard]] QCPGraph* weightsOnlyTimeGraph() const { return longTime_; }
    [[nodiscard]] QCPGraph* weightsOnlyWeightsGraph() const { return longWeights_; }
    [[nodiscard]] QCPGraph* weightsOnlyEstimateGraph() const { return longEstimate_; }

    static constexpr double kMinN = 100.0;
    static constexpr double kMaxN = 200000.0;

private:
    QCPGraph* addSeries(QCPAxis* valueAxis, const QColor& color, Qt::PenStyle style,
                        QCPScatterStyle::ScatterShape shape);
    void addMarker(double n, const QString& text, double y);
    void retitle();

    QCPGraph* time_ = nullptr;
    QCPGraph* square_ = nullptr;
    QCPGraph* weights_ = nullptr;
    QCPGraph* estimate_ = nullptr;
    QCPGraph* longTime_ = nullptr;
    QCPGraph* longWeights_ = nullptr;
    QCPGraph* longEstimate_ = nullptr;
    QCPItemStraightLine* budget_ = nullptr;
    QCPItemText* budgetLabel_ = nullptr;
};

}  // namespace attnlab
