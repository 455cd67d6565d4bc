// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/panels/heads_grid_panel.h"

#include <algorithm>

#include <QEvent>
#include <QFrame>
#include <QGridLayout>
#include <QLabel>
#include <QScrollArea>
#include <QVBoxLayout>

#include "ui/document/document.h"
#include "ui/views/heatmap_view.h"
#include "ui/views/lazy_refresh.h"
#include "ui/views/stage_content.h"

namespace attnlab {

namespace {

int columnsFor(int heads)
{
    if (heads <= 2) return std::max(heads, 1);
    if (heads <= 4) return 2;
    if (heads <= 9) return 3;
    return 4;
}

}  // namespace

HeadsGridPanel::HeadsGridPanel(Document* document, QWidget* parent)
    : QWidget(parent), document_(document)
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    auto* caption = new QLabel(tr("Each head has its own softmax budget per query. Click a head "
                                  "to inspect it; the framed one is current."),
                               this);
    caption->setWordWrap(true);
    caption->setObjectName(QStringLiteral("panelCaption"));  // the presenter view hides it
    layout->addWidget(caption);
    auto* scroll = new QScrollArea(this);
    scroll->setWidgetResizable(true);
    auto* content = new QWidget(scroll);
    auto* contentLayout = new QVBoxLayout(content);
    // The heads take the room (the presenter view has a whole screen), the output less.
    grid_ = new QGridLayout;
    contentLayout->addLayout(grid_, 3);
    output_ = new HeatmapView(content);
    output_->setMinimumSize(240, 160);
    contentLayout->addWidget(output_, 2);
    scroll->setWidget(content);
    layout->addWidget(scroll, 1);

    connect(output_, &HeatmapView::cellClicked, this, [this](int row, int, Qt::KeyboardModifiers) {
        document_->select(row, document_->selectedColumn());
    });
    auto* lazy = new LazyRefresh(this, [this] { rebuild(); });
    connect(document_, &Document::changed, lazy, &LazyRefresh::request);
    connect(document_, &Document::selectionChanged, this, &HeadsGridPanel::updateSelection);
    rebuild();
}

HeatmapView* HeadsGridPanel::headMap(int head) const
{
    if (head < 0 || head >= headMapCount()) return nullptr;
    return maps_[static_cast<std::size_t>(head)];
}

void HeadsGridPanel::resizeGrid(int heads)
{
    if (static_cast<int>(maps_.size()) == heads) return;
    for (QFrame* f : frames_) {
        grid_->removeWidget(f);
        f->hide();
        f->deleteLater();
    }
    frames_.clear();
    maps_.clear();
    const int columns = columnsFor(heads);
    auto* parent = output_->parentWidget();
    for (int h = 0; h < heads; ++h) {
        auto* frame = new QFrame(parent);
        frame->setObjectName(QStringLiteral("headFrame"));
        auto* frameLayout = new QVBoxLayout(frame);
        frameLayout->setContentsMargins(3, 3, 3, 3);
        auto* map = new HeatmapView(frame);
        // Values are printed where they fit (heatmap_labels.h), so a small grid of big maps
        // shows them and a large grid of small ones does not.
        map->setMinimumSize(200, 180);
        map->setToolTip(tr("Click to inspect head %1").arg(h + 1));
        map->setFont(font());
        frameLayout->addWidget(map);
        grid_->addWidget(frame, h / columns, h % columns);
        connect(map, &HeatmapView::cellClicked, this,
                [this, h](int row, int col, Qt::KeyboardModifiers) {
                    document_->setHead(h);
                    document_->select(row, col);
                });
        frames_.push_back(frame);
        maps_.push_back(map);
    }
}

void HeadsGridPanel::rebuild()
{
    if (!document_->hasResult()) return;
    const attn::AttentionResult& result = document_->result();
    const Session& session = document_->session();
    const int heads = static_cast<int>(result.heads.size());
    resizeGrid(heads);
    for (int h = 0; h < heads; ++h) {
        const attn::HeadResult& hr = result.heads[static_cast<std::size_t>(h)];
        HeatmapContent c;
        c.values = hr.weights;
        if (hr.mask.rows() == hr.weights.rows() && hr.mask.cols() == hr.weights.cols())
            c.mask = hr.mask;
        c.fullyMaskedRows = hr.diagnostics.fullyMasked;
        c.rowLabels = shownLabelsFor(session.targetTokens, hr.weights.rows());
        c.columnLabels = shownLabelsFor(keyTokens(session), hr.weights.cols());
        c.title = tr("Head %1").arg(h + 1);
        c.scale = ColorScale::Weights;
        maps_[static_cast<std::size_t>(h)]->setContent(c);
    }

    HeatmapContent out;
    buildStage(StageSource{&session, &result}, 0, Stage::Combined, StageTitle::Full, out);
    output_->setContent(out);
    updateSelection();
}

void HeadsGridPanel::changeEvent(QEvent* event)
{
    QWidget::changeEvent(event);
    // A frame with a style sheet keeps the font it had when the sheet was set: a new font
    // (the presenter's, larger) reaches the head maps only when it is handed to them.
    if (event->type() != QEvent::FontChange) return;
    for (HeatmapView* map : maps_) map->setFont(font());
}

void HeadsGridPanel::updateSelection()
{
    const int current = document_->head();
    for (int h = 0; h < headMapCount(); ++h) {
        const bool isCurrent = h == current;
        frames_[static_cast<std::size_t>(h)]->setStyleSheet(
            isCurrent ? QStringLiteral("QFrame#headFrame { border: 2px solid #d04040; }")
                      : QStringLiteral("QFrame#headFrame { border: 2px solid transparent; }"));
        maps_[static_cast<std::size_t>(h)]->setSelection(document_->selectedRow(),
                                                         document_->selectedColumn());
    }
    output_->setSelection(document_->selectedRow(), -1);
}

}  // namespace attnlab
