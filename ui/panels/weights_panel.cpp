// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/panels/weights_panel.h"

#include <QKeyEvent>
#include <QLabel>
#include <QToolTip>
#include <QVBoxLayout>

#include "ui/document/cell_info.h"
#include "ui/document/document.h"
#include "ui/views/heatmap_view.h"
#include "ui/views/lazy_refresh.h"
#include "ui/views/screen_only.h"
#include "ui/views/stage_content.h"

namespace attnlab {

HeatmapContent weightsContent(const Document& doc)
{
    HeatmapContent c;
    fillWeightsContent(doc, c);
    return c;
}

void fillWeightsContent(const Document& doc, HeatmapContent& c, std::optional<RowRange> rows)
{
    const attn::HeadResult* hr = doc.currentHead();
    if (hr == nullptr) {
        c = HeatmapContent();
        return;
    }
    const Session& s = doc.session();
    if (rows && c.values.rows() == hr->weights.rows() && c.values.cols() == hr->weights.cols() &&
        c.mask) {
        const int count = rows->end - rows->first;
        if (count > 0)
            c.values.middleRows(rows->first, count) = hr->weights.middleRows(rows->first, count);
        c.changedRows = rows;
    } else {
        c.values = hr->weights;
        c.mask = hr->mask;
        c.changedRows.reset();
    }
    c.fullyMaskedRows = hr->diagnostics.fullyMasked;
    c.rowLabels = shownLabelsFor(s.targetTokens, hr->weights.rows());
    c.columnLabels = shownLabelsFor(keyTokens(s), hr->weights.cols());
    c.title = WeightsPanel::tr("Attention weights P — head %1, %2 (%3 × %4)")
                  .arg(doc.head() + 1)
                  .arg(modeTitle(s.input.mode))
                  .arg(hr->weights.rows())
                  .arg(hr->weights.cols());
    c.rowAxisTitle = WeightsPanel::tr("query");
    c.columnAxisTitle = WeightsPanel::tr("key");
    c.scale = ColorScale::Weights;
    c.range.reset();
}

void applyWeightColors(HeatmapContent& c, WeightColors colors, std::optional<RowRange> rows)
{
    const int first = rows ? rows->first : 0;
    const int end = rows ? rows->end : static_cast<int>(c.values.rows());
    // Only what is drawn changes: hover readouts and exports of numbers read the weights.
    switch (colors) {
    case WeightColors::Fixed: c.range = ValueRange(0.0, 1.0); break;  // the colour bar says so
    case WeightColors::DataRange: {
        const double lo = c.values.size() ? c.values.minCoeff() : 0.0;
        const double hi = c.values.size() ? c.values.maxCoeff() : 1.0;
        c.range = ValueRange(lo, hi > lo ? hi : lo + 1e-12);
        c.title += QLatin1String(" · ") + WeightsPanel::tr("colours: this map's range");
        break;
    }
    case WeightColors::PerRow:
        for (long i = first; i < end; ++i) {
            const double top = c.values.row(i).maxCoeff();
            if (top > 0) c.values.row(i) /= top;
        }
        c.range = ValueRange(0.0, 1.0);
        c.title +=
            QLatin1String(" · ") + WeightsPanel::tr("colours: each row / its largest weight");
        break;
    case WeightColors::Log:
        if (end > first)
            c.values.middleRows(first, end - first) =
                c.values.middleRows(first, end - first).cwiseMax(1e-4).array().log10().matrix();
        c.range = ValueRange(-4.0, 0.0);
        c.title += QLatin1String(" · ") + WeightsPanel::tr("colours: log₁₀ weight on [−4, 0]");
        break;
    }
}

WeightsPanel::WeightsPanel(Document* doc, Kind kind, QWidget* parent)
    : QWidget(parent), doc_(doc), kind_(kind)
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    // A line of its own above the map, not drawn over it: it never covers a title or a label.
    badge_ = new QLabel(this);
    badge_->setObjectName(QStringLiteral("PinBadge"));
    badge_->setTextFormat(Qt::PlainText);
    badge_->setWordWrap(true);
    badge_->setStyleSheet(
        QStringLiteral("QLabel#PinBadge { background: #fff3c4; color: #4a3b00; border: 1px solid "
                       "#d9b400; border-radius: 4px; padding: 2px 8px; margin: 2px 4px; }"));
    badge_->setToolTip(
        tr("The Difference map and the row inspector compare with these pinned weights. "
           "Ctrl+P or Attention ▸ Pin weights unpins them."));
    badge_->hide();
    markScreenOnly(badge_);  // about the window's state, not part of an exported picture
    note_ = new QLabel(this);
    note_->setObjectName(QStringLiteral("NothingPinned"));
    note_->setWordWrap(true);
    note_->setTextFormat(Qt::RichText);
    note_->setAlignment(Qt::AlignCenter);
    note_->setMargin(24);
    note_->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Expanding);
    note_->setVisible(false);
    view_ = new HeatmapView(this);
    layout->addWidget(badge_);
    layout->addWidget(note_, 1);
    layout->addWidget(view_, 1);
    setFocusPolicy(Qt::StrongFocus);
    view_->setFocusProxy(this);
    if (kind_ == Kind::Weights) {
        // A status tip, not a tooltip: the tooltip shows the hovered cell's numbers.
        view_->setStatusTip(
            tr("Click a cell to select its query row and key column. Ctrl+click "
               "masks or unmasks the cell. Arrow keys move the selection."));
    }
    connect(view_, &HeatmapView::cellHovered, this, &WeightsPanel::onHover);
    connect(view_, &HeatmapView::cellClicked, this, &WeightsPanel::onClick);
    auto* lazy = new LazyRefresh(this, [this] { rebuild(); });
    connect(doc_, &Document::changed, lazy, &LazyRefresh::request);
    connect(doc_, &Document::pinChanged, lazy, &LazyRefresh::request);
    connect(doc_, &Document::viewChanged, lazy, &LazyRefresh::request);
    connect(doc_, &Document::selectionChanged, this,
            [this] { view_->setSelection(doc_->selectedRow(), doc_->selectedColumn()); });
    // The badge is one line of text: kept current even while the tab is hidden.
    // The description names the steps around the pin: it follows pushes, undo and redo (an
    // edit publishes its snapshot before its step is pushed).
    connect(doc_, &Document::pinChanged, this, &WeightsPanel::updateBadge);
    connect(doc_->undoStack(), &QUndoStack::indexChanged, this, &WeightsPanel::updateBadge);
    updateBadge();
    rebuild();
}

void WeightsPanel::updateBadge()
{
    const QString text = doc_->pinDescription();
    badge_->setText(text);
    badge_->setVisible(!text.isEmpty());
}

void WeightsPanel::rebuild()
{
    HeatmapContent c = view_->recycleBuffers();
    // One vector edit since the shown snapshot, on the shown head and colouring: only the rows
    // it changed are copied and recoloured (a query edit: one row; a key edit: every row that
    // may attend to the key).
    const MapChange& change = doc_->lastChange();
    const WeightColors colors = doc_->view().colors;
    std::optional<RowRange> rows;
    if (kind_ == Kind::Weights && shown_.valid && !change.whole &&
        change.serial == shown_.serial + 1 && shown_.head == doc_->head() &&
        shown_.colors == colors && colors != WeightColors::DataRange)
        rows = change.head == doc_->head() ? RowRange{change.firstRow, change.endRow} : RowRange{};
    fillWeightsContent(*doc_, c, rows);
    if (kind_ == Kind::Weights) applyWeightColors(c, colors, c.changedRows);
    shown_ = Shown{change.serial, doc_->head(), colors, doc_->currentHead() != nullptr};
    if (kind_ == Kind::Difference && doc_->currentHead()) {
        // The difference is one of the stages (stage_content.h), against the pinned weights.
        std::vector<attn::Matrix> before(doc_->result().heads.size());
        const auto h = static_cast<std::size_t>(doc_->head());
        if (doc_->pinnedWeights() && h < before.size()) before[h] = *doc_->pinnedWeights();
        const StageSource source{&doc_->session(), &doc_->result(), &before};
        const bool usable =
            buildStage(source, doc_->head(), Stage::Difference, StageTitle::Full, c);
        // A map of zeros on a colour bar of ±1e-12 (nothing pinned) or ±1e-6 (nothing changed
        // yet) says nothing: say what is missing instead.
        const bool unchanged =
            usable && c.values.size() > 0 && c.values.cwiseAbs().maxCoeff() < 5e-7;
        note_->setVisible(!usable || unchanged);
        view_->setVisible(usable && !unchanged);
        const QString title = usable ? tr("No change since the pin") : tr("Nothing pinned");
        const QString how =
            usable ? tr("Edit now, for example ×2 on a key (Ctrl+D): this map then shows how "
                        "every row's weights moved (after − before).")
                   : tr("Pin the weights (Attention ▸ Pin weights, Ctrl+P), then edit, for "
                        "example ×2 on a key (Ctrl+D): this map shows how every row's weights "
                        "moved (after − before).");
        note_->setText(QStringLiteral("<p style='font-size:large'><b>%1</b></p><p>%2</p>")
                           .arg(title.toHtmlEscaped(), how.toHtmlEscaped()));
    }
    view_->setContent(std::move(c));
    view_->setSelection(doc_->selectedRow(), doc_->selectedColumn());
    // The readout of the cell under the mouse follows the new numbers (an edit, a Ctrl+click
    // mask) without waiting for the mouse to move.
    if (view_->hoveredRow() >= 0) {
        const QString text = hoverText(view_->hoveredRow(), view_->hoveredColumn());
        if (QToolTip::isVisible()) QToolTip::showText(QCursor::pos(), text, view_);
        Q_EMIT hoverTextChanged(text);
    }
}

QString WeightsPanel::hoverText(int row, int column) const
{
    QString text = describeCell(*doc_, row, column);
    if (kind_ == Kind::Difference && !text.isEmpty()) {
        const auto& pinned = doc_->pinnedWeights();
        const attn::HeadResult* hr = doc_->currentHead();
        if (pinned && hr && pinned->rows() == hr->weights.rows() &&
            pinned->cols() == hr->weights.cols()) {
            text += QLatin1Char('\n') +
                    tr("before = %1, change = %2")
                        .arg((*pinned)(row, column), 0, 'f', 6)
                        .arg(hr->weights(row, column) - (*pinned)(row, column), 0, 'f', 6);
        }
    }
    return text;
}

void WeightsPanel::onHover(int row, int column)
{
    const QString text = row < 0 ? QString() : hoverText(row, column);
    if (text.isEmpty())
        QToolTip::hideText();
    else
        QToolTip::showText(QCursor::pos(), text, view_);
    Q_EMIT hoverTextChanged(text);
}

void WeightsPanel::onClick(int row, int column, Qt::KeyboardModifiers modifiers)
{
    if (kind_ == Kind::Weights && (modifiers & Qt::ControlModifier)) {
        toggleMaskCell(row, column);
        return;
    }
    doc_->select(row, column);
    setFocus();
}

void WeightsPanel::toggleMaskCell(int row, int column)
{
    doc_->toggleMaskCell(row, column);
}

void WeightsPanel::keyPressEvent(QKeyEvent* event)
{
    int row = doc_->selectedRow();
    int col = doc_->selectedColumn();
    switch (event->key()) {
    case Qt::Key_Up: --row; break;
    case Qt::Key_Down: ++row; break;
    case Qt::Key_Left: --col; break;
    case Qt::Key_Right: ++col; break;
    default: QWidget::keyPressEvent(event); return;
    }
    doc_->select(row, col);
}

}  // namespace attnlab
