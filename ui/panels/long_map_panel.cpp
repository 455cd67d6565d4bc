// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/panels/long_map_panel.h"

#include <QAction>
#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QProgressBar>
#include <QPushButton>
#include <QSplitter>
#include <QStackedWidget>
#include <QVBoxLayout>

#include "ui/document/long_document.h"
#include "ui/panels/long_panel.h"

namespace attnlab {

namespace {

// Four decimals, or two significant digits for the tiny weights of a long row.
QString weightText(float w)
{
    return w == 0.0f || w >= 1e-4f ? QLocale().toString(w, 'f', 4) : QString::number(w, 'e', 2);
}

}  // namespace

LongMapPanel::LongMapPanel(LongDocument* doc, QWidget* parent) : QWidget(parent), doc_(doc)
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 0);
    buildProgressStrip();
    layout->addWidget(strip_);
    layout->addWidget(buildMapAndPanel(), 1);
    addRowKeys();
    connectParts();
    retranslate();
    showComputing(doc_->computing());
}

// The strip above the map while a computation runs: what it does, how far, cancel.
void LongMapPanel::buildProgressStrip()
{
    strip_ = new QWidget(this);
    auto* strip = new QHBoxLayout(strip_);
    strip->setContentsMargins(0, 0, 0, 0);
    stripText_ = new QLabel(strip_);
    progress_ = new QProgressBar(strip_);
    progress_->setRange(0, 1000);
    progress_->setTextVisible(true);
    cancel_ = new QPushButton(strip_);
    cancel_->setShortcut(QKeySequence(Qt::Key_Escape));
    strip->addWidget(stripText_);
    strip->addWidget(progress_, 1);
    strip->addWidget(cancel_);
    strip_->hide();
}

// The map (or, without one, the page that says why and offers to recompute) beside the panel.
QSplitter* LongMapPanel::buildMapAndPanel()
{
    auto* split = new QSplitter(Qt::Horizontal, this);
    pages_ = new QStackedWidget(split);
    map_ = new HeatmapView(pages_);
    map_->setObjectName(QStringLiteral("LongMap"));
    map_->setFocusPolicy(Qt::StrongFocus);
    pages_->addWidget(map_);
    auto* emptyPage = new QWidget(pages_);
    auto* emptyLayout = new QVBoxLayout(emptyPage);
    empty_ = new QLabel(emptyPage);
    empty_->setAlignment(Qt::AlignCenter);
    empty_->setWordWrap(true);
    recompute_ = new QPushButton(emptyPage);
    emptyLayout->addStretch(1);
    emptyLayout->addWidget(empty_);
    emptyLayout->addWidget(recompute_, 0, Qt::AlignHCenter);
    emptyLayout->addStretch(1);
    pages_->addWidget(emptyPage);
    panel_ = new LongPanel(doc_, split);
    panel_->setMinimumWidth(300);
    split->addWidget(pages_);
    split->addWidget(panel_);
    split->setStretchFactor(0, 1);
    split->setCollapsible(0, false);
    split->setCollapsible(1, false);
    return split;
}

void LongMapPanel::addRowKeys()
{
    // Arrows move the selected row while the map has the keyboard (the spin boxes keep theirs).
    const auto rowStep = [this](QKeySequence key, int step) {
        auto* action = new QAction(this);
        action->setShortcut(key);
        action->setShortcutContext(Qt::WidgetShortcut);
        connect(action, &QAction::triggered, this,
                [this, step] { doc_->selectRow(doc_->selectedRow() + step); });
        map_->addAction(action);
        return action;
    };
    previousRow_ = rowStep(QKeySequence(Qt::Key_Up), -1);
    nextRow_ = rowStep(QKeySequence(Qt::Key_Down), 1);
}

void LongMapPanel::connectParts()
{
    connect(cancel_, &QPushButton::clicked, doc_, &LongDocument::cancel);
    connect(recompute_, &QPushButton::clicked, doc_, &LongDocument::recompute);
    connect(doc_, &LongDocument::releasing, this, [this] {
        // The zoom outlives the map's memory: the same cells come back after the edit.
        keptView_ = KeptView{map_->xAxis->range(), map_->yAxis->range(), map_->content().rows(),
                             map_->content().cols()};
        map_->setContent(HeatmapContent{});
    });
    connect(doc_, &LongDocument::changed, this, &LongMapPanel::showResult);
    connect(doc_, &LongDocument::selectionChanged, this, [this] {
        if (map_->content().rows() > 0 && doc_->head() != shownHead_) showResult();
        map_->setSelection(doc_->selectedRow(), -1);
    });
    connect(doc_, &LongDocument::busyChanged, this, &LongMapPanel::showComputing);
    connect(doc_, &LongDocument::progressed, this,
            [this](double f) { progress_->setValue(static_cast<int>(f * 1000.0)); });
    connect(map_, &HeatmapView::cellHovered, this, &LongMapPanel::showHover);
    connect(map_, &HeatmapView::cellClicked, this,
            [this](int row, int, Qt::KeyboardModifiers) { doc_->selectRow(row); });
}

void LongMapPanel::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange) retranslate();
    QWidget::changeEvent(event);
}

void LongMapPanel::retranslate()
{
    previousRow_->setText(tr("Previous row"));
    nextRow_->setText(tr("Next row"));
    cancel_->setText(tr("Cancel"));
    cancel_->setToolTip(tr("Stop the computation (Esc)"));
    stripText_->setText(tr("Computing the weights in the background…"));
    recompute_->setText(tr("Compute again"));
    showResult();  // the map's title and the empty page's text
}

bool LongMapPanel::showsMap() const
{
    return pages_->currentWidget() == map_ && map_->content().rows() > 0;
}

bool LongMapPanel::showsProgress() const
{
    return !strip_->isHidden();
}

HeatmapContent LongMapPanel::content() const
{
    HeatmapContent c;
    const auto result = doc_->result();
    if (!result || result->heads.empty()) return c;
    const Session& s = doc_->session();
    const int h = std::min(doc_->head(), static_cast<int>(result->heads.size()) - 1);
    const attn::LongHead& hd = result->heads[static_cast<std::size_t>(h)];
    // Shares the result's ownership: the map reads the weights in place for as long as it
    // shows them, and the document asks for them back (releasing) before reusing the memory.
    c.floats = std::shared_ptr<const attn::MatrixT<float>>(result, &hd.weights);
    c.causal = result->maskKind == attn::MaskKind::Causal;
    c.rowLabels = shownLabelsFor(s.targetTokens, hd.weights.rows());
    c.columnLabels = shownLabelsFor(keyTokens(s), hd.weights.cols());
    c.title = tr("Attention weights P, head %1 (%2 × %3, float)")
                  .arg(h + 1)
                  .arg(QLocale().toString(static_cast<qint64>(hd.weights.rows())),
                       QLocale().toString(static_cast<qint64>(hd.weights.cols())));
    c.rowAxisTitle = tr("query (row)");
    c.columnAxisTitle = tr("key (column)");
    c.scale = ColorScale::Weights;
    return c;
}

void LongMapPanel::showResult()
{
    const bool has = doc_->result() != nullptr;
    if (has) {
        shownHead_ = doc_->head();
        map_->setContent(content());
        if (keptView_ && keptView_->rows == map_->content().rows() &&
            keptView_->cols == map_->content().cols()) {
            map_->xAxis->setRange(keptView_->x);
            map_->yAxis->setRange(keptView_->y);
            map_->zoom(1.0);  // ticks for the range, and a replot
        }
        keptView_.reset();
        map_->setSelection(doc_->selectedRow(), -1);
    } else if (map_->content().rows() > 0) {
        map_->setContent(HeatmapContent{});  // the session was closed
    }
    empty_->setText(doc_->computing()
                        ? (doc_->keepsMapWhileComputing()
                               ? tr("Computing the weights…")
                               : tr("Computing the weights… The map shown before made room for "
                                    "them: two maps of this size do not fit in the memory budget."))
                        : tr("There is no map: the computation was cancelled or refused."));
    recompute_->setVisible(!doc_->computing());
    pages_->setCurrentIndex(has ? 0 : 1);
}

void LongMapPanel::showComputing(bool computing)
{
    strip_->setVisible(computing);
    progress_->setValue(static_cast<int>(doc_->progress() * 1000.0));
    showResult();
}

void LongMapPanel::showHover(int row, int column)
{
    attn::VectorT<float> raw, scaled;
    const auto result = doc_->result();
    if (row < 0 || column < 0 || !result || !doc_->rowScores(row, raw, scaled)) {
        hover_.clear();
        Q_EMIT hoverTextChanged(hover_);
        return;
    }
    const Session& s = doc_->session();
    const attn::LongHead& hd = result->heads[static_cast<std::size_t>(doc_->head())];
    const QStringList& keys = keyTokens(s);
    const QLocale l;
    const bool masked = map_->content().isMasked(row, column);
    hover_ = tr("Query %1 “%2” → key %3 “%4”: weight %5 · score %6 · scaled %7")
                 .arg(row + 1)
                 .arg(row < s.targetTokens.size() ? shownLabel(s.targetTokens[row]) : QString())
                 .arg(column + 1)
                 .arg(column < keys.size() ? shownLabel(keys[column]) : QString(),
                      masked ? tr("masked") : weightText(hd.weights(row, column)),
                      l.toString(raw[column], 'f', 3), l.toString(scaled[column], 'f', 3));
    Q_EMIT hoverTextChanged(hover_);
}

}  // namespace attnlab
