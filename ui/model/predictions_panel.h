// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What the model predicts for the current text: GPT-2 the next token, BERT each [MASK]; the
// top 10 with their probabilities as bars; with head edits, before and after side by side. It only
// reads its RunSource (the model window's document or the workbench's head link).

#include <QRect>
#include <QWidget>

class QLabel;
class QTreeWidget;

namespace attnlab {

class ProbabilityDelegate;
class RunSource;

// Where a probability cell draws its bar and its digits: the digits keep the right-hand part
// they need (`textWidth` plus a margin), the bar grows in the rest, so it never covers a digit.
struct ProbabilityCellLayout {
    QRectF bar;  // as wide as the probability says, within the bar's part
    QRect text;  // the digits, right-aligned
};
ProbabilityCellLayout probabilityCellLayout(const QRect& cell, int textWidth, double probability);

class PredictionsPanel : public QWidget {
    Q_OBJECT
public:
    explicit PredictionsPanel(RunSource* source, QWidget* parent = nullptr);
    [[nodiscard]] QTreeWidget* tree() const { return tree_; }

private:
    void refresh();

    RunSource* document_;
    QLabel* note_;
    QTreeWidget* tree_;
    ProbabilityDelegate* delegate_;
};

}  // namespace attnlab
