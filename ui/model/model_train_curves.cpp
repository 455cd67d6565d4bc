// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/model/model_train_curves.h"

#include <algorithm>
#include <cmath>

namespace attnlab {

namespace {

const QColor kPhaseColor(200, 30, 30);

}  // namespace

QColor trainHeadColor(int index)
{
    static const QColor colors[] = {
        {31, 119, 180}, {255, 127, 14},  {44, 160, 44},   {214, 39, 40},  {148, 103, 189},
        {140, 86, 75},  {227, 119, 194}, {127, 127, 127}, {188, 189, 34}, {23, 190, 207}};
    return colors[index % 10];
}

namespace {

void setupPlot(QCustomPlot* plot)
{
    plot->setMinimumSize(240, 150);
    plot->xAxis->setRange(0, 10);
    plot->yAxis->setRange(0, 1);
    // Step numbers up to 100000 stay apart in a plot a third of a projector's width.
    plot->xAxis->ticker()->setTickCount(3);
    plot->xAxis->ticker()->setTickStepStrategy(QCPAxisTicker::tssMeetTickCount);
    plot->plotLayout()->insertRow(0);
    plot->plotLayout()->addElement(
        0, 0, new QCPTextElement(plot, QString(), QFont(plot->font().family(), 9)));
}

}  // namespace

PhaseMarkedPlot::PhaseMarkedPlot(QWidget* parent) : QCustomPlot(parent)
{
    setupPlot(this);
    line_ = new QCPItemStraightLine(this);
    line_->setPen(QPen(kPhaseColor, 1.5, Qt::DashLine));
    // The words stand above the plotting area, on the line's top end: no curve is drawn
    // there, whatever the run does (inside the area the loss or the copy accuracy ran through
    // them sooner or later, and in a narrow plot "phase change" had no room beside the line).
    label_ = new QCPItemText(this);
    label_->setClipToAxisRect(false);
    label_->setColor(kPhaseColor);
    label_->setPositionAlignment(Qt::AlignHCenter | Qt::AlignBottom);
    label_->position->setTypeX(QCPItemPosition::ptPlotCoords);
    label_->position->setTypeY(QCPItemPosition::ptAbsolute);
    label_->setFont(QFont(font().family(), 8));
    label_->setPadding(QMargins(2, 0, 2, 0));
    setPhaseStep(-1);
    retranslateMark();
    // After the layout: the axes' room is that of this replot, not the last one's.
    connect(this, &QCustomPlot::afterLayout, this, &PhaseMarkedPlot::placeLabel);
}

double PhaseMarkedPlot::labelHeight() const
{
    // From the label's own box: a Chinese label's fallback font is taller than the plot
    // font's metrics say.
    return label_->bottomRight->pixelPosition().y() - label_->topLeft->pixelPosition().y();
}

void PhaseMarkedPlot::placeLabel()
{
    if (phase_ < 0) return;
    const QRectF area = axisRect()->rect();
    const double width =
        label_->bottomRight->pixelPosition().x() - label_->topLeft->pixelPosition().x();
    // Centred on the line, kept within the area's width near its ends (a phase change at the
    // first or last steps): the axes' numbers are beside the area.
    const double line = xAxis->coordToPixel(static_cast<double>(phase_));
    const double centre = width >= area.width()
                              ? area.center().x()
                              : std::clamp(line, area.left() + width / 2, area.right() - width / 2);
    // Two pixels clear of the area's top edge, where a curve at its maximum is drawn.
    label_->position->setCoords(xAxis->pixelToCoord(centre), area.top() - 2);
}

void PhaseMarkedPlot::setTitle(const QString& title)
{
    if (auto* t = qobject_cast<QCPTextElement*>(plotLayout()->element(0, 0))) t->setText(title);
}

void PhaseMarkedPlot::setPhaseStep(long step)
{
    phase_ = step;
    const bool shown = step >= 0;
    line_->setVisible(shown);
    label_->setVisible(shown);
    // The room above the area that the words stand in.
    axisRect()->setMinimumMargins(
        QMargins(0, shown ? static_cast<int>(std::ceil(labelHeight())) + 3 : 0, 0, 0));
    if (shown) {
        line_->point1->setCoords(static_cast<double>(step), 0.0);
        line_->point2->setCoords(static_cast<double>(step), 1.0);
    }
    replot(QCustomPlot::rpQueuedReplot);
}

void PhaseMarkedPlot::setMark(Mark mark)
{
    mark_ = mark;
    retranslateMark();
}

void PhaseMarkedPlot::retranslateMark()
{
    label_->setText(mark_ == Mark::PhaseChange ? tr(" phase change").trimmed()
                                               : tr("alignment forms"));
    setPhaseStep(phase_);  // the room above the area follows the words' height
}

void PhaseMarkedPlot::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange) retranslateMark();
    QCustomPlot::changeEvent(event);
}

TrainingCurvePlot::TrainingCurvePlot(QWidget* parent) : PhaseMarkedPlot(parent)
{
    setObjectName(QStringLiteral("modelTrainLossPlot"));
    loss_ = addGraph();
    loss_->setPen(QPen(QColor(31, 119, 180), 1.2));
    loss_->setAdaptiveSampling(true);
    yAxis2->setVisible(true);
    yAxis2->setRange(0, 1);
    accuracy_ = addGraph(xAxis, yAxis2);
    accuracy_->setPen(QPen(QColor(44, 160, 44), 2.0));
    accuracy_->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, 4));
    // The axes' labels in their curves' colours say which is which, where a legend would
    // cover a curve (the loss runs high on the left, the accuracy high on the right).
    yAxis->setLabelColor(loss_->pen().color());
    yAxis2->setLabelColor(accuracy_->pen().color());
    retranslate();
}

void TrainingCurvePlot::retranslate()
{
    xAxis->setLabel(tr("Step"));
    yAxis->setLabel(tr("Loss"));
    loss_->setName(tr("loss"));
    if (kind_ == Accuracy::ExactMatch) {
        yAxis2->setLabel(tr("Exact match"));
        accuracy_->setName(tr("exact match"));
        setTitle(tr("Loss and exact match"));
    } else {
        yAxis2->setLabel(tr("Copy accuracy"));
        accuracy_->setName(tr("copy accuracy"));
        setTitle(kind_ == Accuracy::Copy ? tr("Loss and copy accuracy") : tr("Loss"));
    }
    replot(QCustomPlot::rpQueuedReplot);
}

void TrainingCurvePlot::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange) retranslate();
    PhaseMarkedPlot::changeEvent(event);
}

void TrainingCurvePlot::reset(long steps, Accuracy accuracy)
{
    loss_->data()->clear();
    accuracy_->data()->clear();
    losses_ = measures_ = 0;
    lo_ = 1e300;
    hi_ = -1e300;
    kind_ = accuracy;
    accuracy_->setVisible(accuracy != Accuracy::None);
    yAxis2->setVisible(accuracy != Accuracy::None);
    retranslate();
    xAxis->setRange(0, static_cast<double>(std::max(1L, steps)));
    yAxis->setRange(0, 1);
    setPhaseStep(-1);
}

void TrainingCurvePlot::update(const std::vector<double>& losses,
                               const std::vector<std::pair<long, double>>& accuracy)
{
    QVector<double> x, y;
    for (std::size_t k = losses_; k < losses.size(); ++k) {
        x.push_back(static_cast<double>(k + 1));
        y.push_back(losses[k]);
        lo_ = std::min(lo_, losses[k]);
        hi_ = std::max(hi_, losses[k]);
    }
    losses_ = losses.size();
    loss_->addData(x, y, true);
    x.clear();
    y.clear();
    for (std::size_t i = measures_; i < accuracy.size(); ++i) {
        x.push_back(static_cast<double>(accuracy[i].first));
        y.push_back(accuracy[i].second);
    }
    measures_ = accuracy.size();
    accuracy_->addData(x, y, true);
    if (hi_ >= lo_) yAxis->setRange(std::max(0.0, lo_ - 0.1), hi_ + 0.1);
    replot(QCustomPlot::rpQueuedReplot);
}

HeadScoreCurvePlot::HeadScoreCurvePlot(QWidget* parent) : PhaseMarkedPlot(parent)
{
    setObjectName(QStringLiteral("modelTrainHeadPlot"));
    retranslate();
}

void HeadScoreCurvePlot::retranslate()
{
    xAxis->setLabel(tr("Step"));
    yAxis->setLabel(tr("Score"));
    // The heads' colours are those of the bars under the live grid's maps.
    setTitle(tr("Induction (solid), previous token (dashed)"));
    for (int l = 0; l < layers_; ++l)
        for (int h = 0; h < heads_; ++h)
            graph(l, h, true)->setName(tr("L%1 H%2").arg(l + 1).arg(h + 1));
    replot(QCustomPlot::rpQueuedReplot);
}

void HeadScoreCurvePlot::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange) retranslate();
    PhaseMarkedPlot::changeEvent(event);
}

QCPGraph* HeadScoreCurvePlot::graph(int layer, int head, bool induction) const
{
    return graphs_[static_cast<std::size_t>(2 * (layer * heads_ + head) + (induction ? 0 : 1))];
}

void HeadScoreCurvePlot::reset(long steps, int layers, int heads)
{
    for (QCPGraph* g : graphs_) removeGraph(g);
    graphs_.clear();
    layers_ = layers;
    heads_ = heads;
    measures_ = 0;
    for (int l = 0; l < layers; ++l) {
        for (int h = 0; h < heads; ++h) {
            const QColor c = trainHeadColor(l * heads + h);
            QCPGraph* induction = addGraph();
            induction->setPen(QPen(c, 2.0));
            QCPGraph* previous = addGraph();
            previous->setPen(QPen(c, 1.2, Qt::DashLine));
            graphs_.push_back(induction);
            graphs_.push_back(previous);
        }
    }
    xAxis->setRange(0, static_cast<double>(std::max(1L, steps)));
    yAxis->setRange(0, 1);
    setPhaseStep(-1);
    retranslate();
}

void HeadScoreCurvePlot::update(const std::vector<attn::gpt2::Measure>& measures)
{
    for (std::size_t i = measures_; i < measures.size(); ++i) {
        const attn::gpt2::Measure& m = measures[i];
        const auto x = static_cast<double>(m.step);
        for (int l = 0; l < layers_ && static_cast<std::size_t>(l) < m.heads.size(); ++l) {
            const auto& layer = m.heads[static_cast<std::size_t>(l)];
            for (int h = 0; h < heads_ && static_cast<std::size_t>(h) < layer.size(); ++h) {
                graph(l, h, true)->addData(x, layer[static_cast<std::size_t>(h)].induction);
                graph(l, h, false)->addData(x, layer[static_cast<std::size_t>(h)].previousToken);
            }
        }
    }
    measures_ = measures.size();
    replot(QCustomPlot::rpQueuedReplot);
}

}  // namespace attnlab
