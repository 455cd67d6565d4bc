// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/model/model_figures.h"

#include <QCoreApplication>
#include <QPainter>

#include "ui/export/figure_panel.h"
#include "ui/model/head_lines_paint.h"
#include "ui/model/model_grid_paint.h"

namespace attnlab {

namespace {

class ModelFiguresTr {
    Q_DECLARE_TR_FUNCTIONS(attnlab::ModelFigures)
};

// Rectangles in SVG and PDF up to this many cells; pictures beyond (a long text's 168 maps).
constexpr long kVectorCellLimit = 400000;

}  // namespace

Figure modelGridFigure(std::shared_ptr<const ModelSnapshot> snapshot, const QString& modelName)
{
    Figure f;
    f.title = ModelFiguresTr::tr("%1: attention of every layer and head").arg(modelName);
    f.caption = ModelFiguresTr::tr(
                    "Text: “%1”. Rows: layers; columns: heads, then the mean of the layer's "
                    "heads and the attention rollout through the layer (Abnar & Zuidema "
                    "2020). Colour: weight from 0 to 1.")
                    .arg(snapshot->text);
    const long n = snapshot->tokenCount();
    const bool vector =
        n * n * static_cast<long>(snapshot->layers()) * (snapshot->heads() + 2) <= kVectorCellLimit;
    f.drawing = [snapshot, vector](QPainter& p, const QRectF& area, double basePx) {
        const QFont barFont = figure_detail::makeFont(basePx);
        const double barWidth = figure_detail::barWidthFor(barFont);
        const QRectF gridArea = area.adjusted(0, 0, -barWidth - basePx, 0);
        ModelGridStyle style;
        style.basePx = basePx;
        style.vectorCells = vector;
        const std::vector<QImage> images =
            vector ? std::vector<QImage>() : modelGridImages(*snapshot, 256);
        p.setFont(figure_detail::makeFont(basePx));
        paintModelGrid(p, gridArea, *snapshot, images, style);
        const ModelGridGeometry g = modelGridGeometry(
            gridArea, snapshot->layers(), snapshot->heads(), basePx, snapshot->groupSize);
        const QRectF bar(g.cells.right() + basePx, g.cells.top(), basePx * 1.2,
                         std::min(g.cells.height(), basePx * 16));
        figure_detail::paintColorBar(p, bar, ColorScale::Weights, ValueRange(0.0, 1.0), barFont,
                                     false);
    };
    return f;
}

Figure headLinesFigure(std::shared_ptr<const ModelSnapshot> snapshot, int layer,
                       const std::vector<int>& heads)
{
    std::vector<int> shown = heads;
    if (shown.empty())
        for (int h = 0; h < snapshot->heads(); ++h) shown.push_back(h);
    Figure f;
    f.title =
        shown.size() == 1
            ? ModelFiguresTr::tr("Head view: layer %1, head %2").arg(layer + 1).arg(shown[0] + 1)
            : ModelFiguresTr::tr("Head view: layer %1, %n head(s)", nullptr,
                                 static_cast<int>(shown.size()))
                  .arg(layer + 1);
    f.caption = ModelFiguresTr::tr(
                    "Left: queries; right: keys. A line's width is the weight (lines under "
                    "%1 left out); one colour per head.")
                    .arg(static_cast<double>(kHeadLineThreshold));
    f.drawing = [snapshot, layer, shown](QPainter& p, const QRectF& area, double basePx) {
        HeadLinesContent c;
        c.labels = snapshot->labels;
        const auto& attention = snapshot->result.layers[static_cast<std::size_t>(layer)].attention;
        for (int h : shown) {
            c.weights.push_back(&attention[static_cast<std::size_t>(h)]);
            c.colors.push_back(headColor(h));
        }
        p.setFont(figure_detail::makeFont(basePx));
        // A legend of the heads' colours along the top.
        double x = area.left();
        const QFontMetricsF fm(p.font(), p.device());
        for (int h : shown) {
            const QString name = ModelFiguresTr::tr("H%1").arg(h + 1);
            p.fillRect(QRectF(x, area.top() + fm.height() * 0.2, basePx, fm.height() * 0.6),
                       headColor(h));
            p.setPen(QColor(0x30, 0x30, 0x30));
            p.drawText(QPointF(x + basePx * 1.3, area.top() + fm.ascent()), name);
            x += basePx * 1.8 + fm.horizontalAdvance(name);
        }
        paintHeadLines(p, area.adjusted(0, fm.height() * 1.6, 0, 0), c, basePx);
    };
    return f;
}

}  // namespace attnlab
