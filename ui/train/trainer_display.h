// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The Trainer dock's live display: the loss curve (with its log-scale box), the target pattern
// and the live P as heatmaps, and the selected row as bars (P against the target). It only
// draws what the panel hands it (snapshots computed on the worker).

#include <QWidget>

#include "core/attention_input.h"

class QCheckBox;
class QHBoxLayout;
class QLabel;

namespace attnlab {

class HeatmapView;
class LossPlot;

class RowComparePlot;

class TrainerDisplay : public QWidget {
    Q_OBJECT
public:
    explicit TrainerDisplay(QWidget* parent = nullptr);

    void setTokens(const QStringList& rows, const QStringList& columns);
    void setTarget(const attn::Matrix& target, const QString& title);
    void setLive(const attn::Matrix& weights, int step);
    void clearLive();
    void setRow(int row);
    [[nodiscard]] int row() const { return row_; }

    // The loss plot and the live map are public for views that show them elsewhere too.
    [[nodiscard]] LossPlot* lossPlot() const { return loss_; }
    [[nodiscard]] HeatmapView* targetView() const { return target_; }
    [[nodiscard]] HeatmapView* liveView() const { return live_; }
    [[nodiscard]] QCheckBox* logScaleBox() const { return log_; }
    // Puts `w` in the row under the loss plot, after the log-scale box (the panel's speed).
    void addUnderLossPlot(QWidget* w);
    // A line above the maps (which sequence they show); hidden while empty.
    [[nodiscard]] QLabel* noteLabel() const { return note_; }
    [[nodiscard]] RowComparePlot* rowPlot() const { return rowPlot_; }
    [[nodiscard]] const attn::Matrix& targetMatrix() const { return targetMatrix_; }
    [[nodiscard]] const attn::Matrix& liveMatrix() const { return liveMatrix_; }

Q_SIGNALS:
    // A cell of the target map was clicked (painting your own pattern).
    void targetClicked(int row, int column, Qt::KeyboardModifiers modifiers);

private:
    void updateRow();

    LossPlot* loss_ = nullptr;
    QCheckBox* log_ = nullptr;
    QLabel* note_ = nullptr;
    QHBoxLayout* underLoss_ = nullptr;
    HeatmapView* target_ = nullptr;
    HeatmapView* live_ = nullptr;
    RowComparePlot* rowPlot_ = nullptr;
    QStringList rows_, columns_;
    attn::Matrix targetMatrix_, liveMatrix_;
    QString liveTitle_;
    int row_ = -1;
};

}  // namespace attnlab
