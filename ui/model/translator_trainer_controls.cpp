// SPDX-License-Identifier: GPL-3.0-or-later
// The translator trainer's controls: made, laid out, connected and worded (its runs are in
// translator_trainer_panel.cpp).
#include <QComboBox>
#include <QDir>
#include <QEvent>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QSpinBox>
#include <QSplitter>
#include <QVBoxLayout>

#include "ui/model/model_train_curves.h"
#include "ui/model/model_trainer_panel.h"
#include "ui/model/translator_train_curves.h"
#include "ui/model/translator_trainer_panel.h"
#include "ui/views/fit_column.h"
#include "ui/views/panel_message.h"
#include "ui/views/setting_spin.h"
#include "ui/views/speed_control.h"
#include "ui/views/training_controls.h"

namespace attnlab {

void TranslatorTrainerPanel::build()
{
    auto* controls = new QWidget;
    makeControls(controls);
    layOut(controls);
    connectControls();
}

void TranslatorTrainerPanel::makeControls(QWidget* controls)
{
    const attn::dates::RunSpec d;
    encoderLabel_ = new QLabel(controls);
    encoder_ = settingSpin(controls, 1, 6, static_cast<int>(d.encoderLayers));
    decoderLabel_ = new QLabel(controls);
    decoder_ = settingSpin(controls, 1, 6, static_cast<int>(d.decoderLayers));
    headsLabel_ = new QLabel(controls);
    heads_ = settingSpin(controls, 1, 8, static_cast<int>(d.heads));
    widthLabel_ = new QLabel(controls);
    width_ = settingSpin(controls, 16, 256, static_cast<int>(d.channels), 16);
    stepsLabel_ = new QLabel(controls);
    steps_ = settingSpin(controls, 1, 100000, static_cast<int>(d.steps), 100);
    seedLabel_ = new QLabel(controls);
    seed_ = settingSpin(controls, 0, 1000000, static_cast<int>(d.seed));
    runControls_ = new TrainingControls(TrainingControls::PauseButton::OnStart,
                                        TrainingControls::SpeedPlace::Below,
                                        std::vector<int>(std::begin(ModelTrainerPanel::kSpeeds),
                                                         std::end(ModelTrainerPanel::kSpeeds)),
                                        controls);
    runControls_->startButton()->setObjectName(QStringLiteral("translatorTrainStart"));
    open_ = new QPushButton(controls);
    save_ = new QPushButton(controls);
    message_ = new PanelMessage(controls);
    status_ = new QLabel;
    status_->setWordWrap(true);
    formedLabel_ = new QLabel;
    formedLabel_->setWordWrap(true);
    formedLabel_->setObjectName(QStringLiteral("translatorFormedLabel"));
    formedLabel_->setStyleSheet(QStringLiteral("color: #c81e1e;"));
    formedLabel_->hide();
    headLabel_ = new QLabel(controls);
    headChoice_ = new QComboBox(controls);
    filmLabel_ = new QLabel(controls);
    filmSteps_ = new QLineEdit(QString::fromLatin1(kDefaultFilmSteps), controls);
    keep_ = new QPushButton(controls);
    exportStrip_ = new QPushButton(controls);
    lossPlot_ = new TrainingCurvePlot;
    lossPlot_->setObjectName(QStringLiteral("translatorLossPlot"));
    lossPlot_->setMark(PhaseMarkedPlot::Mark::AlignmentForms);
    alignPlot_ = new AlignmentCurvePlot;
    crossView_ = new TranslatorCrossView;
    grid_ = new QGridLayout(controls);
    grid_->setContentsMargins(6, 2, 6, 2);
    grid_->setVerticalSpacing(3);
    int r = 1;  // row 0: the trainer's task (setHeader)
    const auto pair = [&](QLabel* a, QWidget* wa, QLabel* b, QWidget* wb) {
        a->setBuddy(wa);
        b->setBuddy(wb);
        grid_->addWidget(a, r, 0);
        grid_->addWidget(wa, r, 1);
        grid_->addWidget(b, r, 2);
        grid_->addWidget(wb, r++, 3);
    };
    pair(encoderLabel_, encoder_, decoderLabel_, decoder_);
    pair(headsLabel_, heads_, widthLabel_, width_);
    pair(stepsLabel_, steps_, seedLabel_, seed_);
    grid_->addWidget(runControls_, r++, 0, 1, 4);
    auto* model = new QHBoxLayout;
    model->addWidget(open_);
    model->addWidget(save_);
    grid_->addLayout(model, r++, 0, 1, 4);
    // The map's head and film strip here, not under the map: in a dock's height every row
    // taken there came off the map.
    headLabel_->setBuddy(headChoice_);
    grid_->addWidget(headLabel_, r, 0);
    grid_->addWidget(headChoice_, r++, 1, 1, 3);
    filmLabel_->setBuddy(filmSteps_);
    grid_->addWidget(filmLabel_, r, 0);
    grid_->addWidget(filmSteps_, r++, 1, 1, 3);
    auto* film = new QHBoxLayout;
    film->addWidget(keep_);
    film->addWidget(exportStrip_);
    grid_->addLayout(film, r++, 0, 1, 4);
    grid_->addWidget(message_, r++, 0, 1, 4);
    grid_->setRowStretch(r, 1);
    grid_->setColumnStretch(1, 1);
    grid_->setColumnStretch(3, 1);
}

void TranslatorTrainerPanel::setHeader(QWidget* header)
{
    grid_->addWidget(header, 0, 0, 1, 4);
    header->show();
    fitScrollColumn(scroll_);
}

// The settings in a column that scrolls, beside the plots and the live map with its film strip;
// what the run says under them.
void TranslatorTrainerPanel::layOut(QWidget* controls)
{
    auto* scroll = new QScrollArea(this);
    scroll->setWidget(controls);
    scroll->setWidgetResizable(true);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    scroll->setFrameShape(QFrame::NoFrame);
    // Its size follows the words (fitScrollColumn): a new width wraps them anew.
    scroll_ = scroll;
    scroll->viewport()->installEventFilter(this);
    auto* split = new QSplitter(Qt::Horizontal);
    split->addWidget(lossPlot_);
    split->addWidget(alignPlot_);
    split->addWidget(crossView_);
    split->setChildrenCollapsible(false);
    // The map is what the page is for: it gets the larger share.
    split->setStretchFactor(0, 2);
    split->setStretchFactor(1, 2);
    split->setStretchFactor(2, 3);
    auto* runPane = new QWidget;
    auto* says = new QVBoxLayout(runPane);
    says->setContentsMargins(0, 0, 4, 2);
    says->setSpacing(1);
    says->addWidget(split, 1);
    says->addWidget(status_);
    says->addWidget(formedLabel_);
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(scroll);
    layout->addWidget(runPane, 1);
}

void TranslatorTrainerPanel::connectControls()
{
    for (QSpinBox* s : {encoder_, decoder_, heads_, width_, steps_, seed_})
        connect(s, &QSpinBox::valueChanged, this, [this] { makeRun(); });
    connect(runControls_, &TrainingControls::startRequested, this, &TranslatorTrainerPanel::start);
    connect(runControls_, &TrainingControls::pauseRequested, this, &TranslatorTrainerPanel::pause);
    connect(runControls_, &TrainingControls::stepRequested, this,
            &TranslatorTrainerPanel::stepOnce);
    connect(runControls_, &TrainingControls::resetRequested, this, &TranslatorTrainerPanel::reset);
    connect(runControls_, &TrainingControls::delayChanged, this, [this](int delay) {
        if (run_) run_->setStepDelayUs(delay);
        retranslate();
    });
    connect(headChoice_, &QComboBox::activated, this, [this] { showMap(); });
    connect(open_, &QPushButton::clicked, this, [this] {
        QString error;
        if (!openInModelWindow(error)) message_->say(error);
    });
    connect(save_, &QPushButton::clicked, this, [this] {
        const QString folder = host_.saveFolder ? host_.saveFolder(QDir::homePath()) : QString();
        if (folder.isEmpty()) return;
        QString error;
        message_->say(saveTo(folder, error) ? QString() : error);
    });
    connect(keep_, &QPushButton::clicked, this, &TranslatorTrainerPanel::keepStep);
    connect(filmSteps_, &QLineEdit::editingFinished, this, &TranslatorTrainerPanel::applyFilmSteps);
    connect(exportStrip_, &QPushButton::clicked, this, [this] {
        const QString path = host_.figurePath
                                 ? host_.figurePath(QStringLiteral("alignment-film-strip.png"))
                                 : QString();
        if (path.isEmpty()) return;
        QString error;
        message_->say(exportFilmStrip(path, error) ? QString() : error);
    });
}

bool TranslatorTrainerPanel::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == scroll_->viewport() && event->type() == QEvent::Resize) fitScrollColumn(scroll_);
    return QWidget::eventFilter(watched, event);
}

void TranslatorTrainerPanel::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange) retranslate();
    QWidget::changeEvent(event);
}

void TranslatorTrainerPanel::retranslate()
{
    encoderLabel_->setText(tr("E&ncoder layers:"));
    decoderLabel_->setText(tr("&Decoder layers:"));
    headsLabel_->setText(tr("&Heads:"));
    widthLabel_->setText(tr("&Width:"));
    width_->setToolTip(tr("d_model, the width of the residual stream (a multiple of the heads)"));
    stepsLabel_->setText(tr("S&teps:"));
    seedLabel_->setText(tr("S&eed:"));
    seed_->setToolTip(tr("The same settings and seed train the same model, bit for bit"));
    ModelTrainerPanel::wordRunControls(runControls_);
    open_->setText(tr("Open in Model Window"));
    open_->setToolTip(
        tr("Writes the model as a Marian folder and opens it in the translator window: switch "
           "its cross-attention heads off there and watch the translation"));
    save_->setText(tr("Save Model…"));
    save_->setToolTip(tr("Write the model as a Hugging Face Marian folder with its training.json"));
    headLabel_->setText(tr("&Map of:"));
    filmLabel_->setText(tr("&Film strip:"));
    filmSteps_->setToolTip(tr("The steps whose map is kept for the film strip"));
    keep_->setText(tr("Keep This Step"));
    keep_->setToolTip(tr("Add the map of the current step to the film strip"));
    exportStrip_->setText(tr("Export Film Strip…"));
    retranslateHeads();
    updateState();
}

// "Best aligned head", then every cross-attention head of the run.
void TranslatorTrainerPanel::retranslateHeads()
{
    const int chosen = headChoice_->currentIndex();
    const QSignalBlocker block(headChoice_);
    headChoice_->clear();
    headChoice_->addItem(tr("Best aligned head"));
    headChoice_->setToolTip(
        tr("The head whose map is shown and exported: by default the one "
           "with the best alignment at the latest measure"));
    const attn::dates::RunSpec s = run_ ? run_->spec() : spec();
    for (long l = 0; l < s.decoderLayers; ++l)
        for (long h = 0; h < s.heads; ++h)
            headChoice_->addItem(tr("Layer %1 head %2").arg(l + 1).arg(h + 1));
    headChoice_->setCurrentIndex(chosen >= 0 && chosen < headChoice_->count() ? chosen : 0);
}

}  // namespace attnlab
