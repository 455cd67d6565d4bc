#pragma once
// What the model predicts for the current text: GPT-2 the next token, BERT each [MASK]; the
// top 10 with their probabilities as bars; with head edits, before and after side by side and
// a grid of how much each layer's and head's attention changed. It only reads the ModelDocument.

#include <QWidget>

class QLabel;
class QTableWidget;
class QTreeWidget;

namespace attnlab {

class ModelDocument;
struct ModelSnapshot;

class PredictionsPanel : public QWidget {
    Q_OBJECT
public:
    explicit PredictionsPanel(ModelDocument* document, QWidget* parent = nullptr);
    [[nodiscard]] QTreeWidget* tree() const { return tree_; }
    // With head edits: the largest change of a weight per layer (rows) and head (columns).
    [[nodiscard]] QTableWidget* changeGrid() const { return change_; }

private:
    void refresh();
    void refreshChange(const ModelSnapshot* snapshot);

    ModelDocument* document_;
    QLabel* note_;
    QTreeWidget* tree_;
    QLabel* changeTitle_;
    QTableWidget* change_;
};

}  // namespace attnlab
