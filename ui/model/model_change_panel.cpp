#include "ui/model/model_change_panel.h"

#include <QHeaderView>
#include <QLabel>
#include <QTableWidget>
#include <QVBoxLayout>

#include "ui/model/model_snapshot.h"
#include "ui/model/run_source.h"
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

void ModelChangePanel::refresh()
{
    const auto snap = document_->snapshot();
    const bool shown = snap && snap->compared() && !snap->change.empty();
    setVisible(shown);
    if (!shown) return;
    if (snap->fromWorkbench)
        changeTitle_->setText(
            tr("Largest change of a weight, per layer and head, since the "
               "workbench took this head (colour from 0 to 1, the value on "
               "hover):"));
    else
        changeTitle_->setText(
            tr("Largest change of a weight, per layer and head (%n head edit(s); "
               "colour from 0 to 1, the value on hover):",
               nullptr, static_cast<int>(snap->edits.size())));
    const int layers = static_cast<int>(snap->change.size());
    const int heads = static_cast<int>(snap->change.front().size());
    change_->setRowCount(layers);
    change_->setColumnCount(heads);
    QStringList rows, columns;
    for (int l = 0; l < layers; ++l) rows << tr("L%1").arg(l + 1);
    for (int h = 0; h < heads; ++h) columns << tr("H%1").arg(h + 1);
    change_->setVerticalHeaderLabels(rows);
    change_->setHorizontalHeaderLabels(columns);
    const ColorLut& lut = colorLutFor(ColorScale::Weights);
    for (int l = 0; l < layers; ++l)
        for (int h = 0; h < heads; ++h) {
            const double v = snap->change[static_cast<std::size_t>(l)][static_cast<std::size_t>(h)];
            // Colour only (a 12 x 12 grid has no room for numbers); the value on hover.
            auto* item = new QTableWidgetItem;
            const QColor c(lut.color(v, QCPRange(0.0, 1.0)));
            item->setBackground(c);
            item->setToolTip(tr("Layer %1, head %2: %3").arg(l + 1).arg(h + 1).arg(v, 0, 'f', 4));
            change_->setItem(l, h, item);
        }
}

}  // namespace attnlab
