// SPDX-License-Identifier: GPL-3.0-or-later
// Pointing at the row inspector's bars: the selected key's band, the hover text of a bar and a
// click that selects its key (the panel's plots are built and filled in row_inspector_panel.cpp).
#include <cmath>

#include <QMouseEvent>
#include <QToolTip>
#include <qcustomplot.h>

#include "ui/document/document.h"
#include "ui/panels/row_inspector_panel.h"

namespace attnlab {

namespace {

QString threeDecimals(double v)
{
    return QString::number(v, 'f', 3);
}

}  // namespace

void RowInspectorPanel::updateSelectedColumn()
{
    const int col = document_->selectedColumn();
    const bool visible = row_ >= 0 && col >= 0 && col < weights_.size();
    for (QCPItemRect* band : {scoreColumnBand_, weightColumnBand_}) {
        band->setVisible(visible);
        band->topLeft->setCoords(col - 0.5, 0.0);
        band->bottomRight->setCoords(col + 0.5, 1.0);
    }
}

bool RowInspectorPanel::eventFilter(QObject* watched, QEvent* event)
{
    // Labels are thinned and rotated, and bars outlined or not, for the plot's width.
    if (watched == plot_ && event->type() == QEvent::Resize) {
        updateTicks();
        styleBars(static_cast<int>(weights_.size()));
        fitToWidth();
    }
    return QWidget::eventFilter(watched, event);
}

int RowInspectorPanel::columnAt(const QPoint& pos) const
{
    for (QCPAxisRect* rect : {scoreRect_, weightRect_}) {
        if (!rect->rect().contains(pos)) continue;
        const int col =
            static_cast<int>(std::lround(rect->axis(QCPAxis::atBottom)->pixelToCoord(pos.x())));
        if (col >= 0 && col < weights_.size()) return col;
    }
    return -1;
}

void RowInspectorPanel::onMouseMove(QMouseEvent* event)
{
    const int j = columnAt(event->pos());
    if (j < 0) {
        QToolTip::hideText();
        return;
    }
    QString text = tr("Key “%1” (position %2)\nscaled score: %3\nweight: %4")
                       .arg(keys_.value(j))
                       .arg(j + 1)
                       .arg(threeDecimals(scores_[j]))
                       .arg(threeDecimals(weights_[j]));
    if (!pinned_.isEmpty())
        text += tr("\npinned weight: %1 (change %2)")
                    .arg(threeDecimals(pinned_[j]))
                    .arg(threeDecimals(weights_[j] - pinned_[j]));
    if (!allowed_[j]) text += tr("\nmasked: this key is not attended");
    QToolTip::showText(event->globalPosition().toPoint(), text, plot_);
}

void RowInspectorPanel::onMousePress(QMouseEvent* event)
{
    const int j = columnAt(event->pos());
    if (event->button() == Qt::LeftButton && j >= 0) document_->select(row_, j);
}

}  // namespace attnlab
