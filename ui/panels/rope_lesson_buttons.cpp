// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/panels/rope_lesson_buttons.h"

#include <QEvent>
#include <QHBoxLayout>
#include <QPushButton>
#include <QVBoxLayout>

#include "ui/document/document.h"

namespace attnlab {

const std::vector<double>& RopeLessonButtons::thetas()
{
    static const std::vector<double> steps{10000.0, 100.0, 10.0, 1.0};
    return steps;
}

RopeLessonButtons::RopeLessonButtons(Document* doc, QWidget* parent) : QWidget(parent), doc_(doc)
{
    setObjectName(QStringLiteral("ropeLessonButtons"));
    // Two rows (off and the first theta, then the smaller thetas): one button a line left the
    // last ones below the fold of the lesson dock at 1366x768.
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 4, 0, 4);
    QHBoxLayout* rows[2] = {new QHBoxLayout, new QHBoxLayout};
    for (QHBoxLayout* r : rows) layout->addLayout(r);
    for (std::size_t k = 0; k <= thetas().size(); ++k) {
        auto* b = new QPushButton(this);
        buttons_.push_back(b);
        rows[k < 2 ? 0 : 1]->addWidget(b);
        connect(b, &QPushButton::clicked, this, [this, k] {
            std::optional<attn::Rope> rope;
            if (k > 0) {
                // The session's own scaling, if any, with the step's theta.
                rope = doc_->session().input.rope.value_or(attn::Rope{});
                rope->theta = thetas()[k - 1];
            }
            // Pressed again: nothing changes, so no undo step either.
            if (rope != doc_->session().input.rope) doc_->setRope(rope);
        });
    }
    for (QHBoxLayout* r : rows) r->addStretch(1);
    retranslate();
}

QPushButton* RopeLessonButtons::button(int index) const
{
    return index >= 0 && index < static_cast<int>(buttons_.size())
               ? buttons_[static_cast<std::size_t>(index)]
               : nullptr;
}

void RopeLessonButtons::retranslate()
{
    buttons_.front()->setText(tr("No positions"));
    buttons_.front()->setToolTip(
        tr("Rotary positions off: the scores do not see where a token stands"));
    for (std::size_t k = 1; k < buttons_.size(); ++k) {
        // As the lesson text and the session file write it: 10000, no group separator.
        const QString theta = QString::number(thetas()[k - 1], 'g', 10);
        buttons_[k]->setText(k == 1 ? tr("RoPE, θ = %1").arg(theta) : tr("θ = %1").arg(theta));
        buttons_[k]->setToolTip(tr("Rotary positions on with the base θ = %1").arg(theta));
    }
}

void RopeLessonButtons::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange) retranslate();
    QWidget::changeEvent(event);
}

}  // namespace attnlab
