// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Lesson 13, the cost of n²: an n control and a Measure button. Measuring runs the core on
// random inputs of length 128, 256, ... up to n on a worker thread (cancellable; each point
// appears as it is measured) and plots time and memory against n on log–log axes.
// Up to the largest n whose every stage fits the memory budget (attn::Limits) in double, every
// stage is kept; beyond it only the weights are kept, in float
// (core/long_attention.h: n = 32,768 within 6 GiB). Sizes beyond both are refused.

#include <memory>
#include <optional>
#include <vector>

#include <QWidget>

#include "ui/document/async_job.h"
#include "ui/lessons/cost_study.h"

class QLabel;
class QPushButton;
class QSpinBox;

namespace attnlab {

class CostPlot;
class Document;

class CostPanel : public QWidget {
    Q_OBJECT
public:
    explicit CostPanel(Document* doc, QWidget* parent = nullptr);
    ~CostPanel() override;

    void setMaxN(long n);
    [[nodiscard]] long maxN() const;
    // Starts a measurement up to maxN(). False (and a message naming the limit) when maxN()
    // is beyond the memory budget, or while a measurement runs; nothing is computed then.
    bool measure();
    // Stops after the point being measured (the core cannot be interrupted mid-point).
    void cancel();
    [[nodiscard]] bool running() const { return running_; }

    [[nodiscard]] const std::vector<CostPoint>& points() const { return points_; }
    [[nodiscard]] CostPlot* plot() const { return plot_; }
    [[nodiscard]] QString message() const;
    [[nodiscard]] int measurementsStarted() const { return started_; }
    [[nodiscard]] const attn::Limits& limits() const { return limits_; }
    // Another budget (the default is attn::Limits{}, 6 GiB); not while measuring.
    void setLimits(const attn::Limits& limits);

protected:
    void changeEvent(QEvent* event) override;

private:
    void retranslate();
    void updateShape();
    // One point at a time: the next is measured once the window has drawn the last, so that
    // painting and measuring do not share the two cores (a replot during n = 256 made it take
    // 5 ms, more than n = 512 took once the plot waited).
    void measureNext();
    void addPoint(const CostPoint& p);
    void finished();
    [[nodiscard]] QString describePoint(const CostPoint& p) const;

    Document* doc_;
    attn::Limits limits_;
    CostShape shape_;
    QLabel* intro_;
    QLabel* nLabel_;
    QSpinBox* n_;
    QPushButton* measure_;
    QPushButton* cancel_;
    QLabel* status_;
    QLabel* facts_;
    CostPlot* plot_;
    std::vector<long> sizes_;  // the n to measure, and the next one's index
    std::size_t next_ = 0;
    bool stopping_ = false;  // cancel(): no point after the one being measured
    std::vector<CostPoint> points_;
    bool running_ = false;
    int started_ = 0;
    AsyncJob<std::optional<CostPoint>> job_{this};  // last: dropped before anything above goes
};

}  // namespace attnlab
