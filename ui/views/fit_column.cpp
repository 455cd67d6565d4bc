// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/views/fit_column.h"

#include <algorithm>

#include <QScrollArea>
#include <QScrollBar>
#include <QStyle>

namespace attnlab {

void fitScrollColumn(QScrollArea* scroll)
{
    QWidget* controls = scroll->widget();
    // Room for a scroll bar too: on a screen too low for the column it scrolls, and the bar
    // must not cover the words' ends.
    const int bar = scroll->style()->pixelMetric(QStyle::PM_ScrollBarExtent);
    scroll->setMinimumWidth(controls->minimumSizeHint().width() + bar);
    // Wrapped words need the height of their width. A dock squeezed below it (the model
    // window makes room for a model opened above the trainer) scrolled the buttons out of
    // view.
    const int width = std::max(scroll->viewport()->width(), scroll->minimumWidth() - bar);
    int height = controls->minimumSizeHint().height();
    if (controls->hasHeightForWidth()) height = std::max(height, controls->heightForWidth(width));
    scroll->setMinimumHeight(height);
}

}  // namespace attnlab
