// SPDX-License-Identifier: GPL-3.0-or-later
// HeatmapView: what is drawn over the cells — values in small maps, "fully masked" row
// marks, the selection frames and the hover crosshair.

#include <cmath>

#include "ui/views/heatmap_view.h"

namespace attnlab {

void HeatmapView::updateValueTexts()
{
    const long rows = content_.rows();
    const long cols = content_.cols();
    valueFit_ = ValueTextFit{font(), 0};
    if (rows * cols <= valueTextLimit_ && rows > 0 && cols > 0) {
        // The widest value decides: "-12.345" needs more room than "0.123".
        double widest = 0.0;
        bool negative = false;
        for (long i = 0; i < rows; ++i) {
            for (long j = 0; j < cols; ++j) {
                if (content_.isMasked(i, j)) continue;
                const double v = content_.at(i, j);
                widest = std::max(widest, std::abs(v));
                negative = negative || v < 0.0;
            }
        }
        valueFit_ = fitValueTexts(widest, negative, axisRect()->width() / static_cast<double>(cols),
                                  axisRect()->height() / static_cast<double>(rows), font());
    }
    const int decimals = valueFit_.decimals;
    const auto wanted = static_cast<std::size_t>(decimals > 0 ? rows * cols : 0);
    if (valueTexts_.size() != wanted) {
        // Items are kept while the shape stays the same (a slider drag only changes texts).
        for (QCPItemText* t : valueTexts_) removeItem(t);
        valueTexts_.clear();
        for (std::size_t k = 0; k < wanted; ++k) {
            auto* t = new QCPItemText(this);
            t->setSelectable(false);
            t->setClipToAxisRect(true);
            t->setPadding(QMargins());
            valueTexts_.push_back(t);
        }
    }
    if (wanted == 0) return;
    std::size_t k = 0;
    for (long i = 0; i < rows; ++i) {
        for (long j = 0; j < cols; ++j) {
            const bool masked = content_.isMasked(i, j);
            QCPItemText* t = valueTexts_[k++];
            if (t->font() != valueFit_.font) t->setFont(valueFit_.font);
            t->position->setCoords(static_cast<double>(j), static_cast<double>(i));
            t->setText(masked ? QStringLiteral("–")
                              : QString::number(content_.at(i, j), 'f', decimals));
            // Dark text on light cells, light text on dark cells.
            double rel = (content_.at(i, j) - range_.lower) / std::max(range_.size(), 1e-300);
            if (content_.scale == ColorScale::Diverging) rel = std::abs(rel - 0.5) * 2.0;
            const bool lightCell =
                masked || (content_.scale == ColorScale::Diverging ? rel < 0.6 : rel > 0.55);
            t->setColor(lightCell ? Qt::black : Qt::white);
        }
    }
}

void HeatmapView::updateMarkers()
{
    for (QCPItemText* t : rowMarks_) removeItem(t);
    rowMarks_.clear();
    const long rows = content_.rows();
    for (long i = 0; i < rows && i < static_cast<long>(content_.fullyMaskedRows.size()); ++i) {
        if (!content_.fullyMaskedRows[static_cast<std::size_t>(i)]) continue;
        auto* t = new QCPItemText(this);
        t->position->setType(QCPItemPosition::ptPlotCoords);
        t->position->setCoords(static_cast<double>(content_.cols()) / 2.0, static_cast<double>(i));
        t->setText(tr("fully masked"));
        t->setColor(QColor(0x60, 0x00, 0x00));
        t->setSelectable(false);
        rowMarks_.push_back(t);
    }
}

void HeatmapView::setSelection(int row, int column)
{
    if (row == selectedRow_ && column == selectedColumn_) return;
    selectedRow_ = row;
    selectedColumn_ = column;
    repaintMarks();
}

void HeatmapView::showHover(int row, int column)
{
    hoverRow_ = row;
    hoverColumn_ = column;
    repaintMarks();
}

void HeatmapView::repaintMarks()
{
    // A queued replot repaints the widget anyway: painting now as well would paint twice.
    if (!mReplotQueued) update();
}

void HeatmapView::paintEvent(QPaintEvent* event)
{
    QCustomPlot::paintEvent(event);
    QPainter painter(this);
    paintMarks(painter);
}

void HeatmapView::paintMarks(QPainter& painter) const
{
    const long rows = content_.rows();
    const long cols = content_.cols();
    if (rows == 0 || cols == 0) return;
    painter.setClipRect(axisRect()->rect());
    painter.setBrush(Qt::NoBrush);
    // The pixel rectangle of cells [c0, c1] x [r0, r1] (inclusive).
    const auto cells = [this](double c0, double r0, double c1, double r1) {
        return QRectF(QPointF(xAxis->coordToPixel(c0 - 0.5), yAxis->coordToPixel(r0 - 0.5)),
                      QPointF(xAxis->coordToPixel(c1 + 0.5), yAxis->coordToPixel(r1 + 0.5)))
            .normalized();
    };
    const QColor selection(0xff, 0x40, 0x40);
    if (selectedRow_ >= 0 && selectedRow_ < rows) {
        painter.setPen(QPen(selection, 2, Qt::SolidLine));
        painter.drawRect(cells(0, selectedRow_, static_cast<double>(cols - 1), selectedRow_));
    }
    if (selectedColumn_ >= 0 && selectedColumn_ < cols) {
        painter.setPen(QPen(selection, 2, Qt::DashLine));
        painter.drawRect(cells(selectedColumn_, 0, selectedColumn_, static_cast<double>(rows - 1)));
    }
    if (hoverRow_ < 0 || hoverRow_ >= rows || hoverColumn_ < 0 || hoverColumn_ >= cols) return;
    // Crosshair: a thin line through the hovered row and one through the hovered column.
    const QRect area = axisRect()->rect();
    const double x = xAxis->coordToPixel(hoverColumn_);
    const double y = yAxis->coordToPixel(hoverRow_);
    painter.setPen(QPen(QColor(255, 255, 255, 150), 1, Qt::DotLine));
    painter.drawLine(QPointF(area.left(), y), QPointF(area.right(), y));
    painter.drawLine(QPointF(x, area.top()), QPointF(x, area.bottom()));
    painter.setPen(QPen(Qt::white, 2, Qt::SolidLine));
    painter.drawRect(cells(hoverColumn_, hoverRow_, hoverColumn_, hoverRow_));
}

void HeatmapView::mouseMoveEvent(QMouseEvent* event)
{
    QCustomPlot::mouseMoveEvent(event);
    int row = -1, column = -1;
    if (!cellAtPosition(event->pos(), row, column)) row = column = -1;
    if (row != hoverRow_ || column != hoverColumn_) showHover(row, column);
    Q_EMIT cellHovered(row, column);
}

void HeatmapView::mousePressEvent(QMouseEvent* event)
{
    QCustomPlot::mousePressEvent(event);
    int row = -1, column = -1;
    if (event->button() == Qt::LeftButton && cellAtPosition(event->pos(), row, column))
        Q_EMIT cellClicked(row, column, event->modifiers());
}

void HeatmapView::leaveEvent(QEvent* event)
{
    QCustomPlot::leaveEvent(event);
    showHover(-1, -1);
    Q_EMIT cellHovered(-1, -1);
}

}  // namespace attnlab
