// SPDX-License-Identifier: GPL-3.0-or-later
// What leaves the model trainer: the trained model as a GPT-2 folder (saved where the user
// chooses, or under the application's data and opened in the model window) and the film strip.
#include <algorithm>

#include <QDateTime>
#include <QDir>
#include <QFileInfo>
#include <QStandardPaths>

#include "ui/document/away.h"
#include "ui/export/figure_renderer.h"
#include "ui/model/model_train_grid.h"
#include "ui/model/model_train_run.h"
#include "ui/model/model_trainer_panel.h"
#include "ui/model/translator_trainer_panel.h"
#include "ui/modelrun/builtin_models.h"
#include "ui/readers/status_text.h"
#include "ui/views/panel_message.h"

namespace attnlab {

QString ModelTrainerPanel::sampleText() const
{
    if (run_ && run_->spec().data == attn::gpt2::DataKind::Corpus)
        return QString::fromUtf8(corpus_.data(), static_cast<qsizetype>(corpus_.size()))
            .left(static_cast<int>(std::min<long>(40, run_->spec().context)))
            .simplified();
    QString sample = QStringLiteral("qwertyuiopasdfghqwertyuiopasdfgh");
    for (const BuiltinModel& m : builtinModels())
        if (m.name == QLatin1String("induction")) sample = m.sample;
    // A shorter context than the sample's (a small model trained in a hurry) reads a shorter
    // repeat: the sample itself would be refused as too long.
    const long context = run_ ? run_->spec().context : 0;
    if (context > 0 && sample.size() > context)
        sample = sample.left(static_cast<int>(context / 2)).repeated(2);
    return sample;
}

bool ModelTrainerPanel::saveTo(const QString& folder, QString& error)
{
    const auto run = run_ ? run_->settledRun() : nullptr;
    if (!run || run_->steps() == 0) {
        error = tr("Pause the training first: the model is saved as it stands between steps.");
        return false;
    }
    const attn::gpt2::RunSpec& s = run->spec();
    QString command = QStringLiteral("attnlab train-model ");
    command += s.data == attn::gpt2::DataKind::Induction
                   ? QStringLiteral("--task induction")
                   : QStringLiteral("--corpus %1").arg(QString::fromStdString(s.corpusName));
    command += QStringLiteral(" --layers %1 --heads %2 --d-model %3 --context %4")
                   .arg(s.layers)
                   .arg(s.heads)
                   .arg(s.channels)
                   .arg(s.context);
    if (s.attentionOnly) command += QStringLiteral(" --attention-only");
    command += QStringLiteral(" --steps %1 --seed %2 --measure-every %3")
                   .arg(s.steps)
                   .arg(s.seed)
                   .arg(s.evalEvery);
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

bool ModelTrainerPanel::hasUnsavedModel() const
{
    return gptUnsaved() || translator_->hasUnsavedModel();
}

bool ModelTrainerPanel::gptUnsaved() const
{
    return run_ && run_->steps() > 0 && run_->steps() != savedSteps_;
}

QString ModelTrainerPanel::unsavedModelName() const
{
    QStringList names;
    if (gptUnsaved())
        names << tr("Trained model, step %1 of %2 (the model trainer)")
                     .arg(run_->steps())
                     .arg(run_->spec().steps);
    if (translator_->hasUnsavedModel()) names << translator_->unsavedModelName();
    return names.join(QStringLiteral("; "));
}

bool ModelTrainerPanel::saveUnsavedModel()
{
    if (translator_->hasUnsavedModel()) {
        showTask(kTranslatorTask);
        if (!translator_->saveUnsavedModel()) return false;
    }
    if (!gptUnsaved()) return true;
    showTask(gptTask_);
    settle(*run_);  // a run still training stops first
    const QString folder = dialogs_.saveFolder(QDir::homePath());
    if (folder.isEmpty()) return false;
    QString error;
    if (saveTo(folder, error)) {
        message_->say(QString());
        return true;
    }
    message_->say(error);
    return false;
}

bool ModelTrainerPanel::openInModelWindow(QString& error)
{
    if (showsTranslator()) return translator_->openInModelWindow(error);
    if (!run_) {
        error = tr("There is no model to open: the settings above were refused.");
        return false;
    }
    const attn::gpt2::RunSpec& s = run_->spec();
    const QString base = QStandardPaths::writableLocation(QStandardPaths::AppLocalDataLocation);
    const QString name =
        QStringLiteral("%1-L%2-seed%3-step%4-%5")
            .arg(s.data == attn::gpt2::DataKind::Induction ? QStringLiteral("induction")
                                                           : QStringLiteral("text"))
            .arg(s.layers)
            .arg(s.seed)
            .arg(run_->steps())
            .arg(QDateTime::currentDateTime().toString(QStringLiteral("yyyyMMdd-HHmmss")));
    const QString folder = QDir(base).filePath(QStringLiteral("trained/") + name);
    if (!saveTo(folder, error)) return false;
    if (!open_) {
        error = tr("There is no model window to open it in.");
        return false;
    }
    return open_(folder, sampleText());
}

bool ModelTrainerPanel::exportFilmStrip(const QString& path, QString& error)
{
    if (!run_) {
        error = tr("There is no run to export.");
        return false;
    }
    std::vector<long> steps;
    if (!parseFilmSteps(filmSteps_->text(), steps)) {
        error = tr("The film strip's steps are whole numbers from 0, separated by commas");
        return false;
    }
    Figure f;
    const attn::gpt2::RunSpec& s = run_->spec();
    const QString title = tr("%n layer(s), %1 heads: every head as training goes on", nullptr,
                             static_cast<int>(s.layers))
                              .arg(s.heads);
    if (!modelFilmStrip(run_->frames(), steps, title, f, error)) return false;
    int kept = 0;
    for (long step : steps) kept += run_->frames().count(step) ? 1 : 0;
    const int rows = static_cast<int>(s.layers * s.heads);
    const QSize size(160 + 150 * kept, 150 + 150 * rows);
    return writeFigure(f, path, size, 1.0, error);
}

}  // namespace attnlab
