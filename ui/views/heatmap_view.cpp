#include "ui/views/heatmap_view.h"

#include <cmath>

#include "ui/views/colormap_data.h"

namespace attnlab {

namespace {

}  // namespace

QCPRange colorRangeFor(const HeatmapContent& c)
{
    if (c.range) return *c.range;
    if (c.scale == ColorScale::Weights) return QCPRange(0.0, 1.0);
    double lo = 0.0, hi = 0.0;
    if (c.values.size() > 0) {
        lo = c.values.minCoeff();
        hi = c.values.maxCoeff();
    }
    if (c.scale == ColorScale::Diverging) {
        const double a = std::max({std::abs(lo), std::abs(hi), 1e-12});
        return QCPRange(-a, a);
    }
    if (hi - lo < 1e-12) hi = lo + 1.0;
    return QCPRange(lo, hi);
}

namespace {

// Every k-th label so that labels do not overlap.
QSharedPointer<QCPAxisTickerText> tickerFor(const QStringList& labels, double pixels,
                                            double perLabel)
{
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    const int n = static_cast<int>(labels.size());
    const int step = std::max(1, static_cast<int>(std::ceil(n * perLabel / std::max(pixels, 1.0))));
    for (int i = 0; i < n; i += step) ticker->addTick(i, labels[i]);
    return ticker;
}

QCPItemRect* makeFrame(QCustomPlot* plot, const QColor& color, Qt::PenStyle style)
{
    auto* r = new QCPItemRect(plot);
    r->setPen(QPen(color, 2, style));
    r->setBrush(Qt::NoBrush);
    r->setSelectable(false);
    r->setVisible(false);
    return r;
}

}  // namespace

HeatmapView::HeatmapView(QWidget* parent) : QCustomPlot(parent)
{
    setMouseTracking(true);
    setNoAntialiasingOnDrag(true);
    map_ = new QCPColorMap(xAxis, yAxis);
    map_->setInterpolate(false);
    map_->setTightBoundary(false);  // cells centred on integers span -0.5 .. n-0.5
    scale_ = new QCPColorScale(this);
    plotLayout()->addElement(0, 1, scale_);
    scale_->setType(QCPAxis::atRight);
    map_->setColorScale(scale_);
    auto* group = new QCPMarginGroup(this);
    axisRect()->setMarginGroup(QCP::msBottom | QCP::msTop, group);
    scale_->setMarginGroup(QCP::msBottom | QCP::msTop, group);
    title_ = new QCPTextElement(this, QString(),
                                QFont(font().family(), font().pointSize() + 1, QFont::Bold));
    plotLayout()->insertRow(0);
    plotLayout()->addElement(0, 0, title_);
    yAxis->setRangeReversed(true);
    xAxis->setTickLabelSide(QCPAxis::lsOutside);
    xAxis->grid()->setVisible(false);
    yAxis->grid()->setVisible(false);
    rowFrame_ = makeFrame(this, QColor(0xff, 0x40, 0x40), Qt::SolidLine);
    columnFrame_ = makeFrame(this, QColor(0xff, 0x40, 0x40), Qt::DashLine);
    hoverFrame_ = makeFrame(this, Qt::white, Qt::SolidLine);
    // Crosshair: a thin line through the hovered row and one through the hovered column.
    for (QCPItemStraightLine** line : {&crossRow_, &crossColumn_}) {
        *line = new QCPItemStraightLine(this);
        (*line)->setPen(QPen(QColor(255, 255, 255, 150), 1, Qt::DotLine));
        (*line)->setSelectable(false);
        (*line)->setVisible(false);
    }
    // Wheel zooms and dragging pans (useful for long sequences); View > Reset view undoes it.
    setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
}

void HeatmapView::zoom(double factor)
{
    xAxis->scaleRange(factor, xAxis->range().center());
    yAxis->scaleRange(factor, yAxis->range().center());
    updateTicks();
    replot(QCustomPlot::rpQueuedReplot);
}

void HeatmapView::resetView()
{
    xAxis->setRange(-0.5, static_cast<double>(content_.values.cols()) - 0.5);
    yAxis->setRange(-0.5, static_cast<double>(content_.values.rows()) - 0.5);
    updateTicks();
    replot(QCustomPlot::rpQueuedReplot);
}

void HeatmapView::setContent(const HeatmapContent& content)
{
    content_ = content;
    fillColorMapData(content_.values, content_.mask ? &*content_.mask : nullptr, *map_->data());
    map_->setGradient(gradientFor(content_.scale));
    map_->setDataRange(colorRangeFor(content_));
    title_->setText(content_.title);
    xAxis->setLabel(content_.columnAxisTitle);
    yAxis->setLabel(content_.rowAxisTitle);
    const double rows = static_cast<double>(content_.values.rows());
    const double cols = static_cast<double>(content_.values.cols());
    xAxis->setRange(-0.5, cols - 0.5);
    yAxis->setRange(-0.5, rows - 0.5);
    updateTicks();
    updateValueTexts();
    updateMarkers();
    replot(QCustomPlot::rpQueuedReplot);
}

void HeatmapView::updateTicks()
{
    const QFontMetrics fm(xAxis->tickLabelFont());
    int widest = 0;
    for (const QString& l : content_.columnLabels)
        widest = std::max(widest, fm.horizontalAdvance(l));
    const double cols = std::max<double>(1.0, static_cast<double>(content_.values.cols()));
    const double cellWidth = axisRect()->width() / cols;
    // Rotate column labels when they do not fit side by side.
    const bool rotate = widest + 4 > cellWidth;
    xAxis->setTickLabelRotation(rotate ? -60 : 0);
    const double perColumn = rotate ? fm.height() + 2 : widest + 8;
    xAxis->setTicker(tickerFor(content_.columnLabels, axisRect()->width(), perColumn));
    yAxis->setTicker(tickerFor(content_.rowLabels, axisRect()->height(), fm.height() + 2));
}

void HeatmapView::updateValueTexts()
{
    for (QCPItemText* t : valueTexts_) removeItem(t);
    valueTexts_.clear();
    const long rows = content_.values.rows();
    const long cols = content_.values.cols();
    if (rows * cols > valueTextLimit_ || rows == 0 || cols == 0) return;
    // As many decimals as fit in a cell (3, 2 or 1); no text when even one does not fit.
    const QFontMetrics fm(font());
    const double cellWidth = axisRect()->width() / static_cast<double>(cols);
    const double cellHeight = axisRect()->height() / static_cast<double>(rows);
    int decimals = 3;
    while (decimals > 0 &&
           fm.horizontalAdvance(QString::number(-0.5, 'f', decimals)) + 4 > cellWidth)
        --decimals;
    if (decimals == 0 || fm.height() > cellHeight) return;
    const QCPRange range = map_->dataRange();
    for (long i = 0; i < rows; ++i) {
        for (long j = 0; j < cols; ++j) {
            const bool masked = content_.mask && !(*content_.mask)(i, j);
            auto* t = new QCPItemText(this);
            t->position->setCoords(static_cast<double>(j), static_cast<double>(i));
            t->setText(masked ? QStringLiteral("–")
                              : QString::number(content_.values(i, j), 'f', decimals));
            // Dark text on light cells, light text on dark cells.
            double rel = (content_.values(i, j) - range.lower) / std::max(range.size(), 1e-300);
            if (content_.scale == ColorScale::Diverging) rel = std::abs(rel - 0.5) * 2.0;
            const bool lightCell =
                masked || (content_.scale == ColorScale::Diverging ? rel < 0.6 : rel > 0.55);
            t->setColor(lightCell ? Qt::black : Qt::white);
            t->setSelectable(false);
            t->setClipToAxisRect(true);
            valueTexts_.push_back(t);
        }
    }
}

void HeatmapView::updateMarkers()
{
    for (QCPItemText* t : rowMarks_) removeItem(t);
    rowMarks_.clear();
    const long rows = content_.values.rows();
    for (long i = 0; i < rows && i < static_cast<long>(content_.fullyMaskedRows.size()); ++i) {
        if (!content_.fullyMaskedRows[static_cast<std::size_t>(i)]) continue;
        auto* t = new QCPItemText(this);
        t->position->setType(QCPItemPosition::ptPlotCoords);
        t->position->setCoords(static_cast<double>(content_.values.cols()) / 2.0,
                               static_cast<double>(i));
        t->setText(tr("fully masked"));
        t->setColor(QColor(0x60, 0x00, 0x00));
        t->setSelectable(false);
        rowMarks_.push_back(t);
    }
    setSelection(selectedRow_, selectedColumn_);
}

void HeatmapView::setSelection(int row, int column)
{
    selectedRow_ = row;
    selectedColumn_ = column;
    const double cols = static_cast<double>(content_.values.cols());
    const double rows = static_cast<double>(content_.values.rows());
    rowFrame_->setVisible(row >= 0 && row < rows);
    rowFrame_->topLeft->setCoords(-0.5, row - 0.5);
    rowFrame_->bottomRight->setCoords(cols - 0.5, row + 0.5);
    columnFrame_->setVisible(column >= 0 && column < cols);
    columnFrame_->topLeft->setCoords(column - 0.5, -0.5);
    columnFrame_->bottomRight->setCoords(column + 0.5, rows - 0.5);
    replot(QCustomPlot::rpQueuedReplot);
}

bool HeatmapView::cellAtPosition(const QPoint& pos, int& row, int& column) const
{
    if (!axisRect()->rect().contains(pos)) return false;
    const double x = xAxis->pixelToCoord(pos.x());
    const double y = yAxis->pixelToCoord(pos.y());
    return cellAt(content_.values.rows(), content_.values.cols(), x, y, row, column);
}

void HeatmapView::resizeEvent(QResizeEvent* event)
{
    QCustomPlot::resizeEvent(event);
    // Label thinning and rotation, and the decimals in cells, depend on the size in pixels.
    updateTicks();
    updateValueTexts();
    replot(QCustomPlot::rpQueuedReplot);
}

void HeatmapView::mouseMoveEvent(QMouseEvent* event)
{
    QCustomPlot::mouseMoveEvent(event);
    int row = -1, column = -1;
    if (cellAtPosition(event->pos(), row, column)) {
        hoverFrame_->setVisible(true);
        hoverFrame_->topLeft->setCoords(column - 0.5, row - 0.5);
        hoverFrame_->bottomRight->setCoords(column + 0.5, row + 0.5);
        crossRow_->point1->setCoords(0, row);
        crossRow_->point2->setCoords(1, row);
        crossColumn_->point1->setCoords(column, 0);
        crossColumn_->point2->setCoords(column, 1);
    }
    hoverFrame_->setVisible(row >= 0);
    crossRow_->setVisible(row >= 0);
    crossColumn_->setVisible(row >= 0);
    replot(QCustomPlot::rpQueuedReplot);
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
    hoverFrame_->setVisible(false);
    crossRow_->setVisible(false);
    crossColumn_->setVisible(false);
    replot(QCustomPlot::rpQueuedReplot);
    Q_EMIT cellHovered(-1, -1);
}

}  // namespace attnlab
