// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/model/model_link_panel.h"

#include <QDir>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

#include "ui/document/document.h"
#include "ui/model/head_link.h"
#include "ui/model/model_change_panel.h"
#include "ui/model/predictions_panel.h"
#include "ui/modelrun/head_session.h"

namespace attnlab {

ModelLinkPanel::ModelLinkPanel(Document* document, HeadLink* link, QWidget* parent)
    : QWidget(parent),
      doc_(document),
      link_(link),
      title_(new QLabel(this)),
      status_(new QLabel(this)),
      attach_(new QPushButton(tr("&Attach model"), this)),
      detach_(new QPushButton(tr("Detach"), this)),
      predictions_(new PredictionsPanel(link, this)),
      changes_(new ModelChangePanel(link, this))
{
    setObjectName(QStringLiteral("modelLink"));
    title_->setWordWrap(true);
    title_->setTextFormat(Qt::PlainText);
    status_->setWordWrap(true);
    attach_->setToolTip(
        tr("Open the model this head came from (the session names its folder and "
           "the SHA-256 of its weights) and carry your edits through it"));
    detach_->setToolTip(tr("Stop carrying the workbench's changes into the model"));
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(attach_);
    buttons->addWidget(detach_);
    buttons->addStretch(1);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(title_);
    layout->addWidget(status_);
    layout->addLayout(buttons);
    layout->addWidget(predictions_, 3);
    layout->addWidget(changes_, 2);
    connect(attach_, &QPushButton::clicked, link_, &HeadLink::attachFromProvenance);
    connect(detach_, &QPushButton::clicked, link_, &HeadLink::detach);
    connect(link_, &HeadLink::attachmentChanged, this, &ModelLinkPanel::refresh);
    connect(link_, &HeadLink::snapshotChanged, this, &ModelLinkPanel::refresh);
    connect(doc_, &Document::changed, this, &ModelLinkPanel::refresh);
    refresh();
}

QSize ModelLinkPanel::sizeHint() const
{
    const int em = fontMetrics().horizontalAdvance(QLatin1Char('M'));
    return {34 * em, 48 * fontMetrics().height()};
}

QSize ModelLinkPanel::minimumSizeHint() const
{
    const int em = fontMetrics().horizontalAdvance(QLatin1Char('M'));
    return {28 * em, QWidget::minimumSizeHint().height()};
}

void ModelLinkPanel::refresh()
{
    const std::optional<ModelProvenance>& p = doc_->session().provenance;
    const bool active = link_->active();
    attach_->setVisible(p && !active);
    attach_->setEnabled(!link_->attaching());
    detach_->setVisible(active);
    predictions_->setVisible(active);
    if (!p) {
        title_->setText(tr("No real model"));
        status_->setText(
            tr("This session's head is not from a trained model. Open one with "
               "File ▸ Open Model…, then right-click a head in its model view and "
               "choose Open in Workbench: its real vectors come here, and every "
               "change you make is carried through the rest of the model."));
        return;
    }
    title_->setText(tr("%1 — “%2”").arg(headTitle(*p), p->text));
    title_->setToolTip(QDir::toNativeSeparators(p->folder));
    if (link_->attaching()) {
        status_->setText(
            tr("Attaching the model (reading its weights and checking their "
               "SHA-256)…"));
    } else if (!active && !link_->attachError().isEmpty()) {
        status_->setText(link_->attachError());
    } else if (!active) {
        status_->setText(tr("The model is not attached. Attach it (from %1) to see what your "
                            "changes do to its prediction.")
                             .arg(QDir::toNativeSeparators(p->folder)));
    } else if (!link_->mismatch().isEmpty()) {
        status_->setText(link_->mismatch());
    } else {
        status_->setText(
            tr("Every change here is carried into this head inside the model, and "
               "the layers after it run again. One head rarely flips a "
               "prediction: the other heads and the residual stream carry on."));
    }
}

}  // namespace attnlab
