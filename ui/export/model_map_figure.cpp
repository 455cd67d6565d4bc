// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/export/model_map_figure.h"

#include <algorithm>

#include <QCoreApplication>

namespace attnlab {

namespace {

class ModelMapFigureTr {
    Q_DECLARE_TR_FUNCTIONS(attnlab::ModelFigures)
};

}  // namespace

Figure modelMapFigure(const QStringList& labels, const attn::model::FloatMatrix& weights,
                      const QString& title)
{
    return modelMapFigure(labels, labels, weights, title);
}

Figure modelMapFigure(const QStringList& rowLabels, const QStringList& columnLabels,
                      const attn::model::FloatMatrix& weights, const QString& title)
{
    HeatmapContent c;
    c.values = weights.cast<double>();
    c.rowLabels = rowLabels;
    c.columnLabels = columnLabels;
    // A cross map's rows and columns are different texts: say which is which.
    const bool cross = rowLabels != columnLabels;
    c.rowAxisTitle = cross ? ModelMapFigureTr::tr("query (target)") : ModelMapFigureTr::tr("query");
    c.columnAxisTitle = cross ? ModelMapFigureTr::tr("key (source)") : ModelMapFigureTr::tr("key");
    c.scale = ColorScale::Weights;
    c.range = ValueRange(0.0, 1.0);
    // The figure's title names the map; a panel title would say it twice.
    Figure f;
    f.title = title;
    f.caption =
        ModelMapFigureTr::tr("Attention weights of a real model (rows: queries, columns: keys).");
    f.panels.push_back(std::move(c));
    return f;
}

QSize modelMapFigureSize(const Figure& figure, long rows, long columns)
{
    QSize size = defaultFigureSize(figure);
    if (rows <= 0 || columns <= 0 || rows >= columns) return size;
    // Fewer rows than columns (a short target against a long source): a shorter picture, so
    // that the cells stay square rather than the map floating in white space.
    const double share = std::max(0.3, static_cast<double>(rows) / static_cast<double>(columns));
    size.setHeight(static_cast<int>(180 + (size.height() - 180) * share));
    return size;
}

}  // namespace attnlab
