// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/model/model_change_panel.h"

#include <QHeaderView>
#include <QLabel>
#include <QTableWidget>
#include <QVBoxLayout>

#include "ui/model/run_source.h"
#include "ui/modelrun/model_snapshot.h"
#include "ui/views/color_scales.h"

namespace attnlab {

ModelChangePanel::ModelChangePanel(RunSource* document, QWidget* parent)
    : QWidget(parent),
      document_(document),
      changeTitle_(new QLabel(this)),
      change_(new QTableWidget(this))
{
    setObjectName(QStringLiteral("modelChange"));
    changeTitle_->setWordWrap(true);
    change_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    change_->setToolTip(
        tr("For each layer (row) and head (column): the largest change of one "
           "attention weight that the head edits caused"));
    change_->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    // Compact rows: a GPT-2-small grid (12 layers) fits without scrolling.
    const int row = std::max(10, fontMetrics().height() - 2);
    change_->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    change_->verticalHeader()->setDefaultSectionSize(row);
    change_->horizontalHeader()->setMinimumSectionSize(8);
    change_->setMinimumHeight(row * 6);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 0, 4, 4);
    layout->addWidget(changeTitle_);
    layout->addWidget(change_, 1);
    connect(document_, &RunSource::snapshotChanged, this, &ModelChangePanel::refresh);
    refresh();
}

int firstChangedLayer(const ModelSnapshot& snapshot)
{
    const int layers = static_cast<int>(snapshot.change.size());
    if (!snapshot.edits.empty()) {
        int first = layers;
        for (const attn::model::HeadEdit& e : snapshot.edits) first = std::min(first, e.layer);
        return std::clamp(first, 0, std::max(0, layers - 1));
    }
    // The workbench's head: the layers before its own see nothing of it.
    for (int l = 0; l < layers; ++l)
        for (const float v : snapshot.change[static_cast<std::size_t>(l)])
            if (isAttentionChange(v)) return l;
    return 0;
}

void ModelChangePanel::refresh()
{
    const auto snap = document_->snapshot();
    const bool shown = snap && snap->compared() && !snap->change.empty();
    setVisible(shown);
    if (!shown) return;
    const int layers = static_cast<int>(snap->change.size());
    const int heads = static_cast<int>(snap->change.front().size());
    const int first = firstChangedLayer(*snap);
    // Rounding noise is no change: it neither sets the scale nor takes a colour.
    float largest = 0.0f;
    for (const std::vector<float>& row : snap->change)
        for (const float v : row)
            if (isAttentionChange(v)) largest = std::max(largest, v);
    // The colours span this run's own changes: on a fixed 0 to 1 a change of 0.1 is barely
    // visible.
    const QString scale = largest > 0.0f
                              ? tr("colour from 0 to %1, the largest change; the value on hover")
                                    .arg(QString::number(static_cast<double>(largest), 'g', 3))
                              : tr("no weight changed");
    QString title;
    if (snap->fromWorkbench)
        title = tr("Largest change of a weight, per layer and head, since the workbench took this "
                   "head (%1):")
                    .arg(scale);
    else
        title = tr("Largest change of a weight, per layer and head (%n head edit(s); %1):", nullptr,
                   static_cast<int>(snap->edits.size()))
                    .arg(scale);
    // What cannot change first; the title ends with its colon right above the grid.
    if (first > 0)
        title = tr("%1 %2", "the layers before the edit, then the grid's title")
                    .arg(first == 1
                             ? tr("Layer 1 comes before the edit and does not change.")
                             : tr("Layers 1–%1 come before the edit and do not change.").arg(first),
                         title);
    changeTitle_->setText(title);
    change_->setRowCount(layers);
    change_->setColumnCount(heads);
    QStringList rows, columns;
    for (int l = 0; l < layers; ++l) rows << tr("L%1").arg(l + 1);
    for (int h = 0; h < heads; ++h) columns << tr("H%1").arg(h + 1);
    change_->setVerticalHeaderLabels(rows);
    change_->setHorizontalHeaderLabels(columns);
    const ColorLut& lut = colorLutFor(ColorScale::Weights);
    const ValueRange range(0.0, largest > 0.0f ? static_cast<double>(largest) : 1.0);
    for (int l = 0; l < layers; ++l) {
        // The grid starts at the edited layer: nothing before it changes.
        change_->setRowHidden(l, l < first);
        for (int h = 0; h < heads; ++h) {
            const float change =
                snap->change[static_cast<std::size_t>(l)][static_cast<std::size_t>(h)];
            const double v = static_cast<double>(change);
            // Colour only (a 12 x 12 grid has no room for numbers); the value on hover.
            auto* item = new QTableWidgetItem;
            item->setBackground(QColor(lut.color(isAttentionChange(change) ? v : 0.0, range)));
            item->setToolTip(tr("Layer %1, head %2: %3").arg(l + 1).arg(h + 1).arg(v, 0, 'f', 4));
            change_->setItem(l, h, item);
        }
    }
    change_->scrollToItem(change_->item(first, 0), QAbstractItemView::PositionAtTop);
}

}  // namespace attnlab
