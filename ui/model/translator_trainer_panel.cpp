// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/model/translator_trainer_panel.h"

#include <algorithm>

#include <QComboBox>
#include <QDateTime>
#include <QDir>
#include <QFileInfo>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QStandardPaths>

#include "core/train/phase_change.h"
#include "ui/document/away.h"
#include "ui/export/figure_renderer.h"
#include "ui/model/model_train_curves.h"
#include "ui/model/model_trainer_panel.h"
#include "ui/model/translator_train_curves.h"
#include "ui/readers/status_text.h"
#include "ui/views/fit_column.h"
#include "ui/views/panel_message.h"
#include "ui/views/training_controls.h"

namespace attnlab {

namespace {

std::vector<std::pair<long, double>> exactMatchCurve(const std::vector<attn::dates::Point>& points)
{
    std::vector<std::pair<long, double>> out;
    for (const attn::dates::Point& p : points) out.emplace_back(p.step, p.meanAccuracy());
    return out;
}

}  // namespace

TranslatorTrainerPanel::TranslatorTrainerPanel(QWidget* parent) : QWidget(parent)
{
    setObjectName(QStringLiteral("translatorTrainerPanel"));
    build();
    retranslate();
}

TranslatorTrainerPanel::~TranslatorTrainerPanel() = default;

attn::dates::RunSpec TranslatorTrainerPanel::spec() const
{
    attn::dates::RunSpec s;
    s.encoderLayers = encoder_->value();
    s.decoderLayers = decoder_->value();
    s.heads = heads_->value();
    s.channels = width_->value();
    s.steps = steps_->value();
    s.seed = static_cast<std::uint64_t>(seed_->value());
    s.measureEvery = kMeasureEvery;
    s.finalCount = kFinalCount;
    return s;
}

bool TranslatorTrainerPanel::makeRun()
{
    run_.reset();
    savedSteps_ = -1;
    std::unique_ptr<attn::dates::TranslatorRun> run;
    const attn::dates::RunSpec s = spec();
    // The vocabulary is trained on the task's text first: a moment, not a frozen window.
    if (const attn::Status status =
            runAway([&] { return attn::dates::TranslatorRun::create(s, run); });
        !status.ok()) {
        message_->say(statusMessage(status));
        crossView_->setMaps(nullptr, {}, QString());
        updateState();
        return false;
    }
    message_->say(QString());
    example_ = run->example();
    rowLabels_ = pieceLabels(run->example().labelPieces);
    columnLabels_ = pieceLabels(run->example().sourcePieces);
    crossView_->setLabels(rowLabels_, columnLabels_);
    std::vector<long> frames;
    ModelTrainerPanel::parseFilmSteps(filmSteps_->text(), frames);
    run_ = std::make_unique<TranslatorTrainRun>(std::move(run), frames);
    run_->setStepDelayUs(runControls_->stepDelayUs());
    connect(run_.get(), &TranslatorTrainRun::snapshotArrived, this,
            &TranslatorTrainerPanel::takeSnapshot);
    lossPlot_->reset(s.steps, TrainingCurvePlot::Accuracy::ExactMatch);
    alignPlot_->reset(s.steps, static_cast<int>(s.decoderLayers), static_cast<int>(s.heads));
    crossView_->setMaps(nullptr, {}, QString());
    retranslateHeads();
    updateState();
    return true;
}

void TranslatorTrainerPanel::prepare()
{
    if (!run_) makeRun();
}

void TranslatorTrainerPanel::start()
{
    if (!run_ && !makeRun()) return;
    run_->runTo(run_->spec().steps);
    updateState();
}

void TranslatorTrainerPanel::pause()
{
    if (run_) run_->pause();
}

void TranslatorTrainerPanel::stepOnce()
{
    if (!run_ && !makeRun()) return;
    run_->runTo(run_->steps() + 1);
    updateState();
}

void TranslatorTrainerPanel::reset()
{
    makeRun();
}

QPushButton* TranslatorTrainerPanel::startButton() const
{
    return runControls_->startButton();
}

void TranslatorTrainerPanel::keepStep()
{
    if (!run_) return;
    run_->keepCurrentFrame();
    std::vector<long> steps;
    ModelTrainerPanel::parseFilmSteps(filmSteps_->text(), steps);
    if (std::find(steps.begin(), steps.end(), run_->steps()) != steps.end()) return;
    steps.push_back(run_->steps());
    std::sort(steps.begin(), steps.end());
    QStringList parts;
    for (long s : steps) parts << QString::number(s);
    filmSteps_->setText(parts.join(QStringLiteral(", ")));
    applyFilmSteps();
}

void TranslatorTrainerPanel::applyFilmSteps()
{
    std::vector<long> steps;
    if (!ModelTrainerPanel::parseFilmSteps(filmSteps_->text(), steps)) {
        message_->say(tr("The film strip's steps are whole numbers from 0, separated by commas"));
        return;
    }
    message_->say(QString());
    if (run_) run_->setFrameSteps(steps);
}

const attn::dates::Point* TranslatorTrainerPanel::formed() const
{
    return run_ ? attn::dates::alignmentFormed(run_->measures()) : nullptr;
}

CrossHead TranslatorTrainerPanel::shownHead() const
{
    const int chosen = headChoice_->currentIndex();
    if (chosen > 0 && run_) {
        const auto heads = static_cast<int>(run_->spec().heads);
        return {(chosen - 1) / heads, (chosen - 1) % heads};
    }
    if (!run_ || run_->measures().empty()) return {};
    const attn::dates::Alignment& a = run_->measures().back().alignment;
    return {static_cast<int>(a.bestLayer), static_cast<int>(a.bestHead)};
}

void TranslatorTrainerPanel::takeSnapshot()
{
    if (!run_) return;
    const auto& measures = run_->measures();
    lossPlot_->update(run_->losses(), exactMatchCurve(measures));
    alignPlot_->update(measures);
    if (const attn::dates::Point* p = formed()) {
        lossPlot_->setPhaseStep(p->step);
        alignPlot_->setPhaseStep(p->step);
    }
    showMap();
    if (!run_->error().isEmpty()) message_->say(run_->error());
    updateState();
    Q_EMIT shown();
}

void TranslatorTrainerPanel::showMap()
{
    if (!run_) return;
    const CrossHead head = shownHead();
    crossView_->setMaps(
        run_->maps(), head,
        tr("Layer %1 head %2, step %3").arg(head.layer + 1).arg(head.head + 1).arg(run_->steps()));
}

QString TranslatorTrainerPanel::formedSentence(const attn::dates::Point& p) const
{
    const auto& measures = run_->measures();
    const double first = measures.empty() ? 0.0 : measures.front().alignment.best;
    return tr("Alignment formed at step %1: the best head (layer %2 head %3) now looks at the "
              "right field for %4 of the month, day and year tokens, up from %5 at step 0; "
              "exact match %6.")
        .arg(p.step)
        .arg(p.alignment.bestLayer + 1)
        .arg(p.alignment.bestHead + 1)
        .arg(p.alignment.best, 0, 'f', 2)
        .arg(first, 0, 'f', 2)
        .arg(p.meanAccuracy(), 0, 'f', 2);
}

void TranslatorTrainerPanel::updateState()
{
    const bool running = run_ && run_->running();
    const bool begun = run_ && run_->steps() > 0;
    for (QWidget* w :
         std::initializer_list<QWidget*>{encoder_, decoder_, heads_, width_, steps_, seed_})
        w->setEnabled(!begun);
    runControls_->setState(controlsState(run_.get()));
    const bool settled = run_ && run_->settledRun() && begun;
    open_->setEnabled(settled);
    save_->setEnabled(settled);
    keep_->setEnabled(run_ && !running && run_->maps());
    exportStrip_->setEnabled(run_ && !run_->frames().empty());
    const attn::dates::Point* p = formed();
    formedLabel_->setText(p ? formedSentence(*p) : QString());
    formedLabel_->setVisible(p != nullptr);
    fitScrollColumn(scroll_);
    if (!run_) {
        status_->clear();
        return;
    }
    QString text = tr("Step %1 of %2").arg(run_->steps()).arg(run_->spec().steps);
    if (!run_->losses().empty())
        text += tr(" · loss %1")
                    .arg(attn::gpt2::meanLossUpTo(run_->losses(), run_->steps(), 25), 0, 'f', 3);
    if (!run_->measures().empty()) {
        const attn::dates::Point& m = run_->measures().back();
        text += tr(" · exact match %1 · best alignment %2 (layer %3 head %4)")
                    .arg(m.meanAccuracy(), 0, 'f', 2)
                    .arg(m.alignment.best, 0, 'f', 2)
                    .arg(m.alignment.bestLayer + 1)
                    .arg(m.alignment.bestHead + 1);
    }
    status_->setText(text);
}

QString TranslatorTrainerPanel::message() const
{
    return message_->text();
}

}  // namespace attnlab
