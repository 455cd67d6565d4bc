// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// One map of the model view enlarged (a head, a layer mean or a rollout) with the tokens on
// both axes, hover values and the selected query's strongest keys below it, like the
// workbench's row inspector. Its context menu edits the head (model_document.h). It only reads the
// ModelDocument; clicking a row selects that query there.

#include <QWidget>

class QLabel;
class QTableWidget;

namespace attnlab {

class HeatmapView;
class ModelDocument;

class ModelFocusPanel : public QWidget {
    Q_OBJECT
public:
    explicit ModelFocusPanel(ModelDocument* document, QWidget* parent = nullptr);
    [[nodiscard]] HeatmapView* map() const { return map_; }
    [[nodiscard]] QTableWidget* keys() const { return keys_; }
    [[nodiscard]] QLabel* hoverLabel() const { return hover_; }

private:
    void refresh();
    void showRow();
    void showHover(int row, int column);
    // Right-click on a head's map: scale the key or value under the mouse, or its row's query
    // (the document carries the edit through the model), or restore the head.
    void editMenu(const QPoint& pos);

    ModelDocument* document_;
    HeatmapView* map_;
    QLabel* hover_;
    QLabel* rowTitle_;
    QTableWidget* keys_;
    // The cell under the mouse (-1: none): its readout is re-read from every new run, so that
    // it never shows a weight from before an edit.
    int hoverRow_ = -1;
    int hoverColumn_ = -1;
};

}  // namespace attnlab
