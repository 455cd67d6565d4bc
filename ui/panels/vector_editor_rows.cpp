// SPDX-License-Identifier: GPL-3.0-or-later
// The rows of VectorEditorPanel: building the widgets and showing the document's values.
#include <algorithm>
#include <cmath>

#include <QDoubleSpinBox>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QScrollArea>
#include <QScrollBar>
#include <QSignalBlocker>
#include <QSlider>
#include <QToolButton>

#include "ui/document/document.h"
#include "ui/panels/vector_editor_panel.h"

namespace attnlab {
namespace {
constexpr double kStepsPerUnit = 100.0;  // slider steps of 0.01
constexpr double kDefaultLimit = 4.0;
constexpr int kFirstComponentColumn = 4;  // token, tag, ×2, Reset come first

int toSteps(double value)
{
    return static_cast<int>(std::lround(value * kStepsPerUnit));
}

// The slider's half-range: [-4, 4] unless the value lies outside.
int sliderLimit(double value)
{
    const double a = std::abs(value);
    if (!std::isfinite(a) || a <= kDefaultLimit) return toSteps(kDefaultLimit);
    return toSteps(std::min(std::ceil(a * 1.5), 1.0e6));
}
// The value a spin box holds after setValue(v): QDoubleSpinBox rounds to its decimals
// through the same decimal text.
double shownValue(double v, int decimals)
{
    return QString::number(v, 'f', decimals).toDouble();
}
}  // namespace

void VectorEditorPanel::rebuildRows()
{
    endDrag();  // a slider being dragged may be about to disappear
    rows_.clear();
    auto* w = new QWidget;
    auto* grid = new QGridLayout(w);
    grid->setHorizontalSpacing(6);
    addHeaderRow(grid, w);
    for (int r = 0; r < shownTokens_.size(); ++r) rows_.push_back(addTokenRow(grid, w, r));
    grid->setRowStretch(static_cast<int>(shownTokens_.size()) + 1, 1);
    grid->setColumnStretch(kFirstComponentColumn + static_cast<int>(shownComponents_.size()), 1);
    installRows(w);
}

void VectorEditorPanel::addHeaderRow(QGridLayout* grid, QWidget* w)
{
    grid->addWidget(new QLabel(tr("Token"), w), 0, 0);
    // The edit tag's column keeps its width whether or not a row is edited.
    grid->setColumnMinimumWidth(1, w->fontMetrics().horizontalAdvance(tr("×%1").arg(-0.25)) + 4);
    for (int i = 0; i < shownComponents_.size(); ++i) {
        auto* h = new QLabel(componentName(shownComponents_[i]), w);
        h->setAlignment(Qt::AlignCenter);
        grid->addWidget(h, 0, kFirstComponentColumn + i);
    }
}

// Row r + 1 of the grid: the token, its edit tag, a slider and spin box per shown component,
// then ×2 and Reset.
VectorEditorPanel::Row VectorEditorPanel::addTokenRow(QGridLayout* grid, QWidget* w, int r)
{
    Row row;
    const int token = shownTokens_[r];
    row.token = token;
    row.label = new QLabel(w);
    row.tag = new QLabel(w);
    grid->addWidget(row.label, r + 1, 0);
    grid->addWidget(row.tag, r + 1, 1);
    for (int i = 0; i < shownComponents_.size(); ++i) {
        QWidget* cell = addComponentCell(w, row, shownComponents_[i]);
        grid->addWidget(cell, r + 1, kFirstComponentColumn + i);
    }
    row.twice = new QToolButton(w);
    row.twice->setText(tr("×2"));
    row.twice->setToolTip(tr("Double the whole vector of %1").arg(tokenLabel(token)));
    row.reset = new QToolButton(w);
    row.reset->setText(tr("Reset"));
    row.reset->setToolTip(
        tr("Remove the edit: back to the projected vector of %1").arg(tokenLabel(token)));
    grid->addWidget(row.twice, r + 1, 2);
    grid->addWidget(row.reset, r + 1, 3);
    connect(row.twice, &QToolButton::clicked, this, [this, token] { doubleVector(token); });
    connect(row.reset, &QToolButton::clicked, this, [this, token] { resetVector(token); });
    return row;
}

// One component of one token: a slider for dragging, a spin box for typing.
QWidget* VectorEditorPanel::addComponentCell(QWidget* w, Row& row, int comp)
{
    const int token = row.token;
    auto* cell = new QWidget(w);
    auto* hl = new QHBoxLayout(cell);
    hl->setContentsMargins(0, 0, 0, 0);
    hl->setSpacing(2);
    auto* s = new QSlider(Qt::Horizontal, cell);
    s->setMinimumWidth(48);
    s->setSingleStep(1);
    s->setPageStep(25);
    s->setFocusPolicy(Qt::StrongFocus);
    s->installEventFilter(this);
    s->setToolTip(tr("%1 of %2").arg(componentName(comp), tokenLabel(token)));
    auto* sp = new QDoubleSpinBox(cell);
    sp->setDecimals(3);
    sp->setRange(-1.0e6, 1.0e6);
    sp->setSingleStep(0.1);
    sp->setKeyboardTracking(false);
    sp->setFocusPolicy(Qt::StrongFocus);
    sp->installEventFilter(this);
    sp->setToolTip(s->toolTip());
    sp->setMaximumWidth(74);
    hl->addWidget(s, 1);
    hl->addWidget(sp);
    connect(s, &QSlider::valueChanged, this, [this, s, token, comp](int steps) {
        setComponent(token, comp, steps / kStepsPerUnit, s->isSliderDown());
    });
    connect(s, &QSlider::sliderReleased, this, &VectorEditorPanel::endDrag);
    connect(sp, &QDoubleSpinBox::valueChanged, this,
            [this, token, comp](double v) { setComponent(token, comp, v, false); });
    row.sliders.push_back(s);
    row.spins.push_back(sp);
    return cell;
}

// The new rows replace the old in the scroll area, which is sized to show them.
void VectorEditorPanel::installRows(QWidget* w)
{
    QWidget* old = scroll_->takeWidget();
    scroll_->setWidget(w);
    scroll_->setMinimumWidth(w->minimumSizeHint().width() +
                             scroll_->verticalScrollBar()->sizeHint().width() +
                             2 * scroll_->frameWidth());
    // As tall as the rows, up to twelve of them; more scroll.
    const int shownRows = std::min(static_cast<int>(shownTokens_.size()), 12);
    scroll_->setMinimumHeight(
        std::min(w->minimumSizeHint().height(),
                 (shownRows + 1) * (w->fontMetrics().height() + 14) + 2 * scroll_->frameWidth()));
    rowsWidget_ = w;
    if (old != nullptr) old->deleteLater();
}

void VectorEditorPanel::refreshValues()
{
    const attn::Matrix* vec = vectors();
    const bool usable = vec != nullptr;
    const int head = doc_->head();
    for (Row& row : rows_) {
        const attn::VectorEdit* e =
            attn::findEdit(doc_->session().input.edits, role_, head, row.token);
        // Only what changed is set: each step of a drag refreshes every row, and setting a
        // text or font lays it out again even when it is the same.
        if (row.label->font().bold() != (e != nullptr)) {
            QFont f = row.label->font();
            f.setBold(e != nullptr);
            row.label->setFont(f);
        }
        row.label->setText(tokenLabel(row.token));
        row.label->setToolTip(tr("Token %1").arg(row.token + 1));
        // A short tag in a column of fixed width, so that an edit does not shift the sliders;
        // the tooltip says it in words.
        QString tag, tip;
        if (e != nullptr && e->scale != 1.0) {
            tag = tr("×%1").arg(e->scale);
            tip = tr("Edited: the vector is scaled by %1").arg(e->scale);
        } else if (e != nullptr) {
            tag = QStringLiteral("✎");
            tip = tr("Edited: some components are set by hand");
        }
        if (e != nullptr && e->scale != 1.0 && !e->overrides.empty())
            tip += QLatin1Char('\n') + tr("and some components are set by hand");
        row.tag->setText(tag);
        row.tag->setToolTip(tip);
        row.reset->setEnabled(usable && e != nullptr);
        row.twice->setEnabled(usable);
        const bool inRange = usable && row.token < vec->rows();
        for (std::size_t i = 0; i < row.sliders.size(); ++i) {
            const int comp = shownComponents_[static_cast<int>(i)];
            QSlider* s = row.sliders[i];
            QDoubleSpinBox* sp = row.spins[i];
            s->setEnabled(inRange && comp < vec->cols());
            sp->setEnabled(s->isEnabled());
            if (!s->isEnabled()) continue;
            const double v = (*vec)(row.token, comp);
            if (!s->isSliderDown()) {
                const QSignalBlocker block(s);
                const int limit = sliderLimit(v);
                if (s->maximum() != limit || s->minimum() != -limit) s->setRange(-limit, limit);
                s->setValue(toSteps(v));
            }
            // Keep text the user is typing (not yet committed).
            const bool typing = sp->hasFocus() && sp->cleanText() != sp->textFromValue(sp->value());
            if (!typing && sp->value() != shownValue(v, sp->decimals())) {
                const QSignalBlocker block(sp);
                sp->setValue(v);
            }
        }
    }
}

}  // namespace attnlab
