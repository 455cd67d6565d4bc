// SPDX-License-Identifier: GPL-3.0-or-later
// The Trainer dock's controls and its Export menu (the panel's logic is in trainer_panel.cpp).
#include <iterator>

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QGridLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QPushButton>
#include <QShortcut>
#include <QSlider>
#include <QSpinBox>
#include <QToolButton>

#include "ui/train/train_run.h"
#include "ui/train/trainer_display.h"
#include "ui/train/trainer_panel.h"
#include "ui/views/panel_message.h"
#include "ui/views/speed_control.h"
#include "ui/views/training_controls.h"

namespace attnlab {

namespace {

QPushButton* button(QWidget* parent, const QString& text, const QString& name,
                    const QKeySequence& key, const QString& tip)
{
    auto* b = new QPushButton(text, parent);
    b->setObjectName(name);
    b->setToolTip(key.isEmpty()
                      ? tip
                      : QStringLiteral("%1 (%2)").arg(tip, key.toString(QKeySequence::NativeText)));
    b->setProperty("baseToolTip", b->toolTip());
    if (!key.isEmpty()) {
        auto* shortcut = new QShortcut(key, parent);
        shortcut->setContext(Qt::WidgetWithChildrenShortcut);
        QObject::connect(shortcut, &QShortcut::activated, b, [b] {
            if (b->isEnabled()) b->click();
        });
    }
    return b;
}

}  // namespace

void TrainerPanel::buildControls()
{
    makeChoices();
    makeButtons();
    makeExportMenu();
    layOut();
    connectControls();
}

// The settings of the next run: task, optimiser, rate, steps, film strip, what is learned.
void TrainerPanel::makeChoices()
{
    task_ = new QComboBox(this);
    task_->setObjectName(QStringLiteral("TrainerTask"));
    task_->addItem(tr("Previous token"), static_cast<int>(attn::TaskKind::PreviousToken));
    task_->addItem(tr("Match (same feature)"), static_cast<int>(attn::TaskKind::Match));
    task_->addItem(tr("Coreference (toy)"), static_cast<int>(attn::TaskKind::Coreference));
    task_->addItem(tr("Your own pattern"), static_cast<int>(attn::TaskKind::Pattern));
    task_->setToolTip(
        tr("What the trained head should attend to. Each task makes its own "
           "sequences (your own pattern: the session's tokens)."));
    optimizer_ = new QComboBox(this);
    optimizer_->setObjectName(QStringLiteral("TrainerOptimizer"));
    optimizer_->addItem(tr("Adam"), static_cast<int>(attn::OptimizerKind::Adam));
    optimizer_->addItem(tr("SGD with momentum"), static_cast<int>(attn::OptimizerKind::Sgd));
    rate_ = new QDoubleSpinBox(this);
    rate_->setObjectName(QStringLiteral("TrainerLearningRate"));
    rate_->setDecimals(4);
    rate_->setRange(0.0001, 10.0);
    rate_->setSingleStep(0.01);
    rate_->setValue(defaultLearningRate(attn::OptimizerKind::Adam));
    rate_->setToolTip(tr("The step size of the optimiser (too large and the loss jumps)."));
    steps_ = new QSpinBox(this);
    steps_->setObjectName(QStringLiteral("TrainerSteps"));
    steps_->setRange(1, 1000000);
    steps_->setValue(1000);
    steps_->setToolTip(tr("Start runs until this many steps have been taken in all."));
    filmSteps_ = new QLineEdit(QStringLiteral("0, 10, 100, 1000"), this);
    filmSteps_->setObjectName(QStringLiteral("TrainerFilmSteps"));
    filmSteps_->setToolTip(
        tr("The steps at which the map is kept for the film-strip figure "
           "(the last step taken is added)."));
    values_ = new QCheckBox(tr("Train W_&V too"), this);
    values_->setObjectName(QStringLiteral("TrainerValues"));
    values_->setToolTip(
        tr("Also learn W_V, so that each output copies the tokens it attends to "
           "(adds a mean squared error on the output)."));
    shared_ = new QCheckBox(tr("&One shared projection"), this);
    shared_->setObjectName(QStringLiteral("TrainerShared"));
    shared_->setToolTip(
        tr("Learn one matrix W for Q, K and V: the scores X W Wᵀ Xᵀ are then "
           "symmetric."));
}

void TrainerPanel::makeButtons()
{
    makeRunControls();
    keep_ = button(this, tr("&Keep"), QStringLiteral("TrainerKeep"), QKeySequence(),
                   tr("Put the learned matrices into the session (one undo step)"));
    discard_ = button(this, tr("&Discard"), QStringLiteral("TrainerDiscard"), QKeySequence(),
                      tr("Drop the run; the session stays as it is"));
    compare_ = button(this, tr("&Compare with one shared projection"),
                      QStringLiteral("TrainerCompare"), QKeySequence(),
                      tr("Train the task twice, with separate and with one shared projection "
                         "(same seed and settings), and draw both loss curves"));
    paint_ = button(this, tr("Pattern from the current &P"), QStringLiteral("TrainerPaintFromP"),
                    QKeySequence(),
                    tr("Start the target from the session's weights; then click cells of the "
                       "target map (click: that key only; Shift+click: add or remove a key)"));
    takeP_ = button(this, tr("Take P from another session…"), QStringLiteral("TrainerTakeP"),
                    QKeySequence(),
                    tr("The weights of another session (or a CSV, one row per query) as the "
                       "target"));
}

// Start, Pause, Step, Reset and the speed, shared with the model trainer; the speed sits
// apart, under the loss curve (layOut).
void TrainerPanel::makeRunControls()
{
    runControls_ = new TrainingControls(
        TrainingControls::PauseButton::Own, TrainingControls::SpeedPlace::Apart,
        std::vector<int>(std::begin(kSpeeds), std::end(kSpeeds)), this);
    runControls_->startButton()->setObjectName(QStringLiteral("TrainerStart"));
    runControls_->pauseButton()->setObjectName(QStringLiteral("TrainerPause"));
    runControls_->stepButton()->setObjectName(QStringLiteral("TrainerStep"));
    runControls_->resetButton()->setObjectName(QStringLiteral("TrainerReset"));
    runControls_->speedSlider()->setObjectName(QStringLiteral("TrainerSpeed"));
    runControls_->speed()->setHelp(
        tr("How fast training runs. Slow it down so that a class can watch the map change: "
           "at the slowest, 5 steps/s, 100 steps take about 20 s."));
    TrainingControls::Words words;
    words.start = tr("&Start");
    words.resume = tr("Co&ntinue");
    words.pause = tr("&Pause");
    words.step = tr("S&tep");
    words.reset = tr("&Reset");
    words.startTip = tr("Train until the step count");
    words.pauseTip = tr("Stop after the current step");
    words.stepTip = tr("Take one step");
    words.resetTip = tr("Back to step 0: the session's matrices, the settings unlocked");
    runControls_->setWords(words);
    runControls_->setKeys(
        {QKeySequence(Qt::CTRL | Qt::Key_Return), QKeySequence(Qt::CTRL | Qt::Key_Period),
         QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Return),
         QKeySequence(Qt::CTRL | Qt::Key_Backspace)},
        this);
}

void TrainerPanel::makeExportMenu()
{
    export_ = new QToolButton(this);
    export_->setObjectName(QStringLiteral("TrainerExport"));
    export_->setText(tr("&Export"));
    export_->setPopupMode(QToolButton::InstantPopup);
    export_->setToolButtonStyle(Qt::ToolButtonTextOnly);
    auto* menu = new QMenu(export_);
    menu->addAction(tr("Loss curve (PNG, SVG, PDF)…"), this, [this] {
        const QString path = QFileDialog::getSaveFileName(this, tr("Export the loss curve"),
                                                          QStringLiteral("loss.png"),
                                                          tr("Figures (*.png *.svg *.pdf)"));
        QString error;
        if (!path.isEmpty() && !exportLossCurve(path, error)) say(error);
    });
    menu->addAction(tr("Film strip of the map (PNG, SVG, PDF)…"), this, [this] {
        const QString path = QFileDialog::getSaveFileName(this, tr("Export the film strip"),
                                                          QStringLiteral("film-strip.png"),
                                                          tr("Figures (*.png *.svg *.pdf)"));
        QString error;
        if (!path.isEmpty() && !exportFilmStrip(path, error)) say(error);
    });
    menu->addAction(tr("Loss curve as CSV…"), this, [this] {
        const QString path =
            QFileDialog::getSaveFileName(this, tr("Export the loss curve as CSV"),
                                         QStringLiteral("curve.csv"), tr("CSV (*.csv)"));
        QString error;
        if (!path.isEmpty() && !exportCurveCsv(path, error)) say(error);
    });
    export_->setMenu(menu);
}

// The settings and buttons in a column beside the display, the speed under the loss curve.
void TrainerPanel::layOut()
{
    status_ = new QLabel(this);
    status_->setObjectName(QStringLiteral("TrainerStatus"));
    status_->setWordWrap(true);
    message_ = new PanelMessage(this);

    auto* controls = new QWidget(this);
    auto* form = new QFormLayout;
    form->setContentsMargins(0, 0, 0, 0);
    form->setVerticalSpacing(3);  // the column sets the dock's height: compact at 1366 x 768
    form->addRow(tr("T&ask:"), task_);
    form->addRow(tr("Optimi&ser:"), optimizer_);
    form->addRow(tr("Learning &rate:"), rate_);
    form->addRow(tr("Ste&ps:"), steps_);
    form->addRow(tr("&Film strip at:"), filmSteps_);
    auto* grid = new QGridLayout(controls);
    grid->setContentsMargins(0, 0, 0, 0);
    grid->setVerticalSpacing(3);
    grid->addLayout(form, 0, 0, 1, 4);
    grid->addWidget(values_, 1, 0, 1, 2);
    grid->addWidget(shared_, 1, 2, 1, 2);
    grid->addWidget(runControls_, 2, 0, 1, 4);
    grid->addWidget(keep_, 3, 0);
    grid->addWidget(discard_, 3, 1);
    grid->addWidget(export_, 3, 2, 1, 2);
    grid->addWidget(compare_, 4, 0, 1, 4);
    grid->addWidget(paint_, 5, 0, 1, 2);
    grid->addWidget(takeP_, 5, 2, 1, 2);
    grid->addWidget(status_, 6, 0, 1, 4);
    grid->addWidget(message_, 7, 0, 1, 4);
    grid->setRowStretch(8, 1);
    export_->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Fixed);

    display_ = new TrainerDisplay(this);
    sequenceNote_ = display_->noteLabel();
    // The speed sits under the loss curve it drives, where the dock has room at 1366 x 768.
    display_->addUnderLossPlot(runControls_->speed());
    updateSpeed();
    auto* layout = new QHBoxLayout(this);
    layout->addWidget(controls, 0);
    layout->addWidget(display_, 1);
}

void TrainerPanel::connectControls()
{
    connect(task_, &QComboBox::currentIndexChanged, this, [this] {
        if (choice().task == attn::TaskKind::Pattern && pattern_.size() == 0) patternFromCurrentP();
        rebuild();
    });
    connect(optimizer_, &QComboBox::currentIndexChanged, this, [this] {
        rate_->setValue(defaultLearningRate(choice().optimizer));
        rebuild();
    });
    connect(rate_, &QDoubleSpinBox::valueChanged, this, [this] { rebuildSoon(); });
    connect(values_, &QCheckBox::toggled, this, [this] { rebuild(); });
    connect(shared_, &QCheckBox::toggled, this, [this] { rebuild(); });
    connect(filmSteps_, &QLineEdit::editingFinished, this, [this] { rebuild(); });
    connect(steps_, &QSpinBox::valueChanged, this, [this] { updateControls(); });
    connect(runControls_, &TrainingControls::delayChanged, this, &TrainerPanel::updateSpeed);
    connect(runControls_, &TrainingControls::startRequested, this, &TrainerPanel::start);
    connect(runControls_, &TrainingControls::pauseRequested, this, &TrainerPanel::pauseRuns);
    connect(runControls_, &TrainingControls::stepRequested, this, &TrainerPanel::stepOnce);
    connect(runControls_, &TrainingControls::resetRequested, this, &TrainerPanel::rebuild);
    connect(keep_, &QPushButton::clicked, this, &TrainerPanel::keep);
    connect(discard_, &QPushButton::clicked, this, &TrainerPanel::discard);
    connect(compare_, &QPushButton::clicked, this, &TrainerPanel::compare);
    connect(paint_, &QPushButton::clicked, this, [this] {
        patternFromCurrentP();
        rebuild();
    });
    connect(takeP_, &QPushButton::clicked, this, [this] {
        const QString path =
            QFileDialog::getOpenFileName(this, tr("Take P from another session"), QString(),
                                         tr("Sessions (*.json);;Patterns as CSV (*.csv *.txt)"));
        QString error;
        if (!path.isEmpty() && !takePatternFrom(path, error)) say(error);
    });
    connect(display_, &TrainerDisplay::targetClicked, this, &TrainerPanel::paintCell);
}

}  // namespace attnlab
