// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// "Show working" for the selected query row of the current head, the hand exercise
// written out: each dot product q·k_j (with its terms when d_k is small), the division by
// the divisor, each exp(s_j - m), their sum and each weight. It only presents numbers the
// core computes: the result, attn::explainRow (the row's true max and exps) and, for
// additive scoring, attn::additiveHidden.

#include <QWidget>

#include "core/attention.h"

class QLabel;
class QTableWidget;

namespace attn {
struct RowWorking;
}

namespace attnlab {

class Document;

class WorkingPanel : public QWidget {
    Q_OBJECT
public:
    explicit WorkingPanel(Document* document, QWidget* parent = nullptr);

    // Columns of the table; one row per key, then the sum row.
    enum Column { KeyColumn, DotColumn, ScoreColumn, ScaledColumn, ExpColumn, WeightColumn };
    [[nodiscard]] QTableWidget* table() const { return table_; }
    [[nodiscard]] QString headerText() const;
    // Keys listed at most; longer rows say how many were left out.
    static constexpr int kMaxKeys = 64;

protected:
    void changeEvent(QEvent* event) override;

private:
    void rebuild();
    void setHeaderLabels(bool dot);
    [[nodiscard]] QString divisorText(const attn::HeadResult& hr) const;
    void showRowHeader(const attn::HeadResult& hr, int row, const QString& divisor,
                       const attn::RowWorking& working);
    void setCell(int r, int c, const QString& text);
    void fillRows(const attn::HeadResult& hr, int row, const attn::RowWorking& working);
    [[nodiscard]] QString dotWorking(const attn::HeadResult& hr, long i, long j, bool terms) const;
    [[nodiscard]] QString additiveWorking(long i, long j, bool terms) const;

    Document* doc_;
    QLabel* header_;
    QTableWidget* table_;
    QLabel* footer_;
};

}  // namespace attnlab
