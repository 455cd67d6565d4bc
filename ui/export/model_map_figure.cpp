// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/export/model_map_figure.h"

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
    c.rowAxisTitle = ModelMapFigureTr::tr("query");
    c.columnAxisTitle = ModelMapFigureTr::tr("key");
    c.scale = ColorScale::Weights;
    c.range = ValueRange(0.0, 1.0);
    c.title = title;
    Figure f;
    f.title = title;
    f.caption =
        ModelMapFigureTr::tr("Attention weights of a real model (rows: queries, columns: keys).");
    f.panels.push_back(std::move(c));
    return f;
}

}  // namespace attnlab
