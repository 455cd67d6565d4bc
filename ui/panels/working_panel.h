#pragma once
// "Show working" for the selected query row of the current head, the hand exercise
// written out: each dot product q·k_j (with its terms when d_k is small), the division by
// the divisor, each exp(s_j - m), their sum and each weight. It only presents the
// document's result: exp(s_j - m) is weight_j * rowSum, the core's own softmax bookkeeping.

#include <QWidget>

class QLabel;
class QTableWidget;

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

    Document* doc_;
    QLabel* header_;
    QTableWidget* table_;
    QLabel* footer_;
};

}  // namespace attnlab
