// SPDX-License-Identifier: GPL-3.0-or-later
// What leaves the translator trainer: the trained model as a Marian folder (saved where the user
// chooses, or under the application's data and opened in the translator window) and the film
// strip of its cross-attention map.
#include <QDateTime>
#include <QDir>
#include <QFileInfo>
#include <QLineEdit>
#include <QStandardPaths>

#include "ui/document/away.h"
#include "ui/export/figure_renderer.h"
#include "ui/model/model_trainer_panel.h"
#include "ui/model/translator_trainer_panel.h"
#include "ui/readers/status_text.h"
#include "ui/views/panel_message.h"

namespace attnlab {

bool TranslatorTrainerPanel::saveTo(const QString& folder, QString& error)
{
    const auto run = run_ ? run_->settledRun() : nullptr;
    if (!run || run_->steps() == 0) {
        error = tr("Pause the training first: the model is saved as it stands between steps.");
        return false;
    }
    const attn::dates::RunSpec& s = run->spec();
    QString command = QStringLiteral(
                          "attnlab train-model --task dates --layers %1 --decoder-layers %2 "
                          "--heads %3 --d-model %4 --steps %5 --seed %6 --measure-every %7")
                          .arg(s.encoderLayers)
                          .arg(s.decoderLayers)
                          .arg(s.heads)
                          .arg(s.channels)
                          .arg(s.steps)
                          .arg(s.seed)
                          .arg(s.measureEvery);
    if (run_->steps() < s.steps) command += QStringLiteral(" --stop-after %1").arg(run_->steps());
    command += QStringLiteral(" -o %1").arg(QFileInfo(folder).fileName());
    const std::string path = QDir::toNativeSeparators(folder).toStdString();
    const attn::Status written =
        runAway([&] { return run->write(path, command.toStdString(), run->stepSeconds()); });
    if (!written.ok()) {
        error = statusMessage(written);
        return false;
    }
    savedSteps_ = run_->steps();
    return true;
}

bool TranslatorTrainerPanel::hasUnsavedModel() const
{
    return run_ && run_->steps() > 0 && run_->steps() != savedSteps_;
}

QString TranslatorTrainerPanel::unsavedModelName() const
{
    if (!run_) return {};
    return tr("Trained translator, step %1 of %2 (the model trainer)")
        .arg(run_->steps())
        .arg(run_->spec().steps);
}

bool TranslatorTrainerPanel::saveUnsavedModel()
{
    if (!hasUnsavedModel()) return true;
    settle(*run_);
    const QString folder = host_.saveFolder ? host_.saveFolder(QDir::homePath()) : QString();
    if (folder.isEmpty()) return false;
    QString error;
    const bool saved = saveTo(folder, error);
    message_->say(saved ? QString() : error);
    return saved;
}

bool TranslatorTrainerPanel::openInModelWindow(QString& error)
{
    if (!run_) {
        error = tr("There is no model to open: the settings above were refused.");
        return false;
    }
    const attn::dates::RunSpec& s = run_->spec();
    const QString base = QStandardPaths::writableLocation(QStandardPaths::AppLocalDataLocation);
    const QString name =
        QStringLiteral("dates-L%1+%2-seed%3-step%4-%5")
            .arg(s.encoderLayers)
            .arg(s.decoderLayers)
            .arg(s.seed)
            .arg(run_->steps())
            .arg(QDateTime::currentDateTime().toString(QStringLiteral("yyyyMMdd-HHmmss")));
    const QString folder = QDir(base).filePath(QStringLiteral("trained/") + name);
    if (!saveTo(folder, error)) return false;
    if (!host_.open) {
        error = tr("There is no model window to open it in.");
        return false;
    }
    // The translator window opens a dates folder on a date of its own.
    return host_.open(folder, QString());
}

bool TranslatorTrainerPanel::exportFilmStrip(const QString& path, QString& error)
{
    if (!run_) {
        error = tr("There is no run to export.");
        return false;
    }
    std::vector<long> steps;
    if (!ModelTrainerPanel::parseFilmSteps(filmSteps_->text(), steps)) {
        error = tr("The film strip's steps are whole numbers from 0, separated by commas");
        return false;
    }
    Figure f;
    const QString title =
        tr("Cross-attention learns to align: %1 → %2")
            .arg(QString::fromStdString(example_.source), QString::fromStdString(example_.target));
    if (!translatorFilmStrip(run_->frames(), steps, shownHead(), rowLabels_, columnLabels_, title,
                             f, error))
        return false;
    const auto kept = static_cast<int>(f.panels.size());
    return writeFigure(f, path, QSize(120 + 300 * kept, 420), 1.0, error);
}

}  // namespace attnlab
