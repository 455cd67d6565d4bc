// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/model/translator_train_curves.h"

#include <algorithm>

namespace attnlab {

AlignmentCurvePlot::AlignmentCurvePlot(QWidget* parent) : PhaseMarkedPlot(parent)
{
    setObjectName(QStringLiteral("translatorAlignmentPlot"));
    setMark(Mark::AlignmentForms);
    threshold_ = new QCPItemStraightLine(this);
    threshold_->setPen(QPen(QColor(150, 150, 150), 1.0, Qt::DotLine));
    threshold_->point1->setCoords(0.0, attn::dates::kAlignedThreshold);
    threshold_->point2->setCoords(1.0, attn::dates::kAlignedThreshold);
    retranslate();
}

void AlignmentCurvePlot::retranslate()
{
    xAxis->setLabel(tr("Step"));
    yAxis->setLabel(tr("Alignment"));
    // The heads' colours are those of the bars under the live maps.
    setTitle(tr("Alignment, best head in black"));
    if (best_) best_->setName(tr("best head"));
    for (int l = 0; l < layers_; ++l)
        for (int h = 0; h < heads_; ++h) graph(l, h)->setName(tr("L%1 H%2").arg(l + 1).arg(h + 1));
    replot(QCustomPlot::rpQueuedReplot);
}

void AlignmentCurvePlot::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange) retranslate();
    PhaseMarkedPlot::changeEvent(event);
}

QCPGraph* AlignmentCurvePlot::graph(int layer, int head) const
{
    return graphs_[static_cast<std::size_t>(layer * heads_ + head)];
}

void AlignmentCurvePlot::reset(long steps, int layers, int heads)
{
    for (QCPGraph* g : graphs_) removeGraph(g);
    graphs_.clear();
    if (best_) removeGraph(best_);
    layers_ = layers;
    heads_ = heads;
    measures_ = 0;
    for (int i = 0; i < layers * heads; ++i) {
        QCPGraph* g = addGraph();
        g->setPen(QPen(trainHeadColor(i), 1.2));
        graphs_.push_back(g);
    }
    // Drawn last: over the heads' curves it follows.
    best_ = addGraph();
    best_->setPen(QPen(Qt::black, 2.4));
    best_->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, 4));
    xAxis->setRange(0, static_cast<double>(std::max(1L, steps)));
    yAxis->setRange(0, 1.02);
    setPhaseStep(-1);
    retranslate();
}

void AlignmentCurvePlot::update(const std::vector<attn::dates::Point>& measures)
{
    for (std::size_t i = measures_; i < measures.size(); ++i) {
        const attn::dates::Point& m = measures[i];
        const auto x = static_cast<double>(m.step);
        best_->addData(x, m.alignment.best);
        const auto& rows = m.alignment.heads;
        for (int l = 0; l < layers_ && static_cast<std::size_t>(l) < rows.size(); ++l) {
            const auto& layer = rows[static_cast<std::size_t>(l)];
            for (int h = 0; h < heads_ && static_cast<std::size_t>(h) < layer.size(); ++h)
                graph(l, h)->addData(x, layer[static_cast<std::size_t>(h)]);
        }
    }
    measures_ = measures.size();
    replot(QCustomPlot::rpQueuedReplot);
}

}  // namespace attnlab
