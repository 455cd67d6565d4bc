// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The live loss curve: one graph per run (x = step, y = the loss before that step, then the
// loss after the last one), a log-scale option and, when two runs are compared, a legend in a
// row below the axes (never over a curve).

#include <cmath>
#include <vector>

#include <qcustomplot.h>

namespace attnlab {

class LossPlot : public QCustomPlot {
    Q_OBJECT
public:
    explicit LossPlot(QWidget* parent = nullptr);

    // Curve `index` (0: the run, 1: the shared-projection run of a comparison), named `name`
    // in the legend; `final` (NaN: none) is the loss after the last step.
    void setCurve(int index, const QString& name, const std::vector<double>& losses, double final);
    // Shows `count` curves (1, or 2 when comparing); the legend only with two.
    void setCurveCount(int count);
    void clearCurves();
    void setLogScale(bool log);
    [[nodiscard]] bool logScale() const { return log_; }
    [[nodiscard]] QCPGraph* curve(int index) const { return graphs_[index]; }

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    void rescale();
    // The legend's items side by side when they fit the width, else one above the other.
    void fitLegend();

    // Per curve, what is drawn: the losses taken in so far (only the new ones are added, so a
    // long run costs the GUI thread nothing per snapshot), whether a final point follows them,
    // and their range (for the axes).
    struct Drawn {
        std::size_t losses = 0;
        bool final = false;
        double lo = INFINITY, hi = -INFINITY, loPositive = INFINITY;
    };
    QCPGraph* graphs_[2] = {nullptr, nullptr};
    Drawn drawn_[2];
    bool log_ = false;
};

}  // namespace attnlab
