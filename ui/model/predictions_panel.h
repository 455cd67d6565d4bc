#pragma once
// What the model predicts for the current text: GPT-2 the next token, BERT each [MASK]; the
// top 10 with their probabilities as bars; with head edits, before and after side by side. It only
// reads its RunSource (the model window's document or the workbench's head link).

#include <QWidget>

class QLabel;
class QTreeWidget;

namespace attnlab {

class RunSource;

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
};

}  // namespace attnlab
