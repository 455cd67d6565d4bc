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
#include <QStandardPaths>

#include "core/train/run_limits.h"
#include "ui/document/away.h"
#include "ui/export/figure_renderer.h"
#include "ui/model/model_train_curves.h"
#include "ui/model/model_train_grid.h"
#include "ui/model/model_train_run.h"
#include "ui/modelrun/builtin_models.h"
#include "ui/readers/bounded_read.h"
#include "ui/readers/status_text.h"
#include "ui/views/panel_message.h"
#include "ui/views/speed_control.h"

namespace attnlab {

namespace {

// The command line's limit (core/train/run_limits.h): a text far larger than a run reads.
constexpr auto kCorpusLimit = static_cast<qint64>(attn::gpt2::kMaxCorpusBytes);
constexpr long kMeasureEvery = 50;  // denser than the command's 100: smoother curves

QSpinBox* spin(QWidget* parent, int lo, int hi, int value, int step = 1)
{
    auto* s = new QSpinBox(parent);
    s->setRange(lo, hi);
    s->setValue(value);
    s->setSingleStep(step);
    return s;
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

void ModelTrainerPanel::build()
{
    auto* controls = new QWidget;
    auto* g = new QGridLayout(controls);
    g->setContentsMargins(6, 2, 6, 2);
    g->setVerticalSpacing(3);
    taskLabel_ = new QLabel(controls);
    task_ = new QComboBox(controls);
    task_->addItems({QString(), QString()});
    chooseCorpus_ = new QPushButton(controls);
    layersLabel_ = new QLabel(controls);
    layers_ = spin(controls, 1, 6, 2);
    headsLabel_ = new QLabel(controls);
    heads_ = spin(controls, 1, 8, 4);
    widthLabel_ = new QLabel(controls);
    width_ = spin(controls, 8, 256, 64, 8);
    contextLabel_ = new QLabel(controls);
    context_ = spin(controls, 8, 256, 64, 8);
    stepsLabel_ = new QLabel(controls);
    steps_ = spin(controls, 1, 100000, 3000, 100);
    seedLabel_ = new QLabel(controls);
    seed_ = spin(controls, 0, 1000000, 1);
    attentionOnly_ = new QCheckBox(controls);
    attentionOnly_->setChecked(true);
    start_ = new QPushButton(controls);
    start_->setObjectName(QStringLiteral("modelTrainStart"));
    step_ = new QPushButton(controls);
    reset_ = new QPushButton(controls);
    speed_ = new SpeedControl(std::vector<int>(std::begin(kSpeeds), std::end(kSpeeds)), controls);
    status_ = new QLabel(controls);
    status_->setWordWrap(true);
    phaseLabel_ = new QLabel(controls);
    phaseLabel_->setWordWrap(true);
    phaseLabel_->hide();
    phaseLabel_->setStyleSheet(QStringLiteral("color: #c81e1e;"));
    open_button_ = new QPushButton(controls);
    save_ = new QPushButton(controls);
    filmLabel_ = new QLabel(controls);
    filmSteps_ = new QLineEdit(QString::fromLatin1(kDefaultFilmSteps), controls);
    keep_ = new QPushButton(controls);
    exportStrip_ = new QPushButton(controls);
    message_ = new PanelMessage(controls);

    int r = 0;
    g->addWidget(taskLabel_, r, 0);
    g->addWidget(task_, r, 1, 1, 2);
    g->addWidget(chooseCorpus_, r++, 3);
    const auto pair = [&](QLabel* a, QWidget* wa, QLabel* b, QWidget* wb) {
        a->setBuddy(wa);
        b->setBuddy(wb);
        g->addWidget(a, r, 0);
        g->addWidget(wa, r, 1);
        g->addWidget(b, r, 2);
        g->addWidget(wb, r++, 3);
    };
    pair(layersLabel_, layers_, headsLabel_, heads_);
    pair(widthLabel_, width_, contextLabel_, context_);
    pair(stepsLabel_, steps_, seedLabel_, seed_);
    g->addWidget(attentionOnly_, r++, 0, 1, 4);
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(start_);
    buttons->addWidget(step_);
    buttons->addWidget(reset_);
    g->addLayout(buttons, r++, 0, 1, 4);
    g->addWidget(speed_, r++, 0, 1, 4);
    g->addWidget(status_, r++, 0, 1, 4);
    g->addWidget(phaseLabel_, r++, 0, 1, 4);
    auto* model = new QHBoxLayout;
    model->addWidget(open_button_);
    model->addWidget(save_);
    g->addLayout(model, r++, 0, 1, 4);
    g->addWidget(message_, r++, 0, 1, 4);
    g->setRowStretch(r, 1);
    g->setColumnStretch(1, 1);
    g->setColumnStretch(3, 1);

    auto* scroll = new QScrollArea(this);
    scroll->setWidget(controls);
    scroll->setWidgetResizable(true);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setMinimumWidth(controls->sizeHint().width() + 16);

    lossPlot_ = new TrainingCurvePlot;
    headPlot_ = new HeadScoreCurvePlot;
    grid_ = new ModelTrainGrid;
    // The film strip's controls under the grid it is made of.
    auto* gridPane = new QWidget;
    auto* film = new QGridLayout(gridPane);
    film->setContentsMargins(0, 0, 4, 2);
    film->setVerticalSpacing(2);
    filmLabel_->setParent(gridPane);
    filmSteps_->setParent(gridPane);
    keep_->setParent(gridPane);
    exportStrip_->setParent(gridPane);
    film->addWidget(grid_, 0, 0, 1, 3);
    film->addWidget(filmLabel_, 1, 0);
    film->addWidget(filmSteps_, 1, 1, 1, 2);
    film->addWidget(keep_, 2, 0, 1, 2);
    film->addWidget(exportStrip_, 2, 2);
    film->setRowStretch(0, 1);
    film->setColumnStretch(1, 1);
    auto* split = new QSplitter(Qt::Horizontal, this);
    split->addWidget(lossPlot_);
    split->addWidget(headPlot_);
    split->addWidget(gridPane);
    split->setChildrenCollapsible(false);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 1);
    split->setStretchFactor(2, 1);
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(scroll);
    layout->addWidget(split, 1);

    connect(task_, &QComboBox::activated, this, [this](int index) {
        if (index == 1 && corpus_.empty()) {
            const QString path = dialogs_.corpusFile();
            if (path.isEmpty() || !useCorpus(path)) task_->setCurrentIndex(0);
            return;
        }
        makeRun();
    });
    connect(chooseCorpus_, &QPushButton::clicked, this, [this] {
        const QString path = dialogs_.corpusFile();
        if (!path.isEmpty()) useCorpus(path);
    });
    for (QSpinBox* s : {layers_, heads_, width_, context_, steps_, seed_})
        connect(s, &QSpinBox::valueChanged, this, [this] { makeRun(); });
    connect(attentionOnly_, &QCheckBox::toggled, this, [this] { makeRun(); });
    connect(start_, &QPushButton::clicked, this, [this] {
        if (run_ && run_->running())
            pause();
        else
            start();
    });
    connect(step_, &QPushButton::clicked, this, &ModelTrainerPanel::stepOnce);
    connect(reset_, &QPushButton::clicked, this, &ModelTrainerPanel::reset);
    connect(speed_, &SpeedControl::delayChanged, this, [this](int delay) {
        if (run_) run_->setStepDelayUs(delay);
        retranslate();
    });
    connect(open_button_, &QPushButton::clicked, this, [this] {
        QString error;
        if (!openInModelWindow(error)) message_->say(error);
    });
    connect(save_, &QPushButton::clicked, this, [this] {
        const QString folder = dialogs_.saveFolder(QDir::homePath());
        if (folder.isEmpty()) return;
        QString error;
        message_->say(saveTo(folder, error) ? QString() : error);
    });
    connect(keep_, &QPushButton::clicked, this, &ModelTrainerPanel::keepStep);
    connect(filmSteps_, &QLineEdit::editingFinished, this, &ModelTrainerPanel::applyFilmSteps);
    connect(exportStrip_, &QPushButton::clicked, this, [this] {
        const QString path = dialogs_.figurePath(QStringLiteral("film-strip.png"));
        if (path.isEmpty()) return;
        QString error;
        message_->say(exportFilmStrip(path, error) ? QString() : error);
    });
}

void ModelTrainerPanel::retranslate()
{
    taskLabel_->setText(tr("&Task:"));
    taskLabel_->setBuddy(task_);
    task_->setItemText(0, tr("Induction"));
    task_->setItemText(
        1, corpusPath_.isEmpty() ? tr("Text file…") : QFileInfo(corpusPath_).fileName());
    task_->setToolTip(
        tr("Induction: random letters in which a stretch repeats; only a head that finds the "
           "earlier copy by content can predict it. A text file: any UTF-8 text, one token per "
           "distinct character."));
    chooseCorpus_->setText(tr("File…"));
    chooseCorpus_->setToolTip(tr("Train on a UTF-8 text file"));
    layersLabel_->setText(tr("&Layers:"));
    layers_->setToolTip(
        tr("One layer cannot form an induction head: it needs a previous-token head in an "
           "earlier layer"));
    headsLabel_->setText(tr("&Heads:"));
    widthLabel_->setText(tr("&Width:"));
    width_->setToolTip(tr("d_model, the width of the residual stream (a multiple of the heads)"));
    contextLabel_->setText(tr("&Context:"));
    context_->setToolTip(tr("Tokens per training sequence"));
    stepsLabel_->setText(tr("S&teps:"));
    seedLabel_->setText(tr("S&eed:"));
    seed_->setToolTip(tr("The same settings and seed train the same model, bit for bit"));
    attentionOnly_->setText(tr("&Attention only (no MLP)"));
    step_->setText(tr("Step"));
    step_->setToolTip(tr("Train one step and pause"));
    reset_->setText(tr("Reset"));
    reset_->setToolTip(tr("Back to step 0 with the settings above (they unlock)"));
    const int perSecond = speed_->stepsPerSecond();
    speed_->setHelp(perSecond == 0 ? tr("Full speed")
                                   : tr("At most %n step(s) a second", nullptr, perSecond));
    open_button_->setText(tr("Open in Model Window"));
    open_button_->setToolTip(
        tr("Writes the model as a GPT-2 folder and opens it in the model window: switch its "
           "heads off there and watch the predictions"));
    save_->setText(tr("Save Model…"));
    save_->setToolTip(tr("Write the model as a Hugging Face GPT-2 folder with its training.json"));
    filmLabel_->setText(tr("&Film strip:"));
    filmLabel_->setBuddy(filmSteps_);
    filmSteps_->setToolTip(tr("The steps whose grid is kept for the film strip"));
    keep_->setText(tr("Keep This Step"));
    keep_->setToolTip(tr("Add the grid of the current step to the film strip"));
    exportStrip_->setText(tr("Export Film Strip…"));
    updateState();
}

void ModelTrainerPanel::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange) retranslate();
    QWidget::changeEvent(event);
}

attn::gpt2::RunSpec ModelTrainerPanel::spec() const
{
    attn::gpt2::RunSpec s;
    if (task_->currentIndex() == 1 && !corpus_.empty()) {
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
    lossPlot_->reset(s.steps, s.data == attn::gpt2::DataKind::Induction);
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
    task_->setCurrentIndex(0);
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
    {
        const QSignalBlocker block(task_);
        task_->setCurrentIndex(1);
    }
    retranslate();
    if (makeRun()) return true;
    corpus_.clear();
    corpusPath_.clear();
    const QString why = message();
    {
        const QSignalBlocker block(task_);
        task_->setCurrentIndex(0);
    }
    retranslate();
    makeRun();
    message_->say(why);
    return false;
}

int ModelTrainerPanel::stepDelayUs() const
{
    return speed_->stepDelayUs();
}

QSlider* ModelTrainerPanel::speedSlider() const
{
    return speed_->slider();
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
    lossPlot_->update(run_->losses(), measures);
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
    const bool done = run_ && run_->finished();
    for (QWidget* w : std::initializer_list<QWidget*>{task_, chooseCorpus_, layers_, heads_, width_,
                                                      context_, steps_, seed_, attentionOnly_})
        w->setEnabled(!begun);
    start_->setEnabled(run_ && !done);
    start_->setText(running ? tr("Pause") : begun ? tr("Continue") : tr("Start"));
    start_->setToolTip(running ? tr("Pause after the step in progress")
                               : tr("Train to the last step"));
    step_->setEnabled(run_ && !running && !done);
    reset_->setEnabled(begun);
    const bool settled = run_ && run_->settledRun() && begun;
    open_button_->setEnabled(settled);
    save_->setEnabled(settled);
    keep_->setEnabled(run_ && !running && run_->maps());
    exportStrip_->setEnabled(run_ && !run_->frames().empty());
    if (!run_) {
        status_->clear();
        phaseLabel_->clear();
        phaseLabel_->hide();
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
}

QString ModelTrainerPanel::message() const
{
    return message_->isVisible() || !message_->text().isEmpty() ? message_->text() : QString();
}

}  // namespace attnlab
