// SPDX-License-Identifier: GPL-3.0-or-later
// The model trainer's controls: made, laid out, connected and worded (its runs are in
// model_trainer_panel.cpp).
#include <algorithm>

#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QSlider>
#include <QSpinBox>
#include <QSplitter>
#include <QStackedWidget>
#include <QStyle>
#include <QVBoxLayout>

#include "ui/model/model_train_curves.h"
#include "ui/model/model_train_grid.h"
#include "ui/model/model_train_run.h"
#include "ui/model/model_trainer_panel.h"
#include "ui/model/translator_trainer_panel.h"
#include "ui/views/fit_column.h"
#include "ui/views/panel_message.h"
#include "ui/views/setting_spin.h"
#include "ui/views/speed_control.h"
#include "ui/views/training_controls.h"

namespace attnlab {

void ModelTrainerPanel::build()
{
    auto* controls = new QWidget;
    makeControls(controls);
    layOutControls(controls);
    layOut(controls);
    connectControls();
}

// The settings of the run, its buttons and what it says, children of `controls`.
void ModelTrainerPanel::makeControls(QWidget* controls)
{
    // The task row serves both pages: it moves to the one shown (showTask).
    taskRow_ = new QWidget(controls);
    taskLabel_ = new QLabel(taskRow_);
    task_ = new QComboBox(taskRow_);
    task_->addItems({QString(), QString(), QString()});
    chooseCorpus_ = new QPushButton(taskRow_);
    auto* row = new QHBoxLayout(taskRow_);
    row->setContentsMargins(0, 0, 0, 0);
    row->addWidget(taskLabel_);
    row->addWidget(task_, 1);
    row->addWidget(chooseCorpus_);
    layersLabel_ = new QLabel(controls);
    layers_ = settingSpin(controls, 1, 6, 2);
    headsLabel_ = new QLabel(controls);
    heads_ = settingSpin(controls, 1, 8, 4);
    widthLabel_ = new QLabel(controls);
    width_ = settingSpin(controls, 8, 256, 64, 8);
    contextLabel_ = new QLabel(controls);
    context_ = settingSpin(controls, 8, 256, 64, 8);
    stepsLabel_ = new QLabel(controls);
    steps_ = settingSpin(controls, 1, 100000, 3000, 100);
    seedLabel_ = new QLabel(controls);
    seed_ = settingSpin(controls, 0, 1000000, 1);
    attentionOnly_ = new QCheckBox(controls);
    attentionOnly_->setChecked(true);
    runControls_ = new TrainingControls(
        TrainingControls::PauseButton::OnStart, TrainingControls::SpeedPlace::Below,
        std::vector<int>(std::begin(kSpeeds), std::end(kSpeeds)), controls);
    runControls_->startButton()->setObjectName(QStringLiteral("modelTrainStart"));
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
}

// Two settings a row, the run's buttons with the speed and the model's, in a grid.
void ModelTrainerPanel::layOutControls(QWidget* controls)
{
    auto* g = new QGridLayout(controls);
    controlsGrid_ = g;
    g->setContentsMargins(6, 2, 6, 2);
    g->setVerticalSpacing(3);
    int r = 0;
    g->addWidget(taskRow_, r++, 0, 1, 4);
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
    g->addWidget(runControls_, r++, 0, 1, 4);
    auto* model = new QHBoxLayout;
    model->addWidget(open_button_);
    model->addWidget(save_);
    g->addLayout(model, r++, 0, 1, 4);
    g->addWidget(message_, r++, 0, 1, 4);
    g->setRowStretch(r, 1);
    g->setColumnStretch(1, 1);
    g->setColumnStretch(3, 1);
}

// The controls in a column that scrolls, beside the curves and the grid with its film strip.
void ModelTrainerPanel::layOut(QWidget* controls)
{
    auto* scroll = new QScrollArea(this);
    scroll->setWidget(controls);
    scroll->setWidgetResizable(true);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    scroll->setFrameShape(QFrame::NoFrame);
    // Its size follows the words (fitControls): a new width wraps them anew.
    controlsScroll_ = scroll;
    scroll->viewport()->installEventFilter(this);

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
    // What the run says goes under the plots, a line each where the column would wrap it
    // over two or three: the column stays low enough for a model opened above the trainer.
    auto* runPane = new QWidget;
    auto* says = new QVBoxLayout(runPane);
    says->setContentsMargins(0, 0, 4, 2);
    says->setSpacing(1);
    status_->setParent(runPane);
    phaseLabel_->setParent(runPane);
    says->addWidget(split, 1);
    says->addWidget(status_);
    says->addWidget(phaseLabel_);
    auto* gptPage = new QWidget;
    auto* layout = new QHBoxLayout(gptPage);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(scroll);
    layout->addWidget(runPane, 1);
    scroll->setParent(gptPage);
    translator_ = new TranslatorTrainerPanel;
    TranslatorTrainerPanel::Host host;
    host.saveFolder = [this](const QString& start) { return dialogs_.saveFolder(start); };
    host.figurePath = [this](const QString& name) { return dialogs_.figurePath(name); };
    host.open = [this](const QString& folder, const QString& text) {
        return open_ && open_(folder, text);
    };
    translator_->setHost(host);
    pages_ = new QStackedWidget(this);
    pages_->addWidget(gptPage);
    pages_->addWidget(translator_);
    auto* top = new QVBoxLayout(this);
    top->setContentsMargins(0, 0, 0, 0);
    top->addWidget(pages_);
}

void ModelTrainerPanel::showTask(int index)
{
    const bool translator = index == kTranslatorTask;
    if (!translator) gptTask_ = index;
    {
        const QSignalBlocker block(task_);
        task_->setCurrentIndex(index);
    }
    if (QLayout* from = taskRow_->parentWidget() ? taskRow_->parentWidget()->layout() : nullptr)
        from->removeWidget(taskRow_);
    if (translator)
        translator_->setHeader(taskRow_);
    else
        controlsGrid_->addWidget(taskRow_, 0, 0, 1, 4);
    taskRow_->show();
    chooseCorpus_->setVisible(!translator);
    pages_->setCurrentIndex(translator ? 1 : 0);
    if (translator) translator_->prepare();
}

void ModelTrainerPanel::connectControls()
{
    connect(task_, &QComboBox::activated, this, [this](int index) {
        const bool fromTranslator = pages_->currentIndex() == 1;
        showTask(index);
        if (index == kTranslatorTask) return;
        if (fromTranslator && index == gptTask_ && run_) return;  // back to the run as it was
        if (index == 1 && corpus_.empty()) {
            const QString path = dialogs_.corpusFile();
            if (path.isEmpty() || !useCorpus(path)) showTask(0);
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
    connect(runControls_, &TrainingControls::startRequested, this, &ModelTrainerPanel::start);
    connect(runControls_, &TrainingControls::pauseRequested, this, &ModelTrainerPanel::pause);
    connect(runControls_, &TrainingControls::stepRequested, this, &ModelTrainerPanel::stepOnce);
    connect(runControls_, &TrainingControls::resetRequested, this, &ModelTrainerPanel::reset);
    connect(runControls_, &TrainingControls::delayChanged, this, [this](int delay) {
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

// The run's buttons and speed in the trainer's words (both pages say the same).
void ModelTrainerPanel::wordRunControls(TrainingControls* controls)
{
    TrainingControls::Words words;
    words.start = tr("Start");
    words.resume = tr("Continue");
    words.pause = tr("Pause");
    words.step = tr("Step");
    words.reset = tr("Reset");
    words.startTip = tr("Train to the last step");
    words.pauseTip = tr("Pause after the step in progress");
    words.stepTip = tr("Train one step and pause");
    words.resetTip = tr("Back to step 0 with the settings above (they unlock)");
    controls->setWords(words);
    SpeedControl* speed = controls->speed();
    const int perSecond = speed->stepsPerSecond();
    speed->setHelp(perSecond == 0 ? tr("Full speed")
                                  : tr("At most %n step(s) a second", nullptr, perSecond));
}

void ModelTrainerPanel::retranslate()
{
    taskLabel_->setText(tr("&Task:"));
    taskLabel_->setBuddy(task_);
    task_->setItemText(0, tr("Induction"));
    task_->setItemText(
        1, corpusPath_.isEmpty() ? tr("Text file…") : QFileInfo(corpusPath_).fileName());
    task_->setItemText(kTranslatorTask, tr("Dates → English (translator)"));
    task_->setToolTip(
        tr("Induction: random letters in which a stretch repeats; only a head that finds the "
           "earlier copy by content can predict it. A text file: any UTF-8 text, one token per "
           "distinct character. Dates → English: an encoder-decoder learns to write 2026年12月4日 "
           "as December 4, 2026, and its cross-attention learns to align the fields."));
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
    wordRunControls(runControls_);
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

bool ModelTrainerPanel::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == controlsScroll_->viewport() && event->type() == QEvent::Resize) fitControls();
    return QWidget::eventFilter(watched, event);
}

void ModelTrainerPanel::fitControls()
{
    fitScrollColumn(controlsScroll_);
}

}  // namespace attnlab
