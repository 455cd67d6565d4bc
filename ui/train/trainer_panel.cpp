// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/train/trainer_panel.h"

#include <algorithm>
#include <chrono>
#include <cmath>

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QToolButton>

#include "ui/document/away.h"
#include "ui/document/document.h"
#include "ui/document/train_ops.h"
#include "ui/export/figure_renderer.h"
#include "ui/readers/atomic_file.h"
#include "ui/train/loss_plot.h"
#include "ui/train/pattern_file.h"
#include "ui/train/train_export.h"
#include "ui/train/train_run.h"
#include "ui/train/trainer_display.h"
#include "ui/views/panel_message.h"
#include "ui/views/training_controls.h"

namespace attnlab {

namespace {

QStringList labels(const std::vector<std::string>& tokens)
{
    QStringList out;
    for (const std::string& t : tokens) out << QString::fromStdString(t);
    return out;
}

// Why a button is disabled, after what it does.
void explain(QPushButton* b, bool enabled, const QString& why)
{
    b->setEnabled(enabled);
    const QString base = b->property("baseToolTip").toString();
    b->setToolTip(enabled || why.isEmpty() ? base : base + QStringLiteral("\n") + why);
}

}  // namespace

TrainerPanel::TrainerPanel(Document* document, QWidget* parent) : QWidget(parent), doc_(document)
{
    setObjectName(QStringLiteral("TrainerPanel"));
    buildControls();
    rebuildTimer_.setSingleShot(true);
    rebuildTimer_.setInterval(30);
    connect(&rebuildTimer_, &QTimer::timeout, this, &TrainerPanel::rebuild);
    connect(doc_, &Document::inputsChanged, this, [this] {
        // A hidden dock makes its run again when it is shown (no worker per edit meanwhile).
        if (!isVisible() && !locked()) {
            stale_ = true;
            return;
        }
        if (locked() && !keeping_)
            status_->setText(tr("The session changed, so the run went back to step 0."));
        rebuildSoon();
    });
    connect(doc_, &Document::selectionChanged, this, [this] {
        if (!locked() && run_ && run_->head() != doc_->head()) rebuildSoon();
    });
    rebuild();
}

TrainerPanel::~TrainerPanel() = default;  // the runs stop and join their workers

void TrainerPanel::showEvent(QShowEvent* event)
{
    QWidget::showEvent(event);
    if (stale_) rebuild();
}

QString TrainerPanel::message() const
{
    return message_->isHidden() ? QString() : message_->text();
}

TrainChoice TrainerPanel::choice() const
{
    TrainChoice c;
    c.task = static_cast<attn::TaskKind>(task_->currentData().toInt());
    c.optimizer = static_cast<attn::OptimizerKind>(optimizer_->currentData().toInt());
    c.learningRate = rate_->value();
    c.steps = steps_->value();
    c.values = values_->isChecked();
    c.shared = shared_->isChecked();
    c.head = doc_->head();
    c.pattern = pattern_;
    return c;
}

std::vector<int> TrainerPanel::filmSteps() const
{
    std::vector<int> steps;
    if (!parseStepList(filmSteps_->text(), steps)) steps = {0, 10, 100, 1000};
    return steps;
}

bool TrainerPanel::locked() const
{
    return (run_ && (run_->last().steps > 0 || run_->running())) || otherRun_;
}

void TrainerPanel::say(const QString& text)
{
    message_->say(text);
}

void TrainerPanel::rebuild()
{
    rebuildTimer_.stop();
    stale_ = false;
    run_.reset();
    otherRun_.reset();
    display_->lossPlot()->setCurveCount(1);
    display_->lossPlot()->clearCurves();
    const Session& s = doc_->session();
    for (int i = 0; i < task_->count(); ++i)
        task_->setItemData(
            i, ops::taskRefusal(static_cast<attn::TaskKind>(task_->itemData(i).toInt()), s),
            Qt::ToolTipRole);
    std::vector<int> film;
    if (!parseStepList(filmSteps_->text(), film))
        say(tr("Film strip at: whole numbers of 0 or more, such as 0, 10, 100, 1000."));
    TrainChoice c = choice();
    if (c.task == attn::TaskKind::Pattern &&
        (pattern_.rows() != s.input.queryCount() || pattern_.cols() != s.input.keyCount())) {
        patternFromCurrentP();
        c.pattern = pattern_;
    }
    attn::Trainer trainer;
    QString error;
    if (!makeTrainer(s, c, trainer, error)) {
        refusal_ = error;
        say(error);
        status_->clear();
        sequenceNote_->hide();
        updateControls();
        return;
    }
    refusal_.clear();
    if (film.size() > 0) say({});
    const attn::TrainExample& ex = trainer.examples().front();
    // The maps show the sequence training really uses, which a generated task makes itself.
    const QStringList rows = labels(ex.tokens);
    const bool ownColumns = c.task == attn::TaskKind::Pattern && s.input.mode == attn::Mode::Cross;
    display_->setTokens(rows, ownColumns ? s.sourceTokens : rows);
    const QString note = sequenceText(ex);
    sequenceNote_->setText(note);
    sequenceNote_->setVisible(!note.isEmpty());
    display_->setTarget(ex.pattern, c.task == attn::TaskKind::Pattern
                                        ? tr("Target (click to paint)")
                                        : tr("Target of the task"));
    display_->clearLive();
    run_ = std::make_unique<TrainRun>(std::move(trainer), filmSteps());
    run_->setStepDelayUs(stepDelayUs());
    connect(run_.get(), &TrainRun::snapshotArrived, this, &TrainerPanel::showSnapshot);
    status_->setText(tr("Step 0: press Start (or Step)."));
    updateControls();
}

void TrainerPanel::start()
{
    if (!run_) return;
    startedNs_ = steadyNowNs();
    startedSteps_ = run_->last().steps;
    run_->runTo(steps_->value());
    if (otherRun_) otherRun_->runTo(steps_->value());
    updateControls();
}

void TrainerPanel::pauseRuns()
{
    if (run_) run_->pause();
    if (otherRun_) otherRun_->pause();
    updateControls();
}

void TrainerPanel::stepOnce()
{
    if (!run_ || !run_->settledTrainer()) return;
    startedNs_ = steadyNowNs();
    startedSteps_ = run_->last().steps;
    run_->runTo(run_->last().steps + 1);
    updateControls();
}

void TrainerPanel::discard()
{
    rebuild();
    status_->setText(tr("Discarded: the session is as it was."));
}

void TrainerPanel::compare()
{
    // The run as it stands is one side; the other side trains from step 0 with the same seed
    // and settings and the other kind of projection, to the same step count.
    if (!run_ || otherRun_) return;
    TrainChoice other = choice();
    other.head = run_->head();
    other.shared = !run_->shared();
    attn::Trainer trainer;
    QString error;
    if (!makeTrainer(doc_->session(), other, trainer, error)) {
        say(error);
        return;
    }
    otherRun_ = std::make_unique<TrainRun>(std::move(trainer), std::vector<int>{});
    otherRun_->setStepDelayUs(stepDelayUs());
    connect(otherRun_.get(), &TrainRun::snapshotArrived, this, &TrainerPanel::showOtherSnapshot);
    display_->lossPlot()->setCurveCount(2);
    const int target = std::max(steps_->value(), static_cast<int>(run_->last().steps));
    startedNs_ = steadyNowNs();
    startedSteps_ = run_->last().steps;
    if (run_->last().steps < target) run_->runTo(target);
    otherRun_->runTo(target);
    updateControls();
}

QString TrainerPanel::curveName(const TrainRun& run) const
{
    return run.shared() ? tr("One shared projection") : tr("Separate W_Q, W_K");
}

void TrainerPanel::showSnapshot()
{
    const TrainSnapshot& s = run_->last();
    if (s.weights.size() > 0) display_->setLive(s.weights, s.steps);
    display_->lossPlot()->setCurve(0, curveName(*run_), run_->losses(), s.idle ? s.loss : NAN);
    if (!s.error.isEmpty())
        say(tr("Step %1 failed: %2 (try a smaller learning rate)").arg(s.steps + 1).arg(s.error));
    showStatus();
    updateControls();
    Q_EMIT snapshotShown();
}

void TrainerPanel::showStatus()
{
    const TrainSnapshot& s = run_->last();
    const double seconds = static_cast<double>(steadyNowNs() - startedNs_) / 1e9;
    const double last = run_->losses().empty() ? NAN : run_->losses().back();
    QString text = tr("Step %1 of %2 · loss %3")
                       .arg(s.steps)
                       .arg(steps_->value())
                       .arg(s.idle ? s.loss : last, 0, 'g', 4);
    if (s.steps > startedSteps_ && seconds > 0.0 && startedNs_ > 0)
        text += tr(" · %1 steps/s").arg(std::lround((s.steps - startedSteps_) / seconds));
    if (otherRun_ && !otherRun_->losses().empty())
        text += (otherRun_->shared() ? tr(" · shared: %1") : tr(" · separate: %1"))
                    .arg(otherRun_->losses().back(), 0, 'g', 4);
    status_->setText(text);
}

void TrainerPanel::showOtherSnapshot()
{
    const TrainSnapshot& s = otherRun_->last();
    display_->lossPlot()->setCurve(1, curveName(*otherRun_), otherRun_->losses(),
                                   s.idle ? s.loss : NAN);
    if (run_) showStatus();  // the other run's loss, also while the run itself waits
    updateControls();
}

void TrainerPanel::updateControls()
{
    const bool hasRun = run_ != nullptr;
    const bool running = (run_ && run_->running()) || (otherRun_ && otherRun_->running());
    const int steps = run_ ? run_->last().steps : 0;
    const bool settled = run_ && run_->settledTrainer() != nullptr;
    const bool fixed = locked();
    const QString lockedWhy =
        tr("The settings belong to the run: Reset or Discard to change them.");
    for (QWidget* w :
         std::initializer_list<QWidget*>{task_, optimizer_, rate_, values_, shared_, filmSteps_}) {
        w->setEnabled(!fixed);
        w->setStatusTip(fixed ? lockedWhy : QString());
    }
    const QString noRun = refusal_.isEmpty() ? tr("No run.") : refusal_;
    TrainingControls::State state;
    state.ready = hasRun;
    state.running = running;
    state.begun = steps > 0;
    state.finished = steps >= steps_->value();
    state.canStep = hasRun && settled && !otherRun_;
    state.canReset = hasRun && fixed;
    state.whyNotStart = !hasRun   ? noRun
                        : running ? tr("Already training.")
                                  : tr("The run has taken every step: raise Steps to go on.");
    state.whyNotPause = tr("Not training.");
    state.whyNotStep = !hasRun     ? noRun
                       : otherRun_ ? tr("A comparison runs both trainings together: use Start.")
                                   : tr("Pause first.");
    state.whyNotReset = tr("Already at step 0.");
    runControls_->setState(state);
    explain(keep_, settled && steps > 0,
            !hasRun   ? noRun
            : running ? tr("Pause first.")
                      : tr("Take at least one step first."));
    explain(discard_, hasRun && fixed, tr("Nothing to discard yet."));
    // Available before and after a run: the other side catches up with the run's steps.
    explain(compare_, hasRun && !otherRun_,
            !hasRun ? noRun : tr("Already comparing: Reset to start again."));
    compare_->setText(shared_->isChecked() ? tr("&Compare with separate projections")
                                           : tr("&Compare with one shared projection"));
    const bool pattern = choice().task == attn::TaskKind::Pattern;
    paint_->setVisible(pattern);
    takeP_->setVisible(pattern);
    explain(paint_, !fixed, lockedWhy);
    explain(takeP_, !fixed, lockedWhy);
}

void TrainerPanel::patternFromCurrentP()
{
    if (const attn::HeadResult* h = doc_->currentHead()) pattern_ = h->weights;
}

void TrainerPanel::paintCell(int row, int column, Qt::KeyboardModifiers modifiers)
{
    if (choice().task != attn::TaskKind::Pattern || locked() || row < 0 || column < 0 ||
        row >= pattern_.rows() || column >= pattern_.cols())
        return;
    attn::Vector r = pattern_.row(row).transpose();
    std::vector<bool> on(static_cast<std::size_t>(r.size()), false);
    if (modifiers & (Qt::ShiftModifier | Qt::ControlModifier)) {
        // Add or remove a key: the row's strongest keys so far, with this one toggled.
        const double top = r.maxCoeff();
        for (long j = 0; j < r.size(); ++j) on[j] = top > 0.0 && r(j) >= 0.999 * top;
        on[column] = !on[column];
    } else {
        on[column] = true;
    }
    const auto count = static_cast<double>(std::count(on.begin(), on.end(), true));
    for (long j = 0; j < r.size(); ++j) pattern_(row, j) = count > 0 && on[j] ? 1.0 / count : 0.0;
    rebuild();
}

bool TrainerPanel::takePatternFrom(const QString& path, QString& error)
{
    attn::Matrix m;
    // A session named here may be a large file, or on a share that stalls.
    if (!runAway([&, head = doc_->head()] { return readPatternFile(path, head, m, error); }))
        return false;
    const Session& s = doc_->session();
    if (m.rows() != s.input.queryCount() || m.cols() != s.input.keyCount()) {
        error = tr("%1: the pattern is %2 x %3, the session's weights %4 x %5.")
                    .arg(path)
                    .arg(m.rows())
                    .arg(m.cols())
                    .arg(s.input.queryCount())
                    .arg(s.input.keyCount());
        return false;
    }
    pattern_ = m;
    const QSignalBlocker block(task_);
    task_->setCurrentIndex(task_->findData(static_cast<int>(attn::TaskKind::Pattern)));
    rebuild();
    return true;
}

bool TrainerPanel::exportLossCurve(const QString& path, QString& error)
{
    if (!run_ || run_->losses().empty()) {
        error = tr("No loss curve yet: take a step first.");
        return false;
    }
    const Figure f =
        lossCurveFigure(display_->lossPlot(), tr("Training loss: %1").arg(task_->currentText()),
                        tr("%1, learning rate %2, %n step(s).", nullptr, run_->last().steps)
                            .arg(optimizer_->currentText())
                            .arg(rate_->value()));
    return writeFigure(f, path, QSize(800, 560), 2.0, error);
}

bool TrainerPanel::exportFilmStrip(const QString& path, QString& error)
{
    if (!run_ || run_->frames().empty()) {
        error = tr("No frames yet: start the run first.");
        return false;
    }
    std::map<int, attn::Matrix> frames = run_->frames();
    const TrainSnapshot& last = run_->last();
    std::vector<int> steps;
    for (int k : filmSteps())
        if (k <= last.steps) steps.push_back(k);
    if (last.weights.size() > 0 && (steps.empty() || steps.back() != last.steps)) {
        frames[last.steps] = last.weights;
        steps.push_back(last.steps);
    }
    const QStringList rows = labels(run_->example().tokens);
    const Figure f = filmStripFigure(
        frames, steps, rows, rows, tr("Learning the pattern: %1").arg(task_->currentText()),
        tr("The trained head's weights P on the task's first sequence, at the steps shown "
           "(%1, learning rate %2).")
            .arg(optimizer_->currentText())
            .arg(rate_->value()));
    if (f.panels.empty()) {
        error = tr("No frames yet: start the run first.");
        return false;
    }
    return writeFigure(f, path, defaultFigureSize(f), 2.0, error);
}

bool TrainerPanel::exportCurveCsv(const QString& path, QString& error)
{
    if (!run_ || !run_->settledTrainer() || run_->losses().empty()) {
        error = run_ && run_->running() ? tr("Pause first: the curve is still growing.")
                                        : tr("No loss curve yet: take a step first.");
        return false;
    }
    QString problem;
    if (!writeFileAtomically(path, lossCurveCsv(run_->losses(), run_->last().loss), problem)) {
        error = QStringLiteral("%1: %2").arg(path, problem);
        return false;
    }
    return true;
}

}  // namespace attnlab
