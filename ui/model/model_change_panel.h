// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Beside the model view while heads are edited: for every layer (rows) and head (columns), the
// largest change of one attention weight that the edits caused, in colour (the value on
// hover). It starts at the first edited layer (the layers before it cannot change), and its
// colours run from 0 to the largest change, which its title prints. Hidden without edits. It only
// reads its RunSource (the model window's document or the workbench's head link).

#include <QWidget>

class QLabel;
class QTableWidget;

namespace attnlab {

class RunSource;
struct ModelSnapshot;

// The first layer an edit can change: the lowest edited layer, or for the workbench's head the
// first layer with a changed weight.
int firstChangedLayer(const ModelSnapshot& snapshot);

class ModelChangePanel : public QWidget {
    Q_OBJECT
public:
    explicit ModelChangePanel(RunSource* source, QWidget* parent = nullptr);
    [[nodiscard]] QTableWidget* grid() const { return change_; }
    [[nodiscard]] QLabel* title() const { return changeTitle_; }

private:
    void refresh();

    RunSource* document_;
    QLabel* changeTitle_;
    QTableWidget* change_;
};

}  // namespace attnlab
