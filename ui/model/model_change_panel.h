#pragma once
// Beside the model view while heads are edited: for every layer (rows) and head (columns), the
// largest change of one attention weight that the edits caused, in colour (the value on
// hover). Hidden without edits. It only reads its RunSource (the model window's
// document or the workbench's head link).

#include <QWidget>

class QLabel;
class QTableWidget;

namespace attnlab {

class RunSource;

class ModelChangePanel : public QWidget {
    Q_OBJECT
public:
    explicit ModelChangePanel(RunSource* source, QWidget* parent = nullptr);
    [[nodiscard]] QTableWidget* grid() const { return change_; }

private:
    void refresh();

    RunSource* document_;
    QLabel* changeTitle_;
    QTableWidget* change_;
};

}  // namespace attnlab
