// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// One query's "attention budget": for the selected row of the current head, its
// scaled scores (top) and the weights the softmax shapes them into (bottom), over
// the same key axis, with the row's entropy, max weight and softmax-Jacobian norm.
// Masked keys are hatched; pinned weights (before an edit) are drawn as ghost bars
// behind the current ones. It only reads the document's result.

#include <utility>
#include <vector>

#include <QLabel>
#include <QPair>
#include <QPen>
#include <QVector>
#include <QWidget>

#include "core/attention.h"

class QCustomPlot;
class QCPAxisRect;
class QCPBars;
class QCPItemRect;
class QCPTextElement;
class QMouseEvent;
class QVBoxLayout;

namespace attnlab {

class Document;

class RowInspectorPanel : public QWidget {
    Q_OBJECT
public:
    explicit RowInspectorPanel(Document* document, QWidget* parent = nullptr);

    // What is drawn, for tests: the row, its weights and scaled scores over all keys
    // (masked keys included, weight 0), the pinned row (empty when nothing is pinned).
    [[nodiscard]] int shownRow() const { return row_; }
    [[nodiscard]] QVector<double> shownWeights() const { return weights_; }
    [[nodiscard]] QVector<double> shownScores() const { return scores_; }
    [[nodiscard]] QVector<double> shownPinnedWeights() const { return pinned_; }
    [[nodiscard]] QString titleText() const { return title_->text(); }
    [[nodiscard]] QString entropyText() const { return entropy_->text(); }
    [[nodiscard]] QString maxWeightText() const { return maxWeight_->text(); }
    [[nodiscard]] QString jacobianText() const { return jacobian_->text(); }
    [[nodiscard]] QString noteText() const { return note_->text(); }
    [[nodiscard]] bool showsFullyMaskedRow() const { return fullyMasked_; }
    [[nodiscard]] QCustomPlot* plot() const { return plot_; }

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    // Construction: the two axis rects with caption and legend, the bar sets, the labels.
    void setupAxisRects();
    void createBars();
    void addStatistics(QVBoxLayout* layout);
    void rebuild();
    // Parts of rebuild(): read the row (true when a pinned row matches), draw its bars
    // (returning the weight axis's top), range the value axes, write title and statistics.
    bool loadRow(const attn::HeadResult& hr);
    double plotBars(int m, bool pinned, int maskedCount);
    void setValueAxes(int m, double top);
    void showStatistics(const attn::HeadResult& hr, int maskedCount, bool pinned);
    void clear(const QString& why);
    void updateTicks();
    void fitValueTicks();
    void updateSelectedColumn();
    void styleBars(int keys);
    void fitToWidth();
    void placeLegend(bool shown);
    int columnAt(const QPoint& pos) const;
    void onMouseMove(QMouseEvent* event);
    void onMousePress(QMouseEvent* event);

    Document* document_;
    QLabel* title_ = nullptr;
    QLabel* entropy_ = nullptr;
    QLabel* maxWeight_ = nullptr;
    QLabel* jacobian_ = nullptr;
    QLabel* note_ = nullptr;
    QCustomPlot* plot_ = nullptr;
    QCPAxisRect* scoreRect_ = nullptr;
    QCPAxisRect* weightRect_ = nullptr;
    QCPTextElement* softmaxCaption_ = nullptr;
    QCPTextElement* scoreTitle_ = nullptr;
    QCPTextElement* weightTitle_ = nullptr;
    QCPBars* scoreBars_ = nullptr;
    QCPBars* maskedScoreBars_ = nullptr;
    QCPBars* ghostBars_ = nullptr;
    QCPBars* maskedWeightBars_ = nullptr;
    QCPBars* weightBars_ = nullptr;
    std::vector<std::pair<QCPBars*, QPen>> outlines_;  // each bar set's pen when not dense
    bool denseBars_ = false;
    QPair<int, int> fitted_{-1, -1};  // plot width and legend items the texts were fitted to
    QCPItemRect* scoreColumnBand_ = nullptr;
    QCPItemRect* weightColumnBand_ = nullptr;

    int row_ = -1;
    int head_ = -1;
    QStringList keys_;
    QVector<double> weights_;
    QVector<double> scores_;
    QVector<double> pinned_;
    QVector<bool> allowed_;
    bool fullyMasked_ = false;
};

}  // namespace attnlab
