// SPDX-License-Identifier: GPL-3.0-or-later
// The Trainer dock's Keep (with its question when the training sequence would replace the
// session's), the note about that sequence, and the speed (the panel's run logic is in
// trainer_panel.cpp).
#include <algorithm>

#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QSlider>

#include "ui/document/document.h"
#include "ui/document/train_ops.h"
#include "ui/readers/session.h"
#include "ui/train/train_run.h"
#include "ui/train/trainer_panel.h"
#include "ui/views/training_controls.h"

namespace attnlab {

namespace {

// At most this many tokens are named in a sentence; the rest are "…".
constexpr int kNamedTokens = 16;

QString sequenceOf(const QStringList& tokens)
{
    QStringList shown;
    for (int i = 0; i < tokens.size() && i < kNamedTokens; ++i) shown << shownLabel(tokens[i], 12);
    if (tokens.size() > kNamedTokens) shown << QStringLiteral("…");
    return shown.join(QLatin1Char(' '));
}

QStringList tokenList(const std::vector<std::string>& tokens)
{
    QStringList out;
    for (const std::string& t : tokens) out << QString::fromStdString(t);
    return out;
}

bool sameMatrix(const attn::Matrix& a, const attn::Matrix& b)
{
    return a.rows() == b.rows() && a.cols() == b.cols() && a == b;
}

QStringList sessionTokens(const Session& s)
{
    return labelsFor(s.targetTokens, s.input.queryCount());
}

}  // namespace

QString TrainerPanel::sequenceText(const attn::TrainExample& example) const
{
    const QStringList own = tokenList(example.tokens);
    const QStringList session = sessionTokens(doc_->session());
    if (own == session) return {};
    return tr("Training uses its own sequence %1, not the session's tokens %2.")
        .arg(sequenceOf(own), sequenceOf(session));
}

TrainerPanel::KeepAnswer TrainerPanel::askKeepInBox(QWidget* parent, const QString& text)
{
    QMessageBox box(QMessageBox::Question, tr("Keep the trained matrices"), text,
                    QMessageBox::NoButton, parent);
    QPushButton* with = box.addButton(tr("Keep with its &sequence"), QMessageBox::AcceptRole);
    QPushButton* only = box.addButton(tr("Keep only the &matrices"), QMessageBox::AcceptRole);
    box.addButton(QMessageBox::Cancel);
    box.setDefaultButton(only);
    box.exec();
    if (box.clickedButton() == with) return KeepAnswer::WithSequence;
    if (box.clickedButton() == only) return KeepAnswer::MatricesOnly;
    return KeepAnswer::Cancel;
}

void TrainerPanel::keep()
{
    const std::shared_ptr<const attn::Trainer> trainer = run_ ? run_->settledTrainer() : nullptr;
    if (!trainer) return;
    const Session& s = doc_->session();
    const ops::Changed kept = ops::keepTraining(s, *trainer, 0);
    const Session& k = kept.session;
    bool withSequence = true;
    if (k.targetTokens != s.targetTokens || k.sourceTokens != s.sourceTokens ||
        !sameMatrix(k.input.X, s.input.X) || !sameMatrix(k.input.Y, s.input.Y)) {
        // Never replace the session's sequence without saying so and asking first.
        QString text =
            tr("Training used its own sequence %1, not the session's tokens %2.")
                .arg(sequenceOf(sessionTokens(k)), sequenceOf(sessionTokens(s))) +
            QStringLiteral("\n\n") +
            tr("Keep with its sequence: the session's tokens and embeddings are replaced by the "
               "training sequence, so the main map shows what the trainer showed.") +
            QStringLiteral("\n") +
            tr("Keep only the matrices: the session's tokens stay, and the learned matrices "
               "are applied to them.");
        for (const QString& note : kept.notes) text += QStringLiteral("\n") + note;
        text += QStringLiteral("\n\n") + tr("Either is one undo step (Edit ▸ Undo).");
        const KeepAnswer answer = askKeep_ ? askKeep_(text) : askKeepInBox(this, text);
        if (answer == KeepAnswer::Cancel) {
            status_->setText(tr("Not kept: the session is as it was."));
            return;
        }
        if (!run_ || run_->settledTrainer() != trainer) {
            say(tr("The run changed meanwhile: nothing was kept."));
            return;
        }
        withSequence = answer == KeepAnswer::WithSequence;
    }
    const QStringList onlyNotes =
        withSequence ? QStringList() : ops::keepTraining(s, *trainer, 0, false).notes;
    keeping_ = true;
    // Only the matrices: the same rule without the sequence, as one change of the session.
    const bool ok =
        withSequence
            ? doc_->keepTraining(*trainer, 0)
            : doc_->changeSession(
                  tr("Keep trained matrices (tokens unchanged)"), [&trainer](Session& session) {
                      session = ops::keepTraining(session, *trainer, 0, false).session;
                  });
    keeping_ = false;
    if (!ok) {
        say(doc_->lastError());
        return;
    }
    rebuild();  // from the kept session: the learned matrices are now step 0
    if (!withSequence) say(onlyNotes.join(QLatin1Char('\n')));
    status_->setText(tr("Kept after %n step(s): one undo step (Edit ▸ Undo restores the session).",
                        nullptr, trainer->steps()));
}

QSlider* TrainerPanel::speedSlider() const
{
    return runControls_->speedSlider();
}

int TrainerPanel::stepDelayUs() const
{
    return runControls_->stepDelayUs();
}

QPushButton* TrainerPanel::startButton() const
{
    return runControls_->startButton();
}

QPushButton* TrainerPanel::pauseButton() const
{
    return runControls_->pauseButton();
}

QPushButton* TrainerPanel::stepButton() const
{
    return runControls_->stepButton();
}

QPushButton* TrainerPanel::resetButton() const
{
    return runControls_->resetButton();
}

void TrainerPanel::updateSpeed()
{
    const int delay = stepDelayUs();
    if (run_) run_->setStepDelayUs(delay);
    if (otherRun_) otherRun_->setStepDelayUs(delay);
}

}  // namespace attnlab
