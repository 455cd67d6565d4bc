#include "ui/panels/walkthrough_panel.h"

#include <algorithm>
#include <cmath>

#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QPushButton>
#include <QToolButton>
#include <QVBoxLayout>

#include "ui/document/document.h"
#include "ui/views/heatmap_view.h"
#include "ui/views/lazy_refresh.h"

namespace attnlab {

namespace {

QFont scaledFont(QFont font, double factor)
{
    if (font.pointSizeF() > 0)
        font.setPointSizeF(font.pointSizeF() * factor);
    else if (font.pixelSize() > 0)
        font.setPixelSize(std::max(1, static_cast<int>(std::lround(font.pixelSize() * factor))));
    return font;
}

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

    auto* bar = new QHBoxLayout;
    back_ = new QPushButton(this);
    next_ = new QPushButton(this);
    indicator_ = new QLabel(this);
    indicator_->setObjectName(QStringLiteral("walkthroughIndicator"));
    bar->addWidget(back_);
    bar->addWidget(indicator_);
    bar->addWidget(next_);
    // The step buttons have a row of their own: on one row with the rest the walkthrough was
    // 843 px wide at least, which squeezed every dock of a 1366-px window.
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

    caption_ = new QLabel(this);
    caption_->setObjectName(QStringLiteral("walkthroughCaption"));
    caption_->setWordWrap(true);
    caption_->setTextFormat(Qt::PlainText);
    layout->addWidget(caption_);

    rows_ = new QVBoxLayout;
    std::array<QHBoxLayout*, 2> rowLayouts{new QHBoxLayout, new QHBoxLayout};
    for (QHBoxLayout* row : rowLayouts) rows_->addLayout(row, 1);
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
        placeholder->setEnabled(false);  // drawn greyed out
        placeholder->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
        cardLayout->addWidget(view);
        cardLayout->addWidget(placeholder);
        connect(view, &QCustomPlot::beforeReplot, this, [this, view] { applyViewFonts(view); });
        cards_[i] = card;
        views_[i] = view;
        placeholders_[i] = placeholder;
        rowLayouts[static_cast<std::size_t>(rowOfStage(s))]->addWidget(card, 1);
    }
    layout->addLayout(rows_, 1);

    // Nine maps and captions: redraw only while shown (retranslate() ends in updateStep(),
    // which replots; on every slider step it took 13% of the window's time while hidden).
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
    for (int s = 0; s < StageCount; ++s)
        placeholders_[static_cast<std::size_t>(s)]->setText(
            tr("Step %1: %2").arg(stepOfStage(s)).arg(stageName(s)));
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
    for (int r = 0; r < 2; ++r) rows_->setStretch(r, r == currentRow ? kCurrentStretch : 1);
    for (int s = 0; s < StageCount; ++s) {
        const auto i = static_cast<std::size_t>(s);
        auto* row = static_cast<QHBoxLayout*>(rows_->itemAt(rowOfStage(s))->layout());
        row->setStretchFactor(cards_[i], isCurrent(s) ? kCurrentStretch : 1);
        // Earlier steps shrink to thumbnails: their tick labels would cover their cells.
        HeatmapView* view = views_[i];
        const bool big = isCurrent(s);
        if (view->xAxis->tickLabels() != big) {
            for (QCPAxis* axis : {view->xAxis, view->yAxis, view->colorScale()->axis()})
                axis->setTickLabels(big);
            view->replot(QCustomPlot::rpQueuedReplot);
        }
        views_[i]->setVisible(isRevealed(s));
        placeholders_[i]->setVisible(!isRevealed(s));
        cards_[i]->setStyleSheet(
            isCurrent(s) ? QStringLiteral("QFrame#walkthroughCard { border: 3px solid #e07b00; "
                                          "border-radius: 6px; background: #fff6e8; }")
                         : QStringLiteral("QFrame#walkthroughCard { border: 1px solid #c8c8c8; "
                                          "border-radius: 6px; }"));
    }
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
    for (HeatmapView* v : views_) {
        v->setFont(scaledFont(baseFont_, mapFontScale()));
        applyViewFonts(v);
        v->replot(QCustomPlot::rpQueuedReplot);
    }
}

void WalkthroughPanel::applyViewFonts(HeatmapView* view) const
{
    const QFont f = scaledFont(baseFont_, mapFontScale());
    QFont bold = scaledFont(baseFont_, mapFontScale() * 1.1);
    bold.setBold(true);
    for (QCPAxis* axis : {view->xAxis, view->yAxis, view->colorScale()->axis()}) {
        if (axis->tickLabelFont() != f) axis->setTickLabelFont(f);
        if (axis->labelFont() != f) axis->setLabelFont(f);
    }
    for (QCPLayoutElement* e : view->plotLayout()->elements(true)) {
        if (auto* title = qobject_cast<QCPTextElement*>(e); title && title->font() != bold)
            title->setFont(bold);
    }
    // The value texts in the cells are recreated with each content or size change.
    for (int i = 0; i < view->itemCount(); ++i) {
        if (auto* t = qobject_cast<QCPItemText*>(view->item(i)); t && t->font() != f) t->setFont(f);
    }
}

}  // namespace attnlab
