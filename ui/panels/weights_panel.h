// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The main heatmap: the current head's weights P (rows = queries, columns = keys).
// Hover shows the cell's numbers; click selects the query row and key column;
// Ctrl+click paints the custom mask (toggles whether that query may attend to that
// key); arrow keys move the selection. In difference mode it shows the weights minus
// the pinned weights on a diverging scale, and with nothing pinned says how to pin instead
// of drawing a map of zeros. While weights are pinned, a badge above the map says what
// was pinned ("pinned: before “Edit key 3”").

#include <optional>

#include <QWidget>

#include "ui/readers/view_state.h"
#include "ui/views/heatmap_view.h"

class QLabel;

namespace attnlab {

class Document;

class WeightsPanel : public QWidget {
    Q_OBJECT
public:
    enum class Kind { Weights, Difference };
    WeightsPanel(Document* doc, Kind kind, QWidget* parent = nullptr);

    [[nodiscard]] HeatmapView* view() const { return view_; }
    // The text the hover on (row, column) shows.
    [[nodiscard]] QString hoverText(int row, int column) const;
    // The badge above the map (hidden when nothing is pinned), and the message the
    // Difference map shows in its place when there is nothing to compare with.
    [[nodiscard]] QLabel* pinBadge() const { return badge_; }
    [[nodiscard]] QLabel* note() const { return note_; }

Q_SIGNALS:
    void hoverTextChanged(const QString& text);

protected:
    void keyPressEvent(QKeyEvent* event) override;

private:
    void rebuild();
    void updateBadge();
    void onHover(int row, int column);
    void onClick(int row, int column, Qt::KeyboardModifiers modifiers);
    void toggleMaskCell(int row, int column);

    Document* doc_;
    Kind kind_;
    HeatmapView* view_;
    QLabel* badge_;
    QLabel* note_;
    // What the view shows, to tell whether the next snapshot changed only some rows.
    struct Shown {
        quint64 serial = 0;
        int head = -1;
        WeightColors colors = WeightColors::Fixed;
        bool valid = false;
    } shown_;
};

// The content the weights map draws for the document's current head (also used by exports).
HeatmapContent weightsContent(const Document& doc);
// The same into `c`, reusing the storage of its matrices when their shapes fit. With `rows`,
// `c` holds the previous snapshot's content of the same head: only those rows of the values
// are copied (the mask is kept as it is).
void fillWeightsContent(const Document& doc, HeatmapContent& c,
                        std::optional<RowRange> rows = std::nullopt);
// Turns weights into what the chosen colouring draws (per row, log, …) and says so in the
// title; with `rows`, only those rows (not for DataRange, which depends on every cell).
void applyWeightColors(HeatmapContent& content, WeightColors colors,
                       std::optional<RowRange> rows = std::nullopt);

}  // namespace attnlab
