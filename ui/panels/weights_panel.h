#pragma once
// The main heatmap: the current head's weights P (rows = queries, columns = keys).
// Hover shows the cell's numbers; click selects the query row and key column;
// Ctrl+click paints the custom mask (toggles whether that query may attend to that
// key); arrow keys move the selection. In difference mode it shows the weights minus
// the pinned weights on a diverging scale.

#include <QWidget>

#include "ui/document/view_state.h"

class QLabel;

namespace attnlab {

class Document;
class HeatmapView;
struct HeatmapContent;

class WeightsPanel : public QWidget {
    Q_OBJECT
public:
    enum class Kind { Weights, Difference };
    WeightsPanel(Document* doc, Kind kind, QWidget* parent = nullptr);

    [[nodiscard]] HeatmapView* view() const { return view_; }
    // The text the hover on (row, column) shows.
    [[nodiscard]] QString hoverText(int row, int column) const;

Q_SIGNALS:
    void hoverTextChanged(const QString& text);

protected:
    void keyPressEvent(QKeyEvent* event) override;

private:
    void rebuild();
    void onHover(int row, int column);
    void onClick(int row, int column, Qt::KeyboardModifiers modifiers);
    void toggleMaskCell(int row, int column);

    Document* doc_;
    Kind kind_;
    HeatmapView* view_;
    QLabel* note_;
};

// The content the weights map draws for the document's current head (also used by exports).
HeatmapContent weightsContent(const Document& doc);
// The same into `c`, reusing the storage of its matrices when their shapes fit.
void fillWeightsContent(const Document& doc, HeatmapContent& c);
// Turns weights into what the chosen colouring draws (per row, log, …) and says so in the title.
void applyWeightColors(HeatmapContent& content, WeightColors colors);

}  // namespace attnlab
