#pragma once
// Beside the model view while heads are edited: for every layer (rows) and head (columns), the
// largest change of one attention weight that the edits caused, in colour (the value on
// hover). Hidden without edits. It only reads the ModelDocument.

#include <QWidget>

class QLabel;
class QTableWidget;

namespace attnlab {

class ModelDocument;

class ModelChangePanel : public QWidget {
    Q_OBJECT
public:
    explicit ModelChangePanel(ModelDocument* document, QWidget* parent = nullptr);
    [[nodiscard]] QTableWidget* grid() const { return change_; }

private:
    void refresh();

    ModelDocument* document_;
    QLabel* changeTitle_;
    QTableWidget* change_;
};

}  // namespace attnlab
