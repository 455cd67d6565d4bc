// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/model/model_trainer_panel.h"

#include <algorithm>

#include <QCheckBox>
#include <QComboBox>
#include <QDateTime>
#include <QDir>
#include <QEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QScrollArea>
#include <QSlider>
#include <QSpinBox>
#include <QSplitter>
#include <QStandardItemModel>
#include <QStandardPaths>

#include "core/train/run_limits.h"
#include "ui/document/away.h"
#include "ui/export/figure_renderer.h"
#include "ui/model/model_train_curves.h"
#include "ui/model/model_train_grid.h"
#include "ui/model/model_train_run.h"
#include "ui/model/translator_trainer_panel.h"
#include "ui/modelrun/builtin_models.h"
#include "ui/readers/bounded_read.h"
#include "ui/readers/status_text.h"
#include "ui/views/panel_message.h"
#include "ui/views/training_controls.h"

namespace attnlab {

namespace {

// The command line's limit (core/train/run_limits.h): a text far larger than a run reads.
constexpr auto kCorpusLimit = static_cast<qint64>(attn::gpt2::kMaxCorpusBytes);
constexpr long kMeasureEvery = 50;  // denser than the command's 100: smoother curves

// The copy accuracy of each measure that has one.
std::vector<std::pair<long, double>> copyAccuracy(const std::vector<attn::gpt2::Measure>& measures)
{
    std::vector<std::pair<long, double>> out;
    for (const attn::gpt2::Measure& m : measures)
        if (m.copyAccuracy >= 0) out.emplace_back(m.step, m.copyAccuracy);
    return out;
}

}  // namespace

bool ModelTrainerPanel::parseFilmSteps(const QString& text, std::vector<long>& out)
{
    out.clear();
    static const QRegularExpression separators(QStringLiteral("[,\\s]+"));
    for (const QString& part : text.split(separators, Qt::SkipEmptyParts)) {
        bool ok = false;
        const long v = part.toLong(&ok);
        if (!ok || v < 0) return false;
        out.push_back(v);
    }
    return true;
}

ModelTrainerPanel::ModelTrainerPanel(QWidget* parent) : QWidget(parent)
{
    setObjectName(QStringLiteral("modelTrainerPanel"));
    dialogs_.saveFolder = [this](const QString& start) {
        return QFileDialog::getExistingDirectory(this, tr("Save the trained model in a folder"),
                                                 start);
    };
    dialogs_.figurePath = [this](const QString& suggestion) {
        return QFileDialog::getSaveFileName(
            this, tr("Export the film strip"), suggestion,
            tr("PNG image (*.png);;SVG drawing (*.svg);;PDF document (*.pdf)"));
    };
    dialogs_.corpusFile = [this] {
        return QFileDialog::getOpenFileName(this, tr("Train on a text file (UTF-8)"), QString(),
                                            tr("Text (*.txt);;All files (*)"));
    };
    build();
    retranslate();
    makeRun();
}

ModelTrainerPanel::~ModelTrainerPanel() = default;

void ModelTrainerPanel::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange) retranslate();
    QWidget::changeEvent(event);
}

attn::gpt2::RunSpec ModelTrainerPanel::spec() const
{
    attn::gpt2::RunSpec s;
    if (gptTask_ == 1 && !corpus_.empty()) {
        s.data = attn::gpt2::DataKind::Corpus;
        s.corpus = corpus_;
        s.corpusName = QFileInfo(corpusPath_).fileName().toStdString();
    }
    s.layers = layers_->value();
    s.heads = heads_->value();
    s.channels = width_->value();
    s.context = context_->value();
    s.steps = steps_->value();
    s.seed = static_cast<std::uint64_t>(seed_->value());
    s.attentionOnly = attentionOnly_->isChecked();
    s.evalEvery = kMeasureEvery;
    return s;
}

bool ModelTrainerPanel::makeRun()
{
    run_.reset();
    savedSteps_ = -1;
    phase_ = {};
    std::unique_ptr<attn::gpt2::ModelRun> run;
    const attn::gpt2::RunSpec s = spec();
    if (const attn::Status status = attn::gpt2::ModelRun::create(s, run); !status.ok()) {
        message_->say(statusMessage(status));
        grid_->setMaps(nullptr, {});
        updateState();
        return false;
    }
    message_->say(QString());
    std::vector<long> frames;
    parseFilmSteps(filmSteps_->text(), frames);
    run_ = std::make_unique<ModelTrainRun>(std::move(run), frames);
    run_->setStepDelayUs(stepDelayUs());
    connect(run_.get(), &ModelTrainRun::snapshotArrived, this, &ModelTrainerPanel::takeSnapshot);
    lossPlot_->reset(s.steps, s.data == attn::gpt2::DataKind::Induction
                                  ? TrainingCurvePlot::Accuracy::Copy
                                  : TrainingCurvePlot::Accuracy::None);
    headPlot_->reset(s.steps, static_cast<int>(s.layers), static_cast<int>(s.heads));
    grid_->setMaps(nullptr, {});
    updateState();
    return true;
}

void ModelTrainerPanel::presetInduction(int layers)
{
    const QSignalBlocker blocks[] = {QSignalBlocker(task_),    QSignalBlocker(layers_),
                                     QSignalBlocker(heads_),   QSignalBlocker(width_),
                                     QSignalBlocker(context_), QSignalBlocker(steps_),
                                     QSignalBlocker(seed_),    QSignalBlocker(attentionOnly_)};
    showTask(0);
    layers_->setValue(layers);
    heads_->setValue(4);
    width_->setValue(64);
    context_->setValue(64);
    steps_->setValue(3000);
    seed_->setValue(1);
    attentionOnly_->setChecked(true);
    makeRun();
}

bool ModelTrainerPanel::useCorpus(const QString& path)
{
    QByteArray bytes;
    QString problem;
    const bool read = runAway([&] { return readUserFile(path, kCorpusLimit, bytes, problem); });
    if (!read) {
        message_->say(tr("Could not read %1: %2").arg(QFileInfo(path).fileName(), problem));
        return false;
    }
    corpus_.assign(bytes.constData(), static_cast<std::size_t>(bytes.size()));
    corpusPath_ = path;
    showTask(1);
    retranslate();
    if (makeRun()) return true;
    corpus_.clear();
    corpusPath_.clear();
    const QString why = message();
    showTask(0);
    retranslate();
    makeRun();
    message_->say(why);
    return false;
}

int ModelTrainerPanel::stepDelayUs() const
{
    return runControls_->stepDelayUs();
}

QSlider* ModelTrainerPanel::speedSlider() const
{
    return runControls_->speedSlider();
}

QPushButton* ModelTrainerPanel::startButton() const
{
    return showsTranslator() ? translator_->startButton() : runControls_->startButton();
}

bool ModelTrainerPanel::showsTranslator() const
{
    return pages_->currentIndex() == 1;
}

QPushButton* ModelTrainerPanel::stepButton() const
{
    return runControls_->stepButton();
}

QPushButton* ModelTrainerPanel::resetButton() const
{
    return runControls_->resetButton();
}

void ModelTrainerPanel::start()
{
    if (!run_ && !makeRun()) return;
    run_->runTo(run_->spec().steps);
    updateState();
}

void ModelTrainerPanel::pause()
{
    if (run_) run_->pause();
}

void ModelTrainerPanel::stepOnce()
{
    if (showsTranslator()) {
        translator_->stepOnce();
        return;
    }
    if (!run_ && !makeRun()) return;
    run_->runTo(run_->steps() + 1);
    updateState();
}

void ModelTrainerPanel::reset()
{
    makeRun();
}

void ModelTrainerPanel::keepStep()
{
    if (!run_) return;
    run_->keepCurrentFrame();
    const QString step = QString::number(run_->steps());
    std::vector<long> steps;
    parseFilmSteps(filmSteps_->text(), steps);
    if (std::find(steps.begin(), steps.end(), run_->steps()) == steps.end()) {
        steps.push_back(run_->steps());
        std::sort(steps.begin(), steps.end());
        QStringList parts;
        for (long s : steps) parts << QString::number(s);
        filmSteps_->setText(parts.join(QStringLiteral(", ")));
        applyFilmSteps();
    }
}

void ModelTrainerPanel::applyFilmSteps()
{
    std::vector<long> steps;
    if (!parseFilmSteps(filmSteps_->text(), steps)) {
        message_->say(tr("The film strip's steps are whole numbers from 0, separated by commas"));
        return;
    }
    message_->say(QString());
    if (run_) run_->setFrameSteps(steps);
}

void ModelTrainerPanel::takeSnapshot()
{
    if (!run_) return;
    const auto& measures = run_->measures();
    lossPlot_->update(run_->losses(), copyAccuracy(measures));
    headPlot_->update(measures);
    grid_->setMaps(run_->maps(), measures.empty() ? attn::HeadScoreTable() : measures.back().heads);
    if (!phase_.found()) {
        phase_ = attn::gpt2::findPhaseChange(measures, run_->losses());
        if (phase_.found()) {
            lossPlot_->setPhaseStep(phase_.step);
            headPlot_->setPhaseStep(phase_.step);
        }
    }
    if (!run_->error().isEmpty()) message_->say(run_->error());
    updateState();
    Q_EMIT shown();
}

void ModelTrainerPanel::updateState()
{
    const bool running = run_ && run_->running();
    const bool begun = run_ && run_->steps() > 0;
    // The other GPT-2 task is a setting of the run; the translator's page is always there.
    if (auto* items = qobject_cast<QStandardItemModel*>(task_->model()))
        for (int i = 0; i < kTranslatorTask; ++i)
            items->item(i)->setEnabled(!begun || i == gptTask_);
    for (QWidget* w : std::initializer_list<QWidget*>{chooseCorpus_, layers_, heads_, width_,
                                                      context_, steps_, seed_, attentionOnly_})
        w->setEnabled(!begun);
    runControls_->setState(controlsState(run_.get()));
    const bool settled = run_ && run_->settledRun() && begun;
    open_button_->setEnabled(settled);
    save_->setEnabled(settled);
    keep_->setEnabled(run_ && !running && run_->maps());
    exportStrip_->setEnabled(run_ && !run_->frames().empty());
    if (!run_) {
        status_->clear();
        phaseLabel_->clear();
        phaseLabel_->hide();
        fitControls();
        return;
    }
    QString text = tr("Step %1 of %2").arg(run_->steps()).arg(run_->spec().steps);
    const auto& losses = run_->losses();
    if (!losses.empty())
        text +=
            tr(" · loss %1").arg(attn::gpt2::meanLossUpTo(losses, run_->steps(), 50), 0, 'f', 3);
    const auto& measures = run_->measures();
    if (!measures.empty() && measures.back().copyAccuracy >= 0)
        text += tr(" · copy accuracy %1").arg(measures.back().copyAccuracy, 0, 'f', 2);
    status_->setText(text);
    if (phase_.found()) {
        phaseLabel_->setText(
            tr("Phase change at step %1: loss %2 → %3, best induction score %4 → %5 (layer %6 "
               "head %7)")
                .arg(phase_.step)
                .arg(phase_.lossBefore, 0, 'f', 2)
                .arg(phase_.lossAfter, 0, 'f', 2)
                .arg(phase_.inductionBefore, 0, 'f', 2)
                .arg(phase_.inductionAfter, 0, 'f', 2)
                .arg(phase_.layer + 1)
                .arg(phase_.head + 1));
    }
    phaseLabel_->setVisible(phase_.found());
    fitControls();
}

QString ModelTrainerPanel::message() const
{
    return message_->isVisible() || !message_->text().isEmpty() ? message_->text() : QString();
}

}  // namespace attnlab
