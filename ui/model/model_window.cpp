// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/model/model_window.h"

#include <algorithm>

#include <QApplication>
#include <QCloseEvent>
#include <QComboBox>
#include <QDir>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QProgressBar>
#include <QPushButton>
#include <QScreen>
#include <QSettings>
#include <QSplitter>
#include <QStatusBar>
#include <QTimer>
#include <QVBoxLayout>

#include "ui/export/figure_renderer.h"
#include "ui/io/autosave.h"
#include "ui/model/architecture_note.h"
#include "ui/model/generate_panel.h"
#include "ui/model/head_lines_paint.h"
#include "ui/model/head_scores_panel.h"
#include "ui/model/head_scores_source.h"
#include "ui/model/head_view_panel.h"
#include "ui/model/model_change_panel.h"
#include "ui/model/model_document.h"
#include "ui/model/model_figures.h"
#include "ui/model/model_focus_panel.h"
#include "ui/model/model_grid_view.h"
#include "ui/model/model_presenter.h"
#include "ui/model/model_recovery.h"
#include "ui/model/model_trainer_panel.h"
#include "ui/model/predictions_panel.h"
#include "ui/model/seq2seq_window.h"
#include "ui/modelrun/builtin_models.h"
#include "ui/views/panel_message.h"

namespace attnlab {

namespace {

const QString kLastFolderKey = QStringLiteral("model/lastFolder");

ModelWindowDialogs defaultDialogs(QWidget* parent)
{
    ModelWindowDialogs d;
    d.openFolder = [parent](const QString& start) {
        return QFileDialog::getExistingDirectory(
            parent,
            ModelWindow::tr("Open a model folder (config.json, model.safetensors, tokenizer)"),
            start);
    };
    d.savePath = [parent](const QString& suggestion) {
        return QFileDialog::getSaveFileName(parent, ModelWindow::tr("Export figure"), suggestion,
                                            ModelWindow::tr("PNG image (*.png);;SVG drawing "
                                                            "(*.svg);;PDF document (*.pdf)"));
    };
    d.warn = [parent](const QString& title, const QString& text) {
        QMessageBox::warning(parent, title, text);
    };
    return d;
}

QString folderOf(const QMimeData* mime)
{
    if (!mime || !mime->hasUrls() || mime->urls().size() != 1) return {};
    const QString path = mime->urls().constFirst().toLocalFile();
    return QFileInfo(path).isDir() ? path : QString();
}

}  // namespace

ModelWindow::ModelWindow(QWidget* parent)
    : QMainWindow(parent), doc_(new ModelDocument(this)), dialogs_(defaultDialogs(this))
{
    setObjectName(QStringLiteral("modelWindow"));
    translatorOpener = [](const QString& folder, QString& error) {
        return openTranslator(folder, error) != nullptr;
    };
    setAcceptDrops(true);
    // 1280 x 800, or most of a smaller screen.
    QSize size(1280, 800);
    if (const QScreen* screen = QGuiApplication::primaryScreen())
        size = size.boundedTo(screen->availableGeometry().size() * 0.96);
    resize(size);
    progressTimer_ = new QTimer(this);
    progressTimer_->setInterval(50);
    connect(progressTimer_, &QTimer::timeout, this, &ModelWindow::updateProgress);
    connect(doc_, &ModelDocument::modelChanged, this, &ModelWindow::updateTitle);
    connect(doc_, &ModelDocument::busyChanged, this, &ModelWindow::showRunning);
    connect(doc_, &ModelDocument::errorOccurred, this, [this](const QString& m) {
        message_->say(m);
        statusBar()->showMessage(m, 8000);
    });
    connect(doc_, &ModelDocument::noticed, this,
            [this](const QString& m) { statusBar()->showMessage(m, 5000); });
    connect(doc_, &ModelDocument::snapshotChanged, this, [this] {
        const auto shown = doc_->snapshot();
        // What the tokenizer could not represent is said, never lost without a word.
        message_->say(shown ? droppedNotice(shown->dropped) : QString());
        if (shown && shown->generation)
            statusBar()->showMessage(
                tr("%n token(s), %1 written by the model; key/value cache and maps %2", nullptr,
                   static_cast<int>(shown->tokenCount()))
                    .arg(shown->tokenCount() - shown->writtenFrom())
                    .arg(QLocale().formattedDataSize(
                        static_cast<qint64>(shown->generation->decoding.cacheBytes()))));
        else if (shown)
            statusBar()->showMessage(
                tr("%n token(s), %1 ms", nullptr, static_cast<int>(shown->tokenCount()))
                    .arg(shown->milliseconds, 0, 'f', 0));
    });
    autosave_ = new Autosave(
        AutosaveKind::model(), [this] { return doc_->hasModel(); },
        [this](const QString& path, QString& error) {
            return writeModelRecovery(path, modelRecoveryState(*doc_), error);
        },
        this);
    // A typed text starts a run; an edit is an undo step and starts one too.
    connect(doc_, &ModelDocument::modelChanged, autosave_, &Autosave::changed);
    connect(doc_, &ModelDocument::busyChanged, autosave_, &Autosave::changed);
    connect(doc_, &ModelDocument::snapshotChanged, autosave_, &Autosave::changed);
    connect(doc_, &ModelDocument::selectionChanged, autosave_, &Autosave::changed);
    connect(doc_->undoStack(), &QUndoStack::indexChanged, autosave_, &Autosave::changed);
    // The application's window outlives exec() when it quits with this window open.
    connect(qApp, &QCoreApplication::aboutToQuit, autosave_, &Autosave::discard);
    presenter_ = new ModelPresenter(this);
    // The trainer lives through a change of language (its run goes on), unlike the docks that
    // buildInterface makes again.
    trainer_ = new ModelTrainerPanel;
    trainer_->setOpenModel([this](const QString& folder, const QString& text) {
        if (!openFolder(folder)) return false;
        // A translator opens in its own window, on a date of its own.
        if (!isEncoderDecoderFolder(folder)) setText(text);
        return true;
    });
    trainerDock_ = new QDockWidget(this);
    trainerDock_->setObjectName(QStringLiteral("modelTrainerDock"));
    trainerDock_->setWidget(trainer_);
    addDockWidget(Qt::BottomDockWidgetArea, trainerDock_);
    trainerDock_->hide();
    buildInterface();
    updateTitle();
}

QStringList ModelWindow::unsavedWork() const
{
    QStringList names;
    if (trainer_->hasUnsavedModel()) names << trainer_->unsavedModelName();
    return names;
}

bool ModelWindow::saveUnsavedWork()
{
    if (!trainer_->hasUnsavedModel()) return true;
    showTrainer();  // the question names the trainer; it shows what is being saved
    return trainer_->saveUnsavedModel();
}

void ModelWindow::showTranslatorTrainer()
{
    trainer_->showTask(ModelTrainerPanel::kTranslatorTask);
    showTrainer();
}

void ModelWindow::showTrainer(int layers)
{
    if (layers > 0) trainer_->presetInduction(layers);
    trainerDock_->show();
    trainerDock_->raise();
    // The plots and the grid need the height; the model view keeps the rest.
    resizeDocks({trainerDock_}, {std::max(340, height() * 2 / 5)}, Qt::Vertical);
}

void ModelWindow::present()
{
    show();
    raise();
    activateWindow();
}

QString ModelWindow::lastFolder()
{
    return QSettings().value(kLastFolderKey).toString();
}

QStringList ModelWindow::exampleTexts()
{
    return {QStringLiteral("The animal didn't cross the street because it was too tired"),
            QStringLiteral("The animal didn't cross the street because it was too wide"),
            QStringLiteral("那只动物没过街，因为它太累了"),
            QStringLiteral("The capital of France is [MASK]."),
            QStringLiteral("The animal didn't cross the street because [MASK] was too tired.")};
}

void ModelWindow::buildInterface()
{
    for (const QPointer<QObject>& o : built_) delete o.data();
    built_.clear();
    menuBar()->clear();

    QWidget* top = buildTextRow();
    buildCentral(top);
    buildDocks();
    // A long context (8,192 tokens is some 40,000 characters) must not be cut at QLineEdit's
    // default 32,767.
    text_->setMaxLength(1 << 22);
    connect(text_, &QLineEdit::textEdited, doc_, &ModelDocument::setText);
    // What the model wrote shows in the text box; typing there reads it all as text.
    connect(doc_, &ModelDocument::shownTextChanged, text_, [this](const QString& shown) {
        if (text_->text() != shown) text_->setText(shown);
    });
    connect(examples_, &QComboBox::activated, this, [this](int index) {
        if (index > 0) setText(examples_->itemText(index));
        examples_->setCurrentIndex(0);
    });
    connect(cancel_, &QPushButton::clicked, doc_, &ModelDocument::cancel);
    trainerDock_->setWindowTitle(tr("Model trainer"));
    buildMenus();
    showRunning(doc_->running());
}

// The text box with its examples, progress and Cancel, the message and the architecture note.
QWidget* ModelWindow::buildTextRow()
{
    auto* top = new QWidget(this);
    auto* textLabel = new QLabel(tr("&Text:"), top);
    text_ = new QLineEdit(doc_->text(), top);
    text_->setObjectName(QStringLiteral("modelText"));
    text_->setPlaceholderText(tr("Type a sentence; the model re-runs as you type"));
    text_->setClearButtonEnabled(true);
    textLabel->setBuddy(text_);
    examples_ = new QComboBox(top);
    examples_->addItem(tr("Examples…"));
    examples_->addItems(exampleTexts());
    examples_->setToolTip(tr("The textbook's sentences (BERT fills in [MASK])"));
    examples_->setMaximumWidth(260);
    progress_ = new QProgressBar(top);
    progress_->setMaximumWidth(160);
    progress_->setFormat(tr("layer %v of %m"));
    progress_->hide();
    cancel_ = new QPushButton(tr("Cancel"), top);
    cancel_->setToolTip(tr("Stop this run (Esc); the maps keep the last completed text"));
    cancel_->setShortcut(Qt::Key_Escape);
    cancel_->hide();
    message_ = new PanelMessage(top);
    auto* row = new QHBoxLayout;
    row->addWidget(textLabel);
    row->addWidget(text_, 1);
    row->addWidget(examples_);
    row->addWidget(progress_);
    row->addWidget(cancel_);
    auto* topLayout = new QVBoxLayout(top);
    topLayout->setContentsMargins(6, 6, 6, 0);
    topLayout->addLayout(row);
    topLayout->addWidget(message_);
    topLayout->addWidget(new ArchitectureNote(doc_, top));
    return top;
}

// The model view and the change grid on the left, the enlarged map on the right.
void ModelWindow::buildCentral(QWidget* top)
{
    grid_ = new ModelGridView(doc_);
    focus_ = new ModelFocusPanel(doc_);
    change_ = new ModelChangePanel(doc_);
    auto* left = new QSplitter(Qt::Vertical);
    left->addWidget(grid_);
    left->addWidget(change_);
    left->setStretchFactor(0, 3);
    left->setStretchFactor(1, 2);
    left->setChildrenCollapsible(false);
    auto* split = new QSplitter(Qt::Horizontal);
    split->addWidget(left);
    split->addWidget(focus_);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 1);
    split->setSizes({500, 500});  // the grid and the enlarged map share the room
    split->setChildrenCollapsible(false);
    auto* central = new QWidget(this);
    auto* layout = new QVBoxLayout(central);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(top);
    layout->addWidget(split, 1);
    setCentralWidget(central);
}

// The head view, the predictions and the head kinds at the right.
void ModelWindow::buildDocks()
{
    headView_ = new HeadViewPanel(doc_);
    predictions_ = new PredictionsPanel(doc_);
    auto dock = [this](QWidget* w, const QString& title, const QString& name) {
        auto* d = new QDockWidget(title, this);
        d->setObjectName(name);
        d->setWidget(w);
        addDockWidget(Qt::RightDockWidgetArea, d);
        built_ << d;
        return d;
    };
    QDockWidget* headDock = dock(headView_, tr("Head view"), QStringLiteral("headViewDock"));
    QDockWidget* predictionDock =
        dock(predictions_, tr("Predictions"), QStringLiteral("predictionsDock"));
    splitDockWidget(headDock, predictionDock, Qt::Vertical);
    headScores_ = new HeadScoresSource(doc_, this);
    grid_->setHeadScores(headScores_);
    QDockWidget* kindsDock = dock(new HeadScoresPanel(doc_, headScores_), tr("Head kinds"),
                                  QStringLiteral("headKindsDock"));
    tabifyDockWidget(headDock, kindsDock);
    generate_ = new GeneratePanel(doc_);
    QDockWidget* generateDock = dock(generate_, tr("Generate"), QStringLiteral("generateDock"));
    tabifyDockWidget(predictionDock, generateDock);
    predictionDock->raise();
    headDock->raise();
    // Wide enough for the predictions' four columns (token, before, after, change) in Chinese.
    resizeDocks({headDock}, {400}, Qt::Horizontal);
    resizeDocks({headDock, predictionDock}, {1, 1}, Qt::Vertical);
}

bool ModelWindow::openFolder(const QString& folder)
{
    // An encoder-decoder has a source and a target and three kinds of maps: its own window.
    if (isEncoderDecoderFolder(folder)) {
        QString error;
        if (!translatorOpener(folder, error)) {
            message_->say(tr("Could not open the model: %1").arg(error));
            dialogs_.warn(tr("Could not open the model"), error);
            return false;
        }
        QSettings().setValue(kLastFolderKey, folder);
        return true;
    }
    QString error;
    QApplication::setOverrideCursor(Qt::WaitCursor);
    const bool ok = doc_->open(folder, error);
    QApplication::restoreOverrideCursor();
    if (!ok) {
        message_->say(tr("Could not open the model: %1").arg(error));
        dialogs_.warn(tr("Could not open the model"), error);
        return false;
    }
    QSettings().setValue(kLastFolderKey, doc_->folder());
    if (doc_->text().isEmpty()) {
        // A built-in model opens on a text of its own kind (letters, poems).
        QString sample;
        for (const BuiltinModel& m : builtinModels())
            if (m.name == builtinNameOf(doc_->folder())) sample = m.sample;
        if (sample.isEmpty())
            sample = doc_->modelType() == QLatin1String("bert") ? exampleTexts().at(4)
                                                                : exampleTexts().at(0);
        setText(sample);
    }
    return true;
}

bool ModelWindow::openFolderDialog()
{
    const QString folder = dialogs_.openFolder(lastFolder());
    return !folder.isEmpty() && openFolder(folder);
}

void ModelWindow::setText(const QString& text)
{
    text_->setText(text);
    doc_->setText(text);
    doc_->runNow();
}

bool ModelWindow::exportTo(ModelExport what, const QString& path, QString& error) const
{
    const auto snap = doc_->snapshot();
    if (!snap) {
        error = tr("There is nothing to export yet: open a model and type a text.");
        return false;
    }
    Figure f;
    const ModelSelection& s = doc_->selection();
    switch (what) {
    case ModelExport::Grid: f = modelGridFigure(snap, modelName()); break;
    case ModelExport::Focus: {
        const auto w = doc_->focusedMatrix();
        if (!w) {
            error = tr("The enlarged map has nothing to draw: %1").arg(doc_->focusAbsence());
            return false;
        }
        f = modelMapFigure(snap->labels, *w, doc_->focusTitle());
        break;
    }
    case ModelExport::HeadView: {
        if (snap->pooled()) {
            error = headLinesTooLong(snap->tokenCount());
            return false;
        }
        const int head = headView_->shownHead();
        f = headLinesFigure(snap, s.layer, head >= 0 ? std::vector<int>{head} : std::vector<int>{});
        break;
    }
    }
    QSize size = defaultFigureSize(f);
    // As tall as the layers need: a two-layer model in GPT-2 small's 1400 pixels left most of
    // the figure blank.
    if (what == ModelExport::Grid)
        size = QSize(1600, std::clamp(300 + 160 * snap->layers(), 600, 1400));
    if (what == ModelExport::HeadView)
        size = QSize(900, std::max(700, 90 + 26 * static_cast<int>(snap->tokenCount())));
    return writeFigure(f, path, size, 1.0, error);
}

void ModelWindow::exportWithDialog(ModelExport what)
{
    const QString names[] = {QStringLiteral("model-view.png"), QStringLiteral("model-map.png"),
                             QStringLiteral("head-view.png")};
    const QString path = dialogs_.savePath(names[static_cast<int>(what)]);
    if (path.isEmpty()) return;
    QString error;
    if (!exportTo(what, path, error))
        dialogs_.warn(tr("Export failed"), error);
    else
        statusBar()->showMessage(tr("Wrote %1").arg(QDir::toNativeSeparators(path)), 5000);
}

QString ModelWindow::modelName() const
{
    // A built-in model's copy is a folder named by a hash ("induction-9ff9fcfa8810").
    const QString builtin = builtinNameOf(doc_->folder());
    return builtin.isEmpty() ? QFileInfo(doc_->folder()).fileName() : builtinReference(builtin);
}

void ModelWindow::updateTitle()
{
    setWindowTitle(doc_->hasModel()
                       ? tr("AttnLab — %1 (%2)").arg(modelName(), doc_->describeModel())
                       : tr("AttnLab — real model"));
}

void ModelWindow::showRunning(bool running)
{
    progress_->setRange(0, std::max(1, doc_->layers() + 1));
    progress_->setValue(doc_->progressDone());
    // The bar shows only for runs long enough to watch (a short run would only flicker it).
    if (running) {
        progressTimer_->start();
    } else {
        progressTimer_->stop();
        progress_->hide();
        cancel_->hide();
    }
}

void ModelWindow::updateProgress()
{
    progress_->setValue(doc_->progressDone());
    progress_->show();
    cancel_->show();
}

void ModelWindow::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange) {
        buildInterface();
        updateTitle();
    }
    QMainWindow::changeEvent(event);
}

void ModelWindow::dragEnterEvent(QDragEnterEvent* event)
{
    if (!folderOf(event->mimeData()).isEmpty()) event->acceptProposedAction();
}

void ModelWindow::dropEvent(QDropEvent* event)
{
    const QString folder = folderOf(event->mimeData());
    if (folder.isEmpty()) return;
    event->acceptProposedAction();
    openFolder(folder);
}

void ModelWindow::closeEvent(QCloseEvent* event)
{
    doc_->cancel();
    autosave_->discard();  // closed normally: nothing to recover
    QMainWindow::closeEvent(event);
}

}  // namespace attnlab
