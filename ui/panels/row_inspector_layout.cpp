// SPDX-License-Identifier: GPL-3.0-or-later
// The row inspector's plot layout: the scores' and the weights' titles and plots, the softmax
// caption and the legend, fitted to the dock's width (the bars are filled in
// row_inspector_panel.cpp, pointed at in row_inspector_pointer.cpp).
#include <vector>

#include <qcustomplot.h>

#include "ui/panels/row_inspector_panel.h"

namespace attnlab {

namespace {
constexpr int kSideMargin = 6;  // room kept free on each side of a caption or legend row
}  // namespace

void RowInspectorPanel::setupAxisRects()
{
    // Layout: the scores' title and plot, a caption, the weights' title and plot, the legend.
    // The titles sit above their plots, not along their axes: a plot a panel this small
    // gives is shorter than "score (unscaled)". A margin group keeps the two key axes aligned
    // bar for bar.
    scoreRect_ = plot_->axisRect();
    weightRect_ = new QCPAxisRect(plot_);
    auto title = [this] {
        auto* t = new QCPTextElement(plot_);
        t->setTextFlags(Qt::AlignLeft | Qt::AlignVCenter);
        t->setTextColor(QColor(0x40, 0x40, 0x40));
        t->setMargins(QMargins(6, 2, 6, 0));
        return t;
    };
    scoreTitle_ = title();
    weightTitle_ = title();
    weightTitle_->setText(tr("weight"));
    softmaxCaption_ = new QCPTextElement(plot_);
    softmaxCaption_->setTextColor(QColor(0x40, 0x40, 0x40));
    plot_->plotLayout()->insertRow(0);
    plot_->plotLayout()->addElement(0, 0, scoreTitle_);
    plot_->plotLayout()->addElement(2, 0, softmaxCaption_);
    plot_->plotLayout()->addElement(3, 0, weightTitle_);
    plot_->plotLayout()->addElement(4, 0, weightRect_);
    scoreRect_->insetLayout()->take(plot_->legend);
    plot_->plotLayout()->addElement(5, 0, plot_->legend);
    plot_->legend->setFillOrder(QCPLegend::foColumnsFirst);
    plot_->legend->setBorderPen(Qt::NoPen);
    plot_->legend->setVisible(true);
    plot_->plotLayout()->setRowStretchFactors({0.01, 2.0, 0.01, 0.01, 3.0, 0.01});
    auto* group = new QCPMarginGroup(plot_);
    scoreRect_->setMarginGroup(QCP::msLeft | QCP::msRight, group);
    weightRect_->setMarginGroup(QCP::msLeft | QCP::msRight, group);
    for (QCPAxisRect* r : {scoreRect_, weightRect_}) {
        r->setMinimumSize(40, 28);
        r->axis(QCPAxis::atBottom)->grid()->setVisible(false);
        r->setRangeDrag(Qt::Orientations());
        r->setRangeZoom(Qt::Orientations());
    }
    scoreRect_->axis(QCPAxis::atBottom)->setTickLabels(false);
    weightRect_->axis(QCPAxis::atBottom)->setLabel(tr("key"));
}

void RowInspectorPanel::placeLegend(bool shown)
{
    // "weights now" alone says nothing the teal bars do not: the legend takes a row of the
    // plot only when it tells pinned or masked bars apart (a small dock needs the height).
    QCPLayoutGrid* grid = plot_->plotLayout();
    const bool placed = plot_->legend->layout() == grid;
    if (shown == placed) return;
    if (shown) {
        grid->addElement(5, 0, plot_->legend);
        grid->setRowStretchFactors({0.01, 2.0, 0.01, 0.01, 3.0, 0.01});
    } else {
        grid->take(plot_->legend);
        grid->simplify();
        grid->setRowStretchFactors({0.01, 2.0, 0.01, 0.01, 3.0});
    }
    plot_->legend->setVisible(shown);
    fitted_ = {};
}

void RowInspectorPanel::fitToWidth()
{
    // The caption and the legend break into lines rather than run past a narrow dock. Each
    // slider step rebuilds the panel: lay the texts out again only when something changed.
    const QPair<int, int> fit{plot_->width(), plot_->legend->itemCount()};
    if (fit == fitted_ && !softmaxCaption_->text().isEmpty()) return;
    fitted_ = fit;
    const QString formula = tr("↓ softmax:  w_j = exp(s_j) / Σ_k exp(s_k)");
    const QString sum = tr("(the weights sum to 1)");
    const QString line = formula + QStringLiteral("   ") + sum;
    const int room = plot_->width() - 2 * kSideMargin;
    const QFontMetrics fm(softmaxCaption_->font());
    // Where the line does not fit, the sum goes to the weights' title: a second caption line
    // would take the height the bars need.
    const bool oneLine = fm.horizontalAdvance(line) <= room;
    softmaxCaption_->setText(oneLine ? line : formula);
    weightTitle_->setText(oneLine ? tr("weight") : tr("weight") + QStringLiteral("  ") + sum);
    QCPLegend* legend = plot_->legend;
    std::vector<int> widths;  // the items in order; empty cells of the grid are null
    for (int i = 0; i < legend->elementCount(); ++i)
        if (const QCPAbstractLegendItem* item = legend->item(i))
            widths.push_back(item->minimumOuterSizeHint().width());
    // Items fill rows of `c` columns; a column is as wide as its widest item. Use the most
    // columns that fit.
    int columns = 1;
    for (int c = static_cast<int>(widths.size()); c > 1; --c) {
        std::vector<int> columnWidth(static_cast<std::size_t>(c), 0);
        for (std::size_t i = 0; i < widths.size(); ++i) {
            int& w = columnWidth[i % static_cast<std::size_t>(c)];
            w = std::max(w, widths[i]);
        }
        int total = legend->columnSpacing() * (c - 1) + legend->margins().left() +
                    legend->margins().right();
        for (int w : columnWidth) total += w;
        if (total <= room) {
            columns = c;
            break;
        }
    }
    if (legend->wrap() != columns) {
        legend->setWrap(columns);
        legend->setFillOrder(legend->fillOrder(), true);  // rearranges the items
    }
}

}  // namespace attnlab
