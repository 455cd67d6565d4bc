// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Lesson 6's small plot: the variance of q·k over random unit-variance vectors against d_k
// (1 to 512, log axes), without scaling (grows like d_k) and with 1/√d_k (stays near 1),
// the mean softmax row entropy both ways, and the session's d_k marked. The numbers come
// from attn::scalingStudy, measured on a worker thread when the plot is first shown
// (about half a second for the ten d_k) and for each new d_k the session uses.

#include <vector>

#include <qcustomplot.h>

#include "core/scaling_study.h"
#include "ui/document/async_job.h"

namespace attnlab {

class Document;

class ScalingPlot : public QCustomPlot {
    Q_OBJECT
public:
    explicit ScalingPlot(Document* doc, QWidget* parent = nullptr);
    ~ScalingPlot() override;

    // Starts measuring what is missing (the session's d_k) and redraws what is known.
    void refresh();
    // True until the measured points are merged, not merely until the worker returns.
    [[nodiscard]] bool measuring() const { return job_.running(); }
    [[nodiscard]] const std::vector<attn::ScalingStudyPoint>& points() const { return points_; }
    [[nodiscard]] long markedDk() const { return markedDk_; }
    [[nodiscard]] QCPGraph* varianceUnscaledGraph() const { return graphs_[0]; }
    [[nodiscard]] QCPGraph* varianceScaledGraph() const { return graphs_[1]; }

    static constexpr long kKeysPerRow = 8;

protected:
    void showEvent(QShowEvent* event) override;
    void changeEvent(QEvent* event) override;

private:
    void retitle();
    void redraw();
    void merge(std::vector<attn::ScalingStudyPoint> measured);
    const attn::ScalingStudyPoint* pointAt(long dK) const;

    Document* doc_;
    std::vector<attn::ScalingStudyPoint> points_;
    QCPGraph* graphs_[5] = {};
    QCPItemStraightLine* marker_ = nullptr;
    QCPItemText* markerLabel_ = nullptr;
    long markedDk_ = 0;
    AsyncJob<std::vector<attn::ScalingStudyPoint>> job_{this};
    bool pending_ = false;  // the session's d_k changed while a measurement ran
};

}  // namespace attnlab
