// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/panels/sequences_panel.h"

#include <QCheckBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>

#include "ui/document/document.h"
#include "ui/views/panel_message.h"

namespace attnlab {

namespace {
constexpr int kShownTokenLimit = 400;  // longer sequences are not spelled out in the line edit
}

SequencesPanel::SequencesPanel(Document* doc, QWidget* parent) : QWidget(parent), doc_(doc)
{
    auto* form = new QFormLayout(this);
    target_ = new QLineEdit(this);
    target_->setToolTip(tr("Tokens separated by spaces. Press Enter to apply."));
    form->addRow(tr("&Target:"), target_);
    source_ = new QLineEdit(this);
    source_->setToolTip(tr("The source sequence for cross-attention (keys and values)."));
    form->addRow(tr("S&ource:"), source_);
    perCharacter_ = new QCheckBox(tr("Split per character (for text without spaces)"), this);
    form->addRow(QString(), perCharacter_);

    auto* row = new QHBoxLayout;
    length_ = new QSpinBox(this);
    length_->setRange(1, 20000);
    length_->setValue(512);
    length_->setToolTip(tr("Length of a generated sequence t1 … tn with random embeddings."));
    auto* make = new QPushButton(tr("&Generate"), this);
    make->setToolTip(tr("Replace the target by n generated tokens."));
    row->addWidget(length_);
    row->addWidget(make);
    form->addRow(tr("Length n:"), row);
    message_ = new PanelMessage(this);
    form->addRow(message_);

    connect(target_, &QLineEdit::returnPressed, this, &SequencesPanel::applyTarget);
    connect(source_, &QLineEdit::returnPressed, this, &SequencesPanel::applySource);
    connect(make, &QPushButton::clicked, this, [this] { generate(length_->value()); });
    connect(doc_, &Document::inputsChanged, this, &SequencesPanel::refresh);
    refresh();
}

void SequencesPanel::refresh()
{
    const Session& s = doc_->session();
    auto show = [](QLineEdit* edit, const QStringList& tokens) {
        if (edit->hasFocus() && edit->isModified()) return;  // don't clobber typing
        edit->setText(tokens.size() > kShownTokenLimit ? tr("(%1 tokens)").arg(tokens.size())
                                                       : tokens.join(QLatin1Char(' ')));
        edit->setModified(false);
    };
    show(target_, s.targetTokens);
    show(source_, s.sourceTokens);
}

bool SequencesPanel::setTokens(bool source, const QStringList& tokens)
{
    const bool accepted = doc_->setTokens(source, tokens);
    message_->say(accepted ? QString() : doc_->lastError());
    if (!accepted) refresh();
    return accepted;
}

QString SequencesPanel::message() const
{
    return message_->isHidden() ? QString() : message_->text();
}

void SequencesPanel::applyTarget()
{
    if (target_->text().startsWith(QLatin1Char('('))) return;  // the "(n tokens)" placeholder
    setTokens(false, splitTokens(target_->text(), perCharacter_->isChecked()));
}

void SequencesPanel::applySource()
{
    setTokens(true, splitTokens(source_->text(), perCharacter_->isChecked()));
}

void SequencesPanel::generate(int n)
{
    QStringList tokens;
    tokens.reserve(n);
    for (int i = 1; i <= n; ++i) tokens << QStringLiteral("t%1").arg(i);
    setTokens(false, tokens);
}

}  // namespace attnlab
