// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/model/translator_cross_view.h"

#include <QLabel>
#include <QStackedLayout>

#include "ui/export/model_map_figure.h"
#include "ui/views/heatmap_view.h"

namespace attnlab {

namespace {

attn::model::FloatMatrix headMatrix(const attn::gpt2::HeadMaps& maps, CrossHead head)
{
    return Eigen::Map<const attn::model::FloatMatrix>(maps.at(head.layer, head.head), maps.T,
                                                      maps.S);
}

bool holds(const attn::gpt2::HeadMaps& maps, CrossHead head)
{
    return !maps.empty() && head.layer >= 0 && head.layer < maps.layers && head.head >= 0 &&
           head.head < maps.heads;
}

}  // namespace

QStringList pieceLabels(const std::vector<std::string>& pieces)
{
    QStringList out;
    for (const std::string& p : pieces)
        out << QString::fromStdString(p).replace(QStringLiteral("▁"), QStringLiteral("␣"));
    return out;
}

Figure crossMapFigure(const attn::gpt2::HeadMaps& maps, CrossHead head, const QStringList& rows,
                      const QStringList& columns, const QString& title)
{
    return modelMapFigure(rows, columns, headMatrix(maps, head), title);
}

TranslatorCrossView::TranslatorCrossView(QWidget* parent)
    : QWidget(parent), map_(new HeatmapView), placeholder_(new QLabel), stack_(new QStackedLayout)
{
    setObjectName(QStringLiteral("translatorCrossView"));
    setMinimumSize(220, 160);
    setToolTip(
        tr("One cross-attention head on a fixed date, the target's pieces as rows and the "
           "source's as columns. As alignment forms, the month's row lights 十二月, the day's "
           "四 and the year's digits 二〇二六: a diagonal that crosses, since the year comes "
           "first in Chinese and last in English."));
    placeholder_->setAlignment(Qt::AlignCenter);
    placeholder_->setWordWrap(true);
    placeholder_->setText(tr("The cross-attention map of the example appears here."));
    stack_->setContentsMargins(0, 0, 0, 0);
    stack_->addWidget(placeholder_);
    stack_->addWidget(map_);
    setLayout(stack_);
}

void TranslatorCrossView::setLabels(const QStringList& rows, const QStringList& columns)
{
    rows_ = rows;
    columns_ = columns;
}

void TranslatorCrossView::setMaps(const MapsPtr& maps, CrossHead head, const QString& title)
{
    maps_ = maps;
    head_ = head;
    const bool fits =
        maps && holds(*maps, head) && maps->T == rows_.size() && maps->S == columns_.size();
    if (fits) {
        Figure f = crossMapFigure(*maps, head, rows_, columns_, QString());
        HeatmapContent c = std::move(f.panels.front());
        c.title = title;
        map_->setContent(std::move(c));
    }
    stack_->setCurrentIndex(fits ? 1 : 0);
}

bool translatorFilmStrip(const std::map<long, MapsPtr>& frames, const std::vector<long>& steps,
                         CrossHead head, const QStringList& rows, const QStringList& columns,
                         const QString& title, Figure& figure, QString& error)
{
    figure = Figure{};
    for (long s : steps) {
        const auto it = frames.find(s);
        if (it == frames.end() || !it->second || !holds(*it->second, head)) continue;
        Figure one = crossMapFigure(*it->second, head, rows, columns, QString());
        HeatmapContent panel = std::move(one.panels.front());
        panel.title = TranslatorCrossView::tr("step %1").arg(s);
        figure.panels.push_back(std::move(panel));
    }
    if (figure.panels.empty()) {
        error = TranslatorCrossView::tr(
            "No step of the film strip has been kept yet: train past one of its steps, or "
            "press Keep This Step.");
        return false;
    }
    figure.title = title;
    figure.caption =
        TranslatorCrossView::tr(
            "Layer %1 head %2's cross-attention as training goes on: rows the English target, "
            "columns the Chinese source; weights on [0, 1].")
            .arg(head.layer + 1)
            .arg(head.head + 1);
    figure.columns = static_cast<int>(figure.panels.size());
    return true;
}

}  // namespace attnlab
