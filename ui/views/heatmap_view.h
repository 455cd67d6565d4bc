// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A matrix drawn as a heatmap: rows top to bottom, token labels on both axes
// (rotated and thinned when crowded), a colour bar, masked cells in grey, fully
// masked rows marked, values printed in cells when the map is small, a crosshair
// under the mouse and a frame around the selected row. It only draws what it is
// given; the document computes everything.
//
// Speed (long sequences, live slider drags): the cells are read in place from the content's
// matrix through a pyramid of pooled levels (heatmap_pyramid.h), built for what the screen
// shows and updated only where a content says it changed (changedRows), coloured pixel by
// pixel by HeatmapPlottable into QCustomPlot's only paint buffer; the hover crosshair and the
// selection frames are painted over it in paintEvent, so moving them repaints the widget without a
// replot; tick labels are rebuilt only when the labels, the size or the font change; zoom is kept
// while the same sequence is edited.

#include <memory>
#include <optional>
#include <vector>

#include <qcustomplot.h>

#include "core/attention_input.h"
#include "ui/views/color_scales.h"
#include "ui/views/heatmap_content.h"
#include "ui/views/heatmap_labels.h"
#include "ui/views/heatmap_plottable.h"

namespace attnlab {

class HeatmapView : public QCustomPlot {
    Q_OBJECT
public:
    explicit HeatmapView(QWidget* parent = nullptr);

    // By value: callers that are done with their content move it in (no matrix copy).
    void setContent(HeatmapContent content);
    [[nodiscard]] const HeatmapContent& content() const { return content_; }
    // Hands the content's value and mask matrices back, for the next content to be built in
    // their storage: a fresh n x n copy per slider step was 40 % of a step at n = 2048 (page
    // faults, then munmap). Until the next setContent the map keeps drawing its cells; call
    // it right before building that content.
    [[nodiscard]] HeatmapContent recycleBuffers();
    // Frame around the selected row (and column); -1 hides.
    void setSelection(int row, int column);
    // Token labels, axis titles and colour-bar numbers; a thumbnail shows only cells and title.
    void setLabelsShown(bool shown);
    [[nodiscard]] bool labelsShown() const { return labelsShown_; }
    // The axis titles ("query", "key"); a note on thinned labels is shown regardless.
    void setAxisTitlesShown(bool shown);
    // Largest rows x cols for which the values are printed in the cells.
    void setValueTextLimit(int cells)
    {
        valueTextLimit_ = cells;
        updateValueTexts();
    }
    [[nodiscard]] int valueTextLimit() const { return valueTextLimit_; }
    [[nodiscard]] HeatmapPlottable* heatmap() const { return map_; }
    // What the cells show: one pixel per cell, pixel (x = column, y = row).
    [[nodiscard]] QImage drawnImage() const { return map_->cellImage(); }
    // The colour range the cells and the colour bar use.
    [[nodiscard]] ValueRange drawnRange() const { return range_; }
    [[nodiscard]] QCPColorScale* colorScale() const { return scale_; }
    // Zoom around the centre by `factor` (< 1 zooms in); resetView shows the whole matrix.
    void zoom(double factor);
    void resetView();
    // The cell under the mouse, or -1 when the mouse is not over the map.
    [[nodiscard]] int hoveredRow() const { return hoverRow_; }
    [[nodiscard]] int hoveredColumn() const { return hoverColumn_; }
    // The title as drawn: the content's title, wrapped to the map's width.
    [[nodiscard]] QString shownTitle() const;
    // Every line of the drawn title fits the width it has (nothing cut at the sides).
    [[nodiscard]] bool titleFits() const;
    // How the labels and values fit (heatmap_labels.h): fonts, rotation, every step-th label.
    [[nodiscard]] const AxisLabelFit& rowLabelFit() const { return rowFit_; }
    [[nodiscard]] const AxisLabelFit& columnLabelFit() const { return columnFit_; }
    // Decimals printed in the cells (0: no values printed) and their font.
    [[nodiscard]] const ValueTextFit& valueTextFit() const { return valueFit_; }
    [[nodiscard]] int valueTextCount() const { return static_cast<int>(valueTexts_.size()); }
    // Cell under a widget position, for tests and tooltips.
    bool cellAtPosition(const QPoint& pos, int& row, int& column) const;

Q_SIGNALS:
    void cellHovered(int row, int column);  // -1, -1 when leaving the map
    void cellClicked(int row, int column, Qt::KeyboardModifiers modifiers);

protected:
    void resizeEvent(QResizeEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void leaveEvent(QEvent* event) override;
    // The widget's font is the one for labels, values and the title: a presenter view sets a
    // larger one on the whole panel.
    void changeEvent(QEvent* event) override;
    void paintEvent(QPaintEvent* event) override;
    // Labels are thinned for the laid-out size: rebuilt here, after the layout, if it changed.
    void updateLayout() override;

private:
    // What the tick labels were last built from.
    struct TickKey {
        QStringList rows, columns;
        QSize pixels;
        QFont font;
        int rowsShown = 0;  // cells across the visible range (zoom), at most the matrix's
        int columnsShown = 0;
        QString rowTitle, columnTitle;  // the axis titles carry the note on thinned labels
        bool labelsShown = true;
        bool axisTitlesShown = true;
        bool operator==(const TickKey&) const = default;
    };

    bool updateTicks();  // true when the ticks changed
    void fitTitle();     // the title, wrapped to the widget's width
    [[nodiscard]] int titleRoom() const;
    void updateValueTexts();
    void updateMarkers();
    void showHover(int row, int column);
    // Selection frames and hover crosshair, over the replotted buffer.
    void paintMarks(QPainter& painter) const;
    void repaintMarks();

    HeatmapContent content_;
    ValueRange range_{0.0, 1.0};
    bool hasContent_ = false;
    TickKey ticks_;
    HeatmapPlottable* map_ = nullptr;
    QCPColorScale* scale_ = nullptr;
    QCPTextElement* title_ = nullptr;
    std::vector<QCPItemText*> valueTexts_;
    std::vector<QCPItemText*> rowMarks_;
    int selectedRow_ = -1;
    int selectedColumn_ = -1;
    int hoverRow_ = -1;
    int hoverColumn_ = -1;
    int valueTextLimit_ = 144;
    bool labelsShown_ = true;
    bool axisTitlesShown_ = true;
    AxisLabelFit rowFit_;
    AxisLabelFit columnFit_;
    ValueTextFit valueFit_;
};

}  // namespace attnlab
