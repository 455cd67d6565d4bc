#pragma once
// One map of the model view enlarged (a head, a layer mean or a rollout) with the tokens on
// both axes, hover values and the selected query's strongest keys below it, like the
// workbench's row inspector. It only reads the ModelDocument; clicking a row selects that
// query there.

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

    ModelDocument* document_;
    HeatmapView* map_;
    QLabel* hover_;
    QLabel* rowTitle_;
    QTableWidget* keys_;
};

}  // namespace attnlab
