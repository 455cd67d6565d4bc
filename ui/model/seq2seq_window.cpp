// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/model/seq2seq_window.h"

#include <QApplication>
#include <QCloseEvent>
#include <QDir>
#include <QEvent>
#include <QFile>
#include <QFileDialog>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QProgressBar>
#include <QPushButton>
#include <QScreen>
#include <QSplitter>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableWidget>
#include <QUndoStack>
#include <QVBoxLayout>

#include "core/model/model_folder.h"
#include "core/model/seq2seq_config.h"
#include "ui/export/figure_renderer.h"
#include "ui/export/model_map_figure.h"
#include "ui/io/autosave.h"
#include "ui/model/seq2seq_document.h"
#include "ui/model/seq2seq_grid_view.h"
#include "ui/model/seq2seq_head_view.h"
#include "ui/model/seq2seq_recovery.h"
#include "ui/modelrun/builtin_models.h"
#include "ui/presenter/mark_store.h"
#include "ui/presenter/presenter_window.h"
#include "ui/views/heatmap_view.h"
#include "ui/views/panel_message.h"

namespace attnlab {

namespace {

using attn::model::AttentionKind;

constexpr int kShownGuesses = 3;

}  // namespace

Seq2SeqWindow::Seq2SeqWindow(QWidget* parent) : QMainWindow(parent), doc_(new Seq2SeqDocument(this))
{
    setObjectName(QStringLiteral("seq2seqWindow"));
    QSize size(1280, 800);
    if (const QScreen* screen = QGuiApplication::primaryScreen())
        size = size.boundedTo(screen->availableGeometry().size() * 0.96);
    resize(size);
    marks_ = new MarkStore(this);
    savePath = [this](const QString& suggestion) {
        return QFileDialog::getSaveFileName(this, tr("Export map"), suggestion,
                                            tr("PNG image (*.png);;SVG drawing (*.svg);;PDF "
                                               "document (*.pdf)"));
    };
    openPath = [this] {
        return QFileDialog::getExistingDirectory(this, tr("Open an encoder-decoder folder"));
    };
    auto* central = new QWidget(this);
    auto* layout = new QVBoxLayout(central);
    layout->addWidget(buildTextRows());
    explanation_ = new QLabel(central);
    explanation_->setObjectName(QStringLiteral("seq2seqExplanation"));
    explanation_->setWordWrap(true);
    layout->addWidget(explanation_);
    message_ = new PanelMessage(central);
    layout->addWidget(message_);
    layout->addWidget(buildCentral(), 1);
    setCentralWidget(central);
    buildMenus();
    connect(doc_, &Seq2SeqDocument::snapshotChanged, this, &Seq2SeqWindow::refreshRun);
    connect(doc_, &Seq2SeqDocument::selectionChanged, this, &Seq2SeqWindow::refreshSelection);
    connect(doc_, &Seq2SeqDocument::modelChanged, this, &Seq2SeqWindow::retranslate);
    connect(doc_, &Seq2SeqDocument::errorOccurred, this, [this](const QString& m) {
        message_->say(m);
        statusBar()->showMessage(m, 8000);
    });
    connect(doc_, &Seq2SeqDocument::noticed, this, [this](const QString& m) {
        message_->say(m);
        statusBar()->showMessage(m, 8000);
    });
    connect(doc_, &Seq2SeqDocument::busyChanged, this, [this](bool busy) {
        progress_->setVisible(busy);
        translate_->setEnabled(!busy || doc_->hasModel());
    });
    autosave_ = new Autosave(
        AutosaveKind::translator(), [this] { return doc_->hasModel(); },
        [this](const QString& path, QString& error) {
            return writeSeq2SeqRecovery(path, seq2seqRecoveryState(*doc_), error);
        },
        this);
    for (auto signal : {&Seq2SeqDocument::modelChanged, &Seq2SeqDocument::snapshotChanged,
                        &Seq2SeqDocument::selectionChanged})
        connect(doc_, signal, autosave_, &Autosave::changed);
    connect(doc_, &Seq2SeqDocument::busyChanged, autosave_, &Autosave::changed);
    connect(doc_->undoStack(), &QUndoStack::indexChanged, autosave_, &Autosave::changed);
    // The window outlives exec() when the application quits with it open.
    connect(qApp, &QCoreApplication::aboutToQuit, autosave_, &Autosave::discard);
    retranslate();
    refreshSelection();
}

QWidget* Seq2SeqWindow::buildTextRows()
{
    auto* box = new QWidget(this);
    auto* grid = new QGridLayout(box);
    grid->setContentsMargins(0, 0, 0, 0);
    sourceLabel_ = new QLabel(box);
    targetLabel_ = new QLabel(box);
    source_ = new QLineEdit(box);
    source_->setObjectName(QStringLiteral("seq2seqSource"));
    source_->setClearButtonEnabled(true);
    target_ = new QLineEdit(box);
    target_->setObjectName(QStringLiteral("seq2seqTarget"));
    target_->setClearButtonEnabled(true);
    translate_ = new QPushButton(box);
    translate_->setObjectName(QStringLiteral("seq2seqTranslate"));
    progress_ = new QProgressBar(box);
    progress_->setRange(0, 0);
    progress_->setMaximumWidth(120);
    progress_->hide();
    grid->addWidget(sourceLabel_, 0, 0);
    grid->addWidget(source_, 0, 1);
    grid->addWidget(translate_, 0, 2);
    grid->addWidget(targetLabel_, 1, 0);
    grid->addWidget(target_, 1, 1);
    grid->addWidget(progress_, 1, 2);
    grid->setColumnStretch(1, 1);
    connect(source_, &QLineEdit::textEdited, doc_, &Seq2SeqDocument::setSource);
    // Typing a target makes the decoder read it; clearing it lets the model translate again.
    connect(target_, &QLineEdit::textEdited, doc_, [this](const QString& text) {
        if (text.trimmed().isEmpty())
            doc_->translate();
        else
            doc_->setTarget(text);
    });
    connect(translate_, &QPushButton::clicked, doc_, &Seq2SeqDocument::translate);
    return box;
}

QWidget* Seq2SeqWindow::buildCentral()
{
    auto* split = new QSplitter(Qt::Horizontal, this);
    auto* gridsBox = new QSplitter(Qt::Vertical, split);
    const AttentionKind kinds[3] = {AttentionKind::Encoder, AttentionKind::Decoder,
                                    AttentionKind::Cross};
    for (int k = 0; k < 3; ++k) grids_[k] = new Seq2SeqGridView(doc_, kinds[k], gridsBox);
    auto* right = new QSplitter(Qt::Vertical, split);
    tabs_ = new QTabWidget(right);
    map_ = new HeatmapView(tabs_);
    map_->setMinimumSize(240, 200);
    headView_ = new Seq2SeqHeadView(doc_, tabs_);
    tabs_->addTab(map_, QString());
    tabs_->addTab(headView_, QString());
    predictions_ = new QTableWidget(right);
    predictions_->setObjectName(QStringLiteral("seq2seqPredictions"));
    predictions_->setColumnCount(2 + kShownGuesses);
    predictions_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    predictions_->verticalHeader()->hide();
    // Columns fit their text and the last takes the rest, however often the rows are refilled
    // (resizing to contents after each run left a gap right of the last column).
    for (int c = 0; c + 1 < predictions_->columnCount(); ++c)
        predictions_->horizontalHeader()->setSectionResizeMode(c, QHeaderView::ResizeToContents);
    predictions_->horizontalHeader()->setSectionResizeMode(predictions_->columnCount() - 1,
                                                           QHeaderView::Stretch);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 1);
    right->setStretchFactor(0, 3);
    right->setStretchFactor(1, 2);
    return split;
}

void Seq2SeqWindow::buildMenus()
{
    menuBar()->clear();
    QMenu* file = menuBar()->addMenu(tr("&File"));
    file->addAction(tr("&Open Model…"), QKeySequence::Open, this, [this] {
        const QString folder = openPath();
        if (!folder.isEmpty()) openFolder(folder);
    });
    file->addAction(tr("&Export Map…"), QKeySequence(tr("Ctrl+E")), this, [this] {
        const QString path = savePath(QStringLiteral("attention.png"));
        QString error;
        if (!path.isEmpty() && !exportMap(path, error)) message_->say(error);
    });
    file->addSeparator();
    file->addAction(tr("&Close"), QKeySequence::Close, this, &QWidget::close);
    QMenu* edit = menuBar()->addMenu(tr("&Edit"));
    QAction* undo = doc_->undoStack()->createUndoAction(this, tr("&Undo"));
    undo->setShortcut(QKeySequence::Undo);
    QAction* redo = doc_->undoStack()->createRedoAction(this, tr("&Redo"));
    redo->setShortcut(QKeySequence::Redo);
    edit->addAction(undo);
    edit->addAction(redo);
    edit->addSeparator();
    edit->addAction(tr("Clear Head &Edits"), this, [this] { doc_->clearEdits(); });
    QMenu* view = menuBar()->addMenu(tr("&View"));
    QAction* presentFront =
        view->addAction(tr("&Presenter View"), QKeySequence(Qt::Key_F5), this, [this] {
            present(tabs_->currentWidget() == headView_ ? QStringLiteral("head-view")
                                                        : QStringLiteral("map"));
        });
    presentFront->setToolTip(
        tr("The figure in front (the enlarged map or the head view) full screen with large "
           "text, with a pen, a highlighter and a pointer"));
    QMenu* which = view->addMenu(tr("Present"));
    which->addAction(tr("The &Enlarged Map"), this, [this] { present(QStringLiteral("map")); });
    which->addAction(tr("The &Head View"), this, [this] { present(QStringLiteral("head-view")); });
    which->addAction(tr("The Three &Grids"), QKeySequence(tr("Shift+F5")), this,
                     [this] { present(QStringLiteral("grids")); });
    QMenu* model = menuBar()->addMenu(tr("&Model"));
    QAction* translate = model->addAction(tr("&Translate"), QKeySequence(tr("Ctrl+T")), doc_,
                                          &Seq2SeqDocument::translate);
    translate->setToolTip(tr("Fill the target with the model's greedy translation"));
    model->addAction(tr("Stop the Run"), QKeySequence(Qt::Key_Escape), doc_,
                     &Seq2SeqDocument::cancel);
}

PresenterWindow* Seq2SeqWindow::presenterWindow() const
{
    return presented_.data();
}

bool Seq2SeqWindow::present(const QString& view)
{
    QWidget* content = nullptr;
    if (view == QLatin1String("map")) {
        auto* map = new HeatmapView();
        map->setContent(selectedMapContent());
        // The presented map follows the window's selection and runs while it is shown.
        for (auto signal : {&Seq2SeqDocument::snapshotChanged, &Seq2SeqDocument::selectionChanged})
            connect(doc_, signal, map, [this, map] { map->setContent(selectedMapContent()); });
        content = map;
    } else if (view == QLatin1String("head-view")) {
        content = new Seq2SeqHeadView(doc_);
    } else if (view == QLatin1String("grids")) {
        content = new QWidget();
        auto* row = new QHBoxLayout(content);
        for (const AttentionKind k :
             {AttentionKind::Encoder, AttentionKind::Decoder, AttentionKind::Cross})
            row->addWidget(new Seq2SeqGridView(doc_, k, content));
    }
    if (content == nullptr) return false;
    if (presented_) presented_->close();
    PresenterWindow::scaleFonts(content, PresenterWindow::MapFontScale);
    presented_ = new PresenterWindow(content, marks_, QStringLiteral("translator/") + view, this);
    presented_->showOn(screen());
    return true;
}

// A built-in model's own sample, a date for a translator of the dates task, else a sentence.
QString Seq2SeqWindow::sampleSource(const QString& folder)
{
    for (const BuiltinModel& m : builtinModels())
        if (m.name == builtinNameOf(folder)) return m.sample;
    attn::model::FolderRecord record;
    if (attn::model::readFolderRecord(QFile::encodeName(folder).toStdString(), record).ok() &&
        record.task == "dates")
        return QStringLiteral("二〇二六年十二月四日");
    return QStringLiteral("I like to read books.");
}

bool Seq2SeqWindow::openFolder(const QString& folder, QString* why)
{
    QString error;
    QApplication::setOverrideCursor(Qt::WaitCursor);
    const bool ok = doc_->open(folder, error);
    QApplication::restoreOverrideCursor();
    message_->say(ok ? QString() : tr("Could not open the model: %1").arg(error));
    if (why != nullptr) *why = error;
    if (ok && doc_->source().isEmpty()) setSource(sampleSource(folder));
    return ok;
}

void Seq2SeqWindow::setSource(const QString& text)
{
    source_->setText(text);
    doc_->setSource(text);
    doc_->translate();
}

void Seq2SeqWindow::restore(const QString& source, const QString& target,
                            std::vector<attn::model::HeadEdit> edits)
{
    source_->setText(source);
    doc_->setSource(source);
    target_->setText(target);
    doc_->setTarget(target);
    doc_->applyEdits(std::move(edits));
}

void Seq2SeqWindow::closeEvent(QCloseEvent* event)
{
    autosave_->discard();  // closed normally: nothing to recover
    QMainWindow::closeEvent(event);
}

bool Seq2SeqWindow::exportMap(const QString& path, QString& error) const
{
    const auto snap = doc_->snapshot();
    const attn::model::FloatMatrix* m = doc_->selectedMap();
    if (!snap || m == nullptr) {
        error = tr("There is nothing to export yet: open a model and type a source text.");
        return false;
    }
    const AttentionKind kind = doc_->selection().kind;
    const QStringList& rows =
        kind == AttentionKind::Encoder ? snap->source.labels : snap->target.labels;
    const QStringList& columns =
        kind == AttentionKind::Decoder ? snap->target.labels : snap->source.labels;
    const Figure f = modelMapFigure(rows, columns, *m, doc_->selectionTitle());
    return writeFigure(f, path, modelMapFigureSize(f, m->rows(), m->cols()), 1.0, error);
}

void Seq2SeqWindow::refreshRun()
{
    const auto snap = doc_->snapshot();
    if (snap && snap->translated && !target_->hasFocus()) target_->setText(doc_->translationText());
    if (snap) {
        message_->say(QString());
        statusBar()->showMessage(tr("%1 source and %2 target tokens, %3 ms")
                                     .arg(snap->source.count())
                                     .arg(snap->target.count())
                                     .arg(snap->milliseconds, 0, 'f', 0));
    }
    refreshSelection();
    refreshPredictions();
}

void Seq2SeqWindow::refreshSelection()
{
    const auto snap = doc_->snapshot();
    const AttentionKind kind = doc_->selection().kind;
    QString line = doc_->hasModel() ? doc_->explanation(kind)
                                    : tr("Open an encoder-decoder model (File ▸ Open Model…): "
                                         "BART, Marian (opus-mt) or T5.");
    if (snap && snap->carry)
        line += QLatin1Char('\n') +
                tr("Cross layer %1, head %2 is the workbench's, with its edits: the change grid "
                   "and the predictions show what it does to the rest of the model.")
                    .arg(snap->carry->layer + 1)
                    .arg(snap->carry->head + 1);
    explanation_->setText(line);
    map_->setContent(selectedMapContent());
    for (Seq2SeqGridView* g : grids_) g->update();
}

HeatmapContent Seq2SeqWindow::selectedMapContent() const
{
    const auto snap = doc_->snapshot();
    const AttentionKind kind = doc_->selection().kind;
    HeatmapContent c;
    const attn::model::FloatMatrix* m = doc_->selectedMap();
    if (snap && m != nullptr) {
        c.floats = std::shared_ptr<const attn::model::FloatMatrix>(snap, m);
        c.rowLabels = kind == AttentionKind::Encoder ? snap->source.labels : snap->target.labels;
        c.columnLabels = kind == AttentionKind::Decoder ? snap->target.labels : snap->source.labels;
        c.title = doc_->selectionTitle();
        c.rowAxisTitle =
            kind == AttentionKind::Encoder ? tr("query (source)") : tr("query (target)");
        c.columnAxisTitle =
            kind == AttentionKind::Decoder ? tr("key (target)") : tr("key (source)");
        c.scale = ColorScale::Weights;
        c.range = ValueRange(0.0, 1.0);
    }
    return c;
}

void Seq2SeqWindow::refreshPredictions()
{
    const auto snap = doc_->snapshot();
    predictions_->setRowCount(snap ? static_cast<int>(snap->predictions.size()) : 0);
    if (!snap) return;
    for (int i = 0; i < static_cast<int>(snap->predictions.size()); ++i) {
        const ModelPrediction& p = snap->predictions[static_cast<std::size_t>(i)];
        predictions_->setItem(i, 0, new QTableWidgetItem(QString::number(i + 1)));
        predictions_->setItem(i, 1, new QTableWidgetItem(snap->target.labels.value(i)));
        for (int k = 0; k < kShownGuesses && k < static_cast<int>(p.top.size()); ++k) {
            const ModelGuess& g = p.top[static_cast<std::size_t>(k)];
            QString text = tr("%1  %2 %").arg(g.label).arg(g.probability * 100.0, 0, 'f', 1);
            if (snap->edited() && isProbabilityChange(g.before, g.probability))
                text += QStringLiteral("  (%1)").arg(percentPointChange(g.before, g.probability));
            predictions_->setItem(i, 2 + k, new QTableWidgetItem(text));
        }
    }
}

void Seq2SeqWindow::retranslate()
{
    setWindowTitle(doc_->hasModel() ? tr("AttnLab translator — %1").arg(doc_->describeModel())
                                    : tr("AttnLab translator"));
    sourceLabel_->setText(tr("Source:"));
    targetLabel_->setText(tr("Target:"));
    source_->setPlaceholderText(tr("Type a sentence to translate"));
    target_->setPlaceholderText(tr("The model's translation, or type your own target"));
    translate_->setText(tr("Translate"));
    translate_->setToolTip(tr("Fill the target with the model's greedy translation (Ctrl+T)"));
    tabs_->setTabText(0, tr("Map"));
    tabs_->setTabText(1, tr("Head view"));
    predictions_->setHorizontalHeaderLabels(
        {tr("#"), tr("Reads"), tr("1st guess"), tr("2nd guess"), tr("3rd guess")});
    refreshSelection();
}

void Seq2SeqWindow::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange) {
        buildMenus();
        retranslate();
        refreshPredictions();
    }
    QMainWindow::changeEvent(event);
}

bool isEncoderDecoderFolder(const QString& folder)
{
    return attn::model::isSeq2SeqType(attn::model::configModelType(
        QFile::encodeName(QDir(folder).filePath(QStringLiteral("config.json"))).toStdString()));
}

Seq2SeqWindow* openTranslator(const QString& folder, QString& error, Seq2SeqWindow* window)
{
    Seq2SeqWindow* translator = window != nullptr ? window : new Seq2SeqWindow();
    translator->setAttribute(Qt::WA_DeleteOnClose);
    if (!translator->openFolder(folder, &error)) {
        delete translator;
        return nullptr;
    }
    translator->show();
    translator->raise();
    translator->activateWindow();
    return translator;
}

}  // namespace attnlab
