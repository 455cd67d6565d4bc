// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/panels/walkthrough_panel.h"

#include <algorithm>
#include <cmath>

#include <QGridLayout>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QPushButton>
#include <QToolButton>
#include <QVBoxLayout>

#include "ui/document/document.h"
#include "ui/views/heatmap_labels.h"
#include "ui/views/heatmap_view.h"
#include "ui/views/lazy_refresh.h"

namespace attnlab {

namespace {

// Where each stage sits: step 1 (X, Q, K, V) in the upper row, steps 2..5 in the lower one.
int rowOfStage(int stage)
{
    return stage <= static_cast<int>(Stage::V) ? 0 : 1;
}
// How much more room the current step's maps (and their row) get than the others.
constexpr int kCurrentStretch = 5;

}  // namespace

WalkthroughPanel::WalkthroughPanel(Document* document, QWidget* parent)
    : QWidget(parent), document_(document), baseFont_(font())
{
    setFocusPolicy(Qt::StrongFocus);
    auto* layout = new QVBoxLayout(this);

    addNavigation(layout);

    caption_ = new QLabel(this);
    caption_->setObjectName(QStringLiteral("walkthroughCaption"));
    caption_->setWordWrap(true);
    caption_->setTextFormat(Qt::PlainText);
    layout->addWidget(caption_);

    addMaps(layout);

    // Nine maps and captions: redraw only while shown (retranslate() ends in updateStep(),
    // which replots; on every slider step that is 13% of the window's time while hidden).
    auto* lazy = new LazyRefresh(this, [this] {
        retranslate();
        rebuild();
    });
    connect(document_, &Document::changed, lazy, &LazyRefresh::request);
    connect(document_, &Document::selectionChanged, lazy, &LazyRefresh::request);
    step_ = std::clamp(document_->view().walkthroughStep, 1, static_cast<int>(StepCount));
    retranslate();
    applyFonts();
    rebuild();
}

void WalkthroughPanel::addNavigation(QVBoxLayout* layout)
{
    auto* bar = new QHBoxLayout;
    back_ = new QPushButton(this);
    next_ = new QPushButton(this);
    indicator_ = new QLabel(this);
    indicator_->setObjectName(QStringLiteral("walkthroughIndicator"));
    bar->addWidget(back_);
    bar->addWidget(indicator_);
    bar->addWidget(next_);
    // The step buttons have a row of their own: on one row with the rest the walkthrough would
    // be 843 px wide at least, which squeezes every dock of a 1366-px window.
    auto* steps = new QHBoxLayout;
    for (int s = 1; s <= StepCount; ++s) {
        auto* b = new QToolButton(this);
        b->setCheckable(true);
        b->setAutoRaise(true);
        connect(b, &QToolButton::clicked, this, [this, s] { setStep(s); });
        stepButtons_[static_cast<std::size_t>(s - 1)] = b;
        steps->addWidget(b);
    }
    steps->addStretch(1);
    bar->addStretch(1);
    presenter_ = new QPushButton(this);
    bar->addWidget(presenter_);
    // Buttons never take the focus: the arrow keys belong to the walkthrough.
    for (QPushButton* b : {back_, next_, presenter_}) b->setFocusPolicy(Qt::NoFocus);
    for (QAbstractButton* b : stepButtons_) b->setFocusPolicy(Qt::NoFocus);
    connect(back_, &QPushButton::clicked, this, &WalkthroughPanel::back);
    connect(next_, &QPushButton::clicked, this, &WalkthroughPanel::next);
    connect(presenter_, &QPushButton::clicked, this, &WalkthroughPanel::presenterRequested);
    layout->addLayout(bar);
    layout->addLayout(steps);
}

void WalkthroughPanel::addMaps(QVBoxLayout* layout)
{
    // Step 1's four maps in a grid (one row, or two by two while they are the current step),
    // steps 2..5 in a row under them.
    rows_ = new QVBoxLayout;
    top_ = new QGridLayout;
    bottom_ = new QHBoxLayout;
    rows_->addLayout(top_, 1);
    rows_->addLayout(bottom_, 1);
    for (std::size_t r = 0; r < rowNotes_.size(); ++r) {
        // Shown instead of a row of thumbnails too low to read.
        auto* note = new QLabel(this);
        note->setObjectName(QStringLiteral("walkthroughRowNote"));
        note->setWordWrap(true);
        note->setEnabled(false);
        note->hide();
        if (r == 0)
            top_->addWidget(note, 2, 0, 1, 4);
        else
            bottom_->addWidget(note, 1);
        rowNotes_[r] = note;
    }
    for (int s = 0; s < StageCount; ++s) {
        const auto i = static_cast<std::size_t>(s);
        auto* card = new QFrame(this);
        card->setObjectName(QStringLiteral("walkthroughCard"));
        auto* cardLayout = new QVBoxLayout(card);
        cardLayout->setContentsMargins(4, 4, 4, 4);
        auto* view = new HeatmapView(card);
        view->setMinimumSize(90, 80);
        view->colorScale()->setBarWidth(8);
        auto* placeholder = new QLabel(card);
        placeholder->setAlignment(Qt::AlignCenter);
        placeholder->setWordWrap(true);  // its text must not widen the card
        placeholder->setEnabled(false);  // drawn greyed out
        placeholder->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
        cardLayout->addWidget(view);
        cardLayout->addWidget(placeholder);
        cards_[i] = card;
        views_[i] = view;
        placeholders_[i] = placeholder;
        if (rowOfStage(s) == 1) bottom_->addWidget(card, 1);
    }
    layout->addLayout(rows_, 1);
}

int WalkthroughPanel::stepOfStage(int stage)
{
    if (stage < 0 || stage >= StageCount) return StepCount + 1;
    switch (static_cast<Stage>(stage)) {
    case Stage::X:
    case Stage::Q:
    case Stage::K:
    case Stage::V: return 1;
    case Stage::Scores: return 2;
    case Stage::Scaled: return 3;
    case Stage::Mask:
    case Stage::Weights: return 4;
    case Stage::Output: return 5;
    default: return StepCount + 1;
    }
}

HeatmapView* WalkthroughPanel::stageView(int stage) const
{
    if (stage < 0 || stage >= StageCount) return nullptr;
    return views_[static_cast<std::size_t>(stage)];
}

QFont WalkthroughPanel::captionFont() const
{
    return caption_->font();
}

void WalkthroughPanel::setStep(int step)
{
    step = std::clamp(step, 1, StepCount);
    if (step == step_) return;
    step_ = step;
    document_->setWalkthroughStep(step_);  // kept by the document: survives a language switch
    updateStep();
    Q_EMIT stepChanged(step_);
}

void WalkthroughPanel::next()
{
    setStep(step_ + 1);
}

void WalkthroughPanel::back()
{
    setStep(step_ - 1);
}

void WalkthroughPanel::setPresenterButtonVisible(bool visible)
{
    presenter_->setVisible(visible);
}

void WalkthroughPanel::setFontScale(double scale)
{
    fontScale_ = std::max(0.5, scale);
    applyFonts();
}

void WalkthroughPanel::keyPressEvent(QKeyEvent* event)
{
    switch (event->key()) {
    case Qt::Key_Right:
    case Qt::Key_PageDown:
    case Qt::Key_Space: next(); break;
    case Qt::Key_Left:
    case Qt::Key_PageUp:
    case Qt::Key_Backspace: back(); break;
    case Qt::Key_Home: first(); break;
    case Qt::Key_End: last(); break;
    default: QWidget::keyPressEvent(event); return;
    }
    event->accept();
}

void WalkthroughPanel::showEvent(QShowEvent* event)
{
    QWidget::showEvent(event);
    setFocus(Qt::OtherFocusReason);  // so that the arrow keys step at once
}

void WalkthroughPanel::changeEvent(QEvent* event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::LanguageChange) {
        retranslate();
        rebuild();
    }
}

void WalkthroughPanel::retranslate()
{
    back_->setText(tr("◀ Back"));
    back_->setToolTip(tr("Previous step (Left, Page Up)"));
    next_->setText(tr("Next ▶"));
    next_->setToolTip(tr("Next step (Right, Page Down)"));
    presenter_->setText(tr("Presenter view"));
    presenter_->setToolTip(tr("Show the walkthrough full screen with large fonts (F5)"));
    for (int s = 1; s <= StepCount; ++s)
        stepButtons_[static_cast<std::size_t>(s - 1)]->setText(tr("%1 %2").arg(s).arg(stepName(s)));
    // One label per step: the mask belongs to step 4, whose label the P card carries.
    for (int s = 0; s < StageCount; ++s)
        placeholders_[static_cast<std::size_t>(s)]->setText(
            s == static_cast<int>(Stage::Mask)
                ? tr("The mask, applied before the softmax")
                : tr("Step %1: %2").arg(stepOfStage(s)).arg(stageName(s)));
    rowNotes_[0]->setText(
        tr("Step 1's X, Q, K and V are hidden to leave room for this step "
           "(Home shows them)."));
    rowNotes_[1]->setText(
        tr("Steps 2 to 5 follow: the scores S, their scaling, the softmax "
           "with the mask into P, and the output O."));
    updateStep();
}

void WalkthroughPanel::updateStep()
{
    caption_->setText(caption());
    indicator_->setText(stepIndicator());
    back_->setEnabled(step_ > 1);
    next_->setEnabled(step_ < StepCount);
    for (int s = 1; s <= StepCount; ++s)
        stepButtons_[static_cast<std::size_t>(s - 1)]->setChecked(s == step_);
    // The current step's maps take the space; the others shrink to thumbnails.
    const int currentRow = step_ == 1 ? 0 : 1;
    // At step 1 the lower row holds only placeholders of what is to come: a note says it, and
    // step 1's four maps get the whole height.
    const bool collapse = step_ == 1 || otherRowTooLow();
    for (int r = 0; r < 2; ++r) {
        const bool folded = collapse && r != currentRow;
        rows_->setStretch(r, r == currentRow ? kCurrentStretch : (folded ? 0 : 1));
        rowNotes_[static_cast<std::size_t>(r)]->setVisible(folded);
    }
    placeTopCards(step_ == 1 && twoByTwoReadsBetter());
    const int thumbnail = thumbnailHeight();
    for (int s = 0; s < StageCount; ++s) {
        const auto i = static_cast<std::size_t>(s);
        if (rowOfStage(s) == 1)
            bottom_->setStretchFactor(cards_[i], isCurrent(s) ? kCurrentStretch : 1);
        // The other row keeps legible thumbnails (by stretch alone they are 30 px high at
        // 1366 x 768, their maps lines and their titles cut), or is folded away with a note.
        const bool other = rowOfStage(s) != currentRow;
        cards_[i]->setVisible(!(collapse && other));
        cards_[i]->setMinimumHeight(other && !collapse ? thumbnail : 0);
        // Earlier steps shrink to thumbnails: their labels would cover their cells.
        views_[i]->setLabelsShown(isCurrent(s));
        views_[i]->setVisible(isRevealed(s));
        placeholders_[i]->setVisible(!isRevealed(s));
        cards_[i]->setStyleSheet(
            isCurrent(s) ? QStringLiteral("QFrame#walkthroughCard { border: 3px solid #e07b00; "
                                          "border-radius: 6px; background: #fff6e8; }")
                         : QStringLiteral("QFrame#walkthroughCard { border: 1px solid #c8c8c8; "
                                          "border-radius: 6px; }"));
    }
}

void WalkthroughPanel::placeTopCards(bool twoByTwo)
{
    // Four maps side by side leave each a quarter of a landscape screen: narrow cells where
    // no value fits. Two by two, each is twice as wide.
    for (int k = 0; k < 4; ++k) {
        QFrame* card = cards_[static_cast<std::size_t>(k)];
        const int row = twoByTwo ? k / 2 : 0;
        const int column = twoByTwo ? k % 2 : k;
        int r = -1, c = -1, rs = 0, cs = 0;
        const int at = top_->indexOf(card);
        if (at >= 0) top_->getItemPosition(at, &r, &c, &rs, &cs);
        if (r == row && c == column) continue;
        top_->removeWidget(card);
        top_->addWidget(card, row, column);
    }
    for (int c = 0; c < 4; ++c) top_->setColumnStretch(c, twoByTwo && c >= 2 ? 0 : 1);
    top_->setRowStretch(0, 1);
    top_->setRowStretch(1, twoByTwo ? 1 : 0);
}

bool WalkthroughPanel::twoByTwoReadsBetter() const
{
    // Side by side is the natural order (X, then its three projections). Two by two only when
    // the cells side by side would be too narrow for a value ("-0.0" at the smallest legible
    // size) after each map's row labels, axis title and colour bar.
    const attn::HeadResult* hr = document_->currentHead();
    const QRect area = rows_->geometry().isValid() ? rows_->geometry() : rect();
    if (!hr || area.isEmpty()) return false;
    const QFontMetrics fm(scaledFont(baseFont_, mapFontScale()));
    const double across = 7.5 * fm.horizontalAdvance(QLatin1Char('M')) + 60.0;
    const long cols = std::max({document_->session().input.X.cols(), hr->Q.cols(), hr->V.cols()});
    QFont smallest = baseFont_;
    smallest.setPixelSize(kSmallestLabelPixels);
    const double needed = QFontMetrics(smallest).horizontalAdvance(QStringLiteral("-0.0")) + 4.0;
    const double sideBySide = (area.width() / 4.0 - across) / double(std::max(1L, cols));
    // Two rows of maps need the height of two labelled maps: under the Keys or Trainer panels
    // they would be strips.
    const bool tallEnough = area.height() >= 2 * (thumbnailHeight() + 4 * fm.height());
    return sideBySide < needed && tallEnough;
}

int WalkthroughPanel::thumbnailHeight() const
{
    // A title line and a few rows of cells, and never less than a card's own minimum (a
    // view's, and the card's margins): a card lower than that cuts its map off.
    const QFontMetrics fm(scaledFont(baseFont_, mapFontScale()));
    int least = 0;
    for (const QFrame* card : cards_)
        if (card->layout()) least = std::max(least, card->layout()->minimumSize().height());
    return std::max(4 * fm.height() + 24, least + 2);
}

bool WalkthroughPanel::otherRowTooLow() const
{
    // The current step keeps at least two thirds of the height.
    const int rowsHeight = rows_->geometry().height();
    return rowsHeight > 0 && rowsHeight < 3 * thumbnailHeight();
}

void WalkthroughPanel::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    // The layout already has the new size (QLayout sees the resize first).
    const bool folded = rowNotes_[0]->isVisibleTo(this) || rowNotes_[1]->isVisibleTo(this);
    if (folded != (step_ == 1 || otherRowTooLow()))
        updateStep();
    else if (step_ == 1)
        placeTopCards(twoByTwoReadsBetter());
}

double WalkthroughPanel::mapFontScale() const
{
    // The maps' labels grow less than the captions (×1.6 for ×2) so that they still fit.
    return 1.0 + 0.6 * (fontScale_ - 1.0);
}

void WalkthroughPanel::applyFonts()
{
    caption_->setFont(scaledFont(baseFont_, 1.25 * fontScale_));
    QFont indicator = scaledFont(baseFont_, 1.1 * fontScale_);
    indicator.setBold(true);
    indicator_->setFont(indicator);
    const QFont normal = scaledFont(baseFont_, fontScale_);
    for (QWidget* w : {static_cast<QWidget*>(back_), static_cast<QWidget*>(next_),
                       static_cast<QWidget*>(presenter_)})
        w->setFont(normal);
    for (QAbstractButton* b : stepButtons_) b->setFont(normal);
    for (QLabel* p : placeholders_) p->setFont(normal);
    for (QLabel* n : rowNotes_) n->setFont(normal);
    // Each map fits its labels and values to this font (heatmap_labels.h).
    for (HeatmapView* v : views_) v->setFont(scaledFont(baseFont_, mapFontScale()));
}

}  // namespace attnlab
