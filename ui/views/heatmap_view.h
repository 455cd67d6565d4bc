#pragma once
// A matrix drawn as a heatmap: rows top to bottom, token labels on both axes
// (rotated and thinned when crowded), a colour bar, masked cells in grey, fully
// masked rows marked, values printed in cells when the map is small, a crosshair
// under the mouse and a frame around the selected row. It only draws what it is
// given; the document computes everything.

#include <optional>
#include <vector>

#include <qcustomplot.h>

#include "core/attention_input.h"
#include "ui/views/color_scales.h"

namespace attnlab {

struct HeatmapContent {
    attn::Matrix values;
    std::optional<attn::BoolMatrix> mask;  // false cells drawn as masked
    std::vector<bool> fullyMaskedRows;
    QStringList rowLabels;
    QStringList columnLabels;
    QString title;
    QString rowAxisTitle;
    QString columnAxisTitle;
    ColorScale scale = ColorScale::Weights;
    std::optional<QCPRange> range;  // fixed colour range; default per scale
};

// The colour range a content is drawn on: its fixed range, [0, 1] for weights, symmetric
// around 0 for diverging maps, else the data's own range.
QCPRange colorRangeFor(const HeatmapContent& content);

class HeatmapView : public QCustomPlot {
    Q_OBJECT
public:
    explicit HeatmapView(QWidget* parent = nullptr);

    void setContent(const HeatmapContent& content);
    [[nodiscard]] const HeatmapContent& content() const { return content_; }
    // Frame around the selected row (and column); -1 hides.
    void setSelection(int row, int column);
    // Largest rows x cols for which the values are printed in the cells.
    void setValueTextLimit(int cells) { valueTextLimit_ = cells; }
    [[nodiscard]] QCPColorMap* colorMap() const { return map_; }
    [[nodiscard]] QCPColorScale* colorScale() const { return scale_; }
    // Zoom around the centre by `factor` (< 1 zooms in); resetView shows the whole matrix.
    void zoom(double factor);
    void resetView();
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

private:
    void updateTicks();
    void updateValueTexts();
    void updateMarkers();

    HeatmapContent content_;
    QCPColorMap* map_ = nullptr;
    QCPColorScale* scale_ = nullptr;
    QCPTextElement* title_ = nullptr;
    QCPItemRect* rowFrame_ = nullptr;
    QCPItemRect* columnFrame_ = nullptr;
    QCPItemRect* hoverFrame_ = nullptr;
    QCPItemStraightLine* crossRow_ = nullptr;
    QCPItemStraightLine* crossColumn_ = nullptr;
    std::vector<QCPItemText*> valueTexts_;
    std::vector<QCPItemText*> rowMarks_;
    int selectedRow_ = -1;
    int selectedColumn_ = -1;
    int valueTextLimit_ = 144;
};

}  // namespace attnlab
