// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/model/model_focus_panel.h"

#include <numeric>

#include <QContextMenuEvent>
#include <QHeaderView>
#include <QLabel>
#include <QMenu>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>

#include "ui/model/model_document.h"
#include "ui/views/heatmap_view.h"

namespace attnlab {

namespace {
constexpr int kKeysShown = 10;
}

ModelFocusPanel::ModelFocusPanel(ModelDocument* document, QWidget* parent)
    : QWidget(parent),
      document_(document),
      map_(new HeatmapView(this)),
      hover_(new QLabel(this)),
      rowTitle_(new QLabel(this)),
      keys_(new QTableWidget(this))
{
    setObjectName(QStringLiteral("modelFocus"));
    map_->setMinimumSize(240, 220);
    keys_->setMinimumHeight(60);
    hover_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    rowTitle_->setWordWrap(true);
    keys_->setColumnCount(2);
    keys_->setHorizontalHeaderLabels({tr("Key"), tr("Weight")});
    keys_->verticalHeader()->setVisible(false);
    keys_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    keys_->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
    keys_->horizontalHeader()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
    auto* lower = new QWidget(this);
    auto* lowerLayout = new QVBoxLayout(lower);
    lowerLayout->setContentsMargins(0, 0, 0, 0);
    lowerLayout->addWidget(rowTitle_);
    lowerLayout->addWidget(keys_, 1);
    auto* split = new QSplitter(Qt::Vertical, this);
    split->addWidget(map_);
    split->addWidget(lower);
    split->setStretchFactor(0, 4);
    split->setStretchFactor(1, 1);
    split->setSizes({480, 120});
    split->setChildrenCollapsible(false);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(split, 1);
    layout->addWidget(hover_);
    connect(document_, &ModelDocument::snapshotChanged, this, &ModelFocusPanel::refresh);
    connect(document_, &ModelDocument::selectionChanged, this, &ModelFocusPanel::refresh);
    connect(map_, &HeatmapView::cellClicked, this,
            [this](int row, int, Qt::KeyboardModifiers) { document_->selectQuery(row); });
    connect(map_, &HeatmapView::cellHovered, this, &ModelFocusPanel::showHover);
    map_->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(map_, &QWidget::customContextMenuRequested, this, &ModelFocusPanel::editMenu);
    refresh();
}

void ModelFocusPanel::refresh()
{
    const auto w = document_->focusedMatrix();
    const auto snap = document_->snapshot();
    HeatmapContent c;
    if (w && snap) {
        // Read in place by the view's pyramid (zoom pools it to the screen): no double copy of
        // a long text's map.
        c.floats = w;
        c.rowLabels = snap->labels;
        c.rowAxisTitle = tr("query");
        c.columnAxisTitle = tr("key");
        if (snap->wrote()) {
            // The tokens the model wrote are marked on both axes.
            for (qsizetype i = snap->writtenFrom(); i < c.rowLabels.size(); ++i)
                c.rowLabels[i] = QStringLiteral("▸") + c.rowLabels[i];
            c.rowAxisTitle = tr("query (▸ written by the model)");
            c.columnAxisTitle = tr("key (▸ written by the model)");
        }
        c.columnLabels = c.rowLabels;
        c.title = document_->focusTitle();
        c.scale = ColorScale::Weights;
        c.range = ValueRange(0.0, 1.0);
    }
    map_->setContent(std::move(c));
    map_->setSelection(document_->selection().query, -1);
    map_->setToolTip(w || !snap ? tr("Rows: queries; columns: keys. Click a row to list its "
                                     "strongest keys. Scroll to zoom.")
                                : document_->focusAbsence());
    showRow();
    showHover(hoverRow_, hoverColumn_);
}

void ModelFocusPanel::editMenu(const QPoint& pos)
{
    const ModelSelection& s = document_->selection();
    const auto snap = document_->snapshot();
    int row = -1, column = -1;
    if (!snap || s.focus != ModelFocus::Head || !map_->cellAtPosition(pos, row, column)) return;
    using Kind = attn::model::HeadEditKind;
    QMenu menu(this);
    menu.addSection(document_->focusTitle());
    const auto add = [&](const QString& text, Kind kind, long index, float scale) {
        menu.addAction(text, this, [this, s, kind, index, scale] {
            document_->scaleVector(kind, s.layer, s.head, index, scale);
        });
    };
    const QString key = tokenText(*snap, column);
    const QString query = tokenText(*snap, row);
    add(tr("Double Key %1 “%2”").arg(column + 1).arg(key), Kind::Key, column, 2.0f);
    add(tr("Halve Key %1 “%2”").arg(column + 1).arg(key), Kind::Key, column, 0.5f);
    add(tr("Double Value %1 “%2”").arg(column + 1).arg(key), Kind::Value, column, 2.0f);
    add(tr("Double Query %1 “%2”").arg(row + 1).arg(query), Kind::Query, row, 2.0f);
    if (snap->groupSize > 1) {
        // Grouped-query attention: the key and value belong to the key/value head the group
        // shares, so their edits reach every head of it.
        const int first = s.head / snap->groupSize * snap->groupSize;
        QAction* note = menu.addAction(
            tr("Key and value edits act on heads %1–%2 (they share this key/value head)")
                .arg(first + 1)
                .arg(first + snap->groupSize));
        note->setEnabled(false);
    }
    menu.addSeparator();
    QAction* restore = menu.addAction(tr("Restore This Head"), this,
                                      [this, s] { document_->restoreHead(s.layer, s.head); });
    restore->setEnabled(document_->headEdited(s.layer, s.head));
    if (document_->hasWorkbench())
        menu.addAction(tr("Open in &Workbench"), this,
                       [this, s] { document_->openInWorkbench(s.layer, s.head); });
    menu.exec(map_->mapToGlobal(pos));
}

void ModelFocusPanel::showRow()
{
    keys_->setRowCount(0);
    const auto w = document_->focusedMatrix();
    const auto snap = document_->snapshot();
    const int row = document_->selection().query;
    if (snap && !w) {
        rowTitle_->setText(document_->focusAbsence());
        return;
    }
    if (!w || !snap || row < 0 || row >= w->rows()) {
        rowTitle_->setText(tr("Click a row of the map to see which keys its query reads most."));
        return;
    }
    rowTitle_->setText(
        tr("Query %1 “%2” reads most from:").arg(row + 1).arg(tokenText(*snap, row)));
    std::vector<int> order(static_cast<std::size_t>(w->cols()));
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(),
                     [&](int a, int b) { return (*w)(row, a) > (*w)(row, b); });
    // Keys a causal mask hides (weight exactly 0) are not read at all: left out.
    int readable = 0;
    while (readable < static_cast<int>(order.size()) &&
           (*w)(row, order[static_cast<std::size_t>(readable)]) > 0.0f)
        ++readable;
    const int shown = std::min(kKeysShown, readable);
    keys_->setRowCount(shown);
    for (int k = 0; k < shown; ++k) {
        const int j = order[static_cast<std::size_t>(k)];
        auto* key = new QTableWidgetItem(tr("%1 “%2”").arg(j + 1).arg(tokenText(*snap, j)));
        key->setToolTip(tokenDetail(*snap, j));
        keys_->setItem(k, 0, key);
        keys_->setItem(k, 1, new QTableWidgetItem(QString::number((*w)(row, j), 'f', 4)));
    }
}

void ModelFocusPanel::showHover(int row, int column)
{
    hoverRow_ = row;
    hoverColumn_ = column;
    const auto w = document_->focusedMatrix();
    const auto snap = document_->snapshot();
    if (!w || !snap || row < 0 || column < 0 || row >= w->rows() || column >= w->cols()) {
        hover_->clear();
        return;
    }
    // One arg() call: a token spelling "%3" must not be taken for a place marker.
    QString text =
        tr("query %1 %2 → key %3 %4: %5")
            .arg(QString::number(row + 1), tokenDetail(*snap, row), QString::number(column + 1),
                 tokenDetail(*snap, column), QString::number((*w)(row, column), 'f', 4));
    // The score behind the weight, recomputed from the kept query and key.
    float score = 0.0f;
    if (column <= row && document_->focusedScore(row, column, score))
        text += tr(" (score q·k/√d_h %1)").arg(QString::number(score, 'f', 3));
    hover_->setText(text);
}

}  // namespace attnlab
