// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/long/long_window.h"

#include <QCloseEvent>
#include <QDir>
#include <QEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QMenuBar>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QScreen>
#include <QSplitter>
#include <QStackedWidget>
#include <QStatusBar>
#include <QVBoxLayout>

#include "ui/export/figure.h"
#include "ui/export/figure_renderer.h"
#include "ui/long/long_document.h"
#include "ui/long/long_panel.h"
#include "ui/readers/session_file.h"

namespace attnlab {

namespace {

// Four decimals, or two significant digits for the tiny weights of a long row.
QString weightText(float w)
{
    return w == 0.0f || w >= 1e-4f ? QLocale().toString(w, 'f', 4) : QString::number(w, 'e', 2);
}

}  // namespace

LongWindow::LongWindow(attn::Limits limits, QWidget* parent)
    : QMainWindow(parent), doc_(new LongDocument(limits, this))
{
    auto* central = new QWidget(this);
    auto* layout = new QVBoxLayout(central);
    layout->setContentsMargins(4, 4, 4, 0);

    strip_ = new QWidget(central);
    auto* strip = new QHBoxLayout(strip_);
    strip->setContentsMargins(0, 0, 0, 0);
    stripText_ = new QLabel(strip_);
    progress_ = new QProgressBar(strip_);
    progress_->setRange(0, 1000);
    progress_->setTextVisible(true);
    cancel_ = new QPushButton(strip_);
    cancel_->setShortcut(QKeySequence(Qt::Key_Escape));
    strip->addWidget(stripText_);
    strip->addWidget(progress_, 1);
    strip->addWidget(cancel_);
    strip_->hide();
    layout->addWidget(strip_);

    auto* split = new QSplitter(Qt::Horizontal, central);
    pages_ = new QStackedWidget(split);
    map_ = new HeatmapView(pages_);
    map_->setFocusPolicy(Qt::StrongFocus);
    pages_->addWidget(map_);
    auto* emptyPage = new QWidget(pages_);
    auto* emptyLayout = new QVBoxLayout(emptyPage);
    empty_ = new QLabel(emptyPage);
    empty_->setAlignment(Qt::AlignCenter);
    empty_->setWordWrap(true);
    recompute_ = new QPushButton(emptyPage);
    emptyLayout->addStretch(1);
    emptyLayout->addWidget(empty_);
    emptyLayout->addWidget(recompute_, 0, Qt::AlignHCenter);
    emptyLayout->addStretch(1);
    pages_->addWidget(emptyPage);
    panel_ = new LongPanel(doc_, split);
    panel_->setMinimumWidth(320);
    split->addWidget(pages_);
    split->addWidget(panel_);
    split->setStretchFactor(0, 1);
    split->setCollapsible(0, false);
    split->setCollapsible(1, false);
    layout->addWidget(split, 1);
    setCentralWidget(central);

    connect(cancel_, &QPushButton::clicked, doc_, &LongDocument::cancel);
    connect(recompute_, &QPushButton::clicked, doc_, &LongDocument::recompute);
    connect(doc_, &LongDocument::releasing, this, [this] {
        // The zoom outlives the map's memory: the same cells come back after the edit.
        keptView_ = KeptView{map_->xAxis->range(), map_->yAxis->range(), map_->content().rows(),
                             map_->content().cols()};
        map_->setContent(HeatmapContent{});
    });
    connect(doc_, &LongDocument::changed, this, &LongWindow::showResult);
    connect(doc_, &LongDocument::selectionChanged, this, [this] {
        if (map_->content().rows() > 0 && doc_->head() != shownHead_) showResult();
        map_->setSelection(doc_->selectedRow(), -1);
    });
    connect(doc_, &LongDocument::computingChanged, this, &LongWindow::showComputing);
    connect(doc_, &LongDocument::progressed, this,
            [this](double f) { progress_->setValue(static_cast<int>(f * 1000.0)); });
    connect(doc_, &LongDocument::errorOccurred, this,
            [this](const QString& message) { statusBar()->showMessage(message, 15000); });
    connect(doc_, &LongDocument::noticed, this,
            [this](const QString& message) { statusBar()->showMessage(message, 10000); });
    connect(map_, &HeatmapView::cellHovered, this, &LongWindow::showHover);
    connect(map_, &HeatmapView::cellClicked, this,
            [this](int row, int, Qt::KeyboardModifiers) { doc_->selectRow(row); });
    buildMenus();
    connect(doc_->undoStack(), &QUndoStack::cleanChanged, this,
            [this](bool clean) { setWindowModified(!clean); });
    askOnClose_ = [this] {
        return QMessageBox::question(
            this, tr("Unsaved changes"),
            tr("This long session has changes that are not saved. Save them?"),
            QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, QMessageBox::Save);
    };
    retranslate();
    // Most of the screen: the map is the point of this window.
    const QRect screen = this->screen()->availableGeometry();
    resize(std::min(1600, screen.width()), std::min(1000, screen.height()));
}

LongWindow* LongWindow::openSession(const Session& session, const QString& path, QString& error)
{
    auto* w = new LongWindow;
    w->setAttribute(Qt::WA_DeleteOnClose);
    if (!w->open(session, path)) {
        error = w->doc_->lastError();
        delete w;
        return nullptr;
    }
    w->show();
    w->raise();
    w->activateWindow();
    // The map, not the first spin box, has the keyboard (and no caret blinks over it).
    w->map_->setFocus();
    return w;
}

bool LongWindow::open(const Session& session, const QString& path)
{
    path_ = path;
    retranslate();
    return doc_->open(session);
}

void LongWindow::buildMenus()
{
    fileMenu_ = menuBar()->addMenu(QString());
    save_ = fileMenu_->addAction(QString(), this, &LongWindow::save);
    save_->setShortcut(QKeySequence::Save);
    saveAs_ = fileMenu_->addAction(QString(), this, &LongWindow::saveAs);
    saveAs_->setShortcut(QKeySequence::SaveAs);
    export_ = fileMenu_->addAction(QString(), this, &LongWindow::exportWithDialog);
    export_->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_E));
    fileMenu_->addSeparator();
    close_ = fileMenu_->addAction(QString(), this, &QWidget::close);
    close_->setShortcut(QKeySequence::Close);
    editMenu_ = menuBar()->addMenu(QString());
    // Not QUndoStack's own actions: an undo while a change computes would move the stack's
    // index while the document refuses the restore, and the two would disagree.
    QUndoStack* stack = doc_->undoStack();
    undo_ = editMenu_->addAction(QString(), this, [this] {
        if (!doc_->computing()) doc_->undoStack()->undo();
    });
    undo_->setShortcut(QKeySequence::Undo);
    redo_ = editMenu_->addAction(QString(), this, [this] {
        if (!doc_->computing()) doc_->undoStack()->redo();
    });
    redo_->setShortcut(QKeySequence::Redo);
    connect(stack, &QUndoStack::indexChanged, this, &LongWindow::updateUndo);
    connect(stack, &QUndoStack::cleanChanged, this, &LongWindow::updateUndo);
    connect(doc_, &LongDocument::computingChanged, this, &LongWindow::updateUndo);
    viewMenu_ = menuBar()->addMenu(QString());
    zoomIn_ = viewMenu_->addAction(QString(), this, [this] { map_->zoom(0.5); });
    zoomIn_->setShortcut(QKeySequence::ZoomIn);
    zoomOut_ = viewMenu_->addAction(QString(), this, [this] { map_->zoom(2.0); });
    zoomOut_->setShortcut(QKeySequence::ZoomOut);
    resetView_ = viewMenu_->addAction(QString(), this, [this] { map_->resetView(); });
    resetView_->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_0));
    viewMenu_->addSeparator();
    // Arrows move the selected row while the map has the keyboard (the spin boxes keep theirs).
    const auto rowStep = [this](QAction*& action, QKeySequence key, int step) {
        action = viewMenu_->addAction(
            QString(), this, [this, step] { doc_->selectRow(doc_->selectedRow() + step); });
        action->setShortcut(key);
        action->setShortcutContext(Qt::WidgetShortcut);
        map_->addAction(action);
    };
    rowStep(previousRow_, QKeySequence(Qt::Key_Up), -1);
    rowStep(nextRow_, QKeySequence(Qt::Key_Down), 1);
}

void LongWindow::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange) retranslate();
    QMainWindow::changeEvent(event);
}

void LongWindow::retranslate()
{
    setWindowTitle(tr("%1 — long sequence — AttnLab").arg(sessionName() + QStringLiteral("[*]")));
    fileMenu_->setTitle(tr("&File"));
    save_->setText(tr("&Save"));
    saveAs_->setText(tr("Save &As…"));
    export_->setText(tr("&Export map…"));
    export_->setToolTip(tr("Save the current head's map as PNG, SVG or PDF"));
    close_->setText(tr("&Close"));
    editMenu_->setTitle(tr("&Edit"));
    updateUndo();
    viewMenu_->setTitle(tr("&View"));
    zoomIn_->setText(tr("Zoom &in"));
    zoomOut_->setText(tr("Zoom &out"));
    resetView_->setText(tr("&Reset view"));
    previousRow_->setText(tr("&Previous row"));
    nextRow_->setText(tr("&Next row"));
    cancel_->setText(tr("Cancel"));
    cancel_->setToolTip(tr("Stop the computation (Esc)"));
    stripText_->setText(tr("Computing the weights in the background…"));
    recompute_->setText(tr("Compute again"));
    showResult();  // the map's title and the empty page's text
}

bool LongWindow::showsMap() const
{
    return pages_->currentWidget() == map_ && map_->content().rows() > 0;
}

HeatmapContent LongWindow::content() const
{
    HeatmapContent c;
    const auto result = doc_->result();
    if (!result || result->heads.empty()) return c;
    const Session& s = doc_->session();
    const int h = std::min(doc_->head(), static_cast<int>(result->heads.size()) - 1);
    const attn::LongHead& hd = result->heads[static_cast<std::size_t>(h)];
    // Shares the result's ownership: the map reads the weights in place for as long as it
    // shows them, and the document asks for them back (releasing) before reusing the memory.
    c.floats = std::shared_ptr<const attn::MatrixT<float>>(result, &hd.weights);
    c.causal = result->maskKind == attn::MaskKind::Causal;
    c.rowLabels = shownLabelsFor(s.targetTokens, hd.weights.rows());
    c.columnLabels = shownLabelsFor(keyTokens(s), hd.weights.cols());
    c.title = tr("Attention weights P, head %1 (%2 × %3, float)")
                  .arg(h + 1)
                  .arg(QLocale().toString(static_cast<qint64>(hd.weights.rows())),
                       QLocale().toString(static_cast<qint64>(hd.weights.cols())));
    c.rowAxisTitle = tr("query (row)");
    c.columnAxisTitle = tr("key (column)");
    c.scale = ColorScale::Weights;
    return c;
}

void LongWindow::showResult()
{
    const bool has = doc_->result() != nullptr;
    if (has) {
        shownHead_ = doc_->head();
        map_->setContent(content());
        if (keptView_ && keptView_->rows == map_->content().rows() &&
            keptView_->cols == map_->content().cols()) {
            map_->xAxis->setRange(keptView_->x);
            map_->yAxis->setRange(keptView_->y);
            map_->zoom(1.0);  // ticks for the range, and a replot
        }
        keptView_.reset();
        map_->setSelection(doc_->selectedRow(), -1);
    }
    empty_->setText(doc_->computing()
                        ? (doc_->keepsMapWhileComputing()
                               ? tr("Computing the weights…")
                               : tr("Computing the weights… The map shown before made room for "
                                    "them: two maps of this size do not fit in the memory budget."))
                        : tr("There is no map: the computation was cancelled or refused."));
    recompute_->setVisible(!doc_->computing());
    pages_->setCurrentIndex(has ? 0 : 1);
    export_->setEnabled(has);
}

void LongWindow::showComputing(bool computing)
{
    strip_->setVisible(computing);
    progress_->setValue(0);
    showResult();
}

void LongWindow::showHover(int row, int column)
{
    attn::VectorT<float> raw, scaled;
    const auto result = doc_->result();
    if (row < 0 || column < 0 || !result || !doc_->rowScores(row, raw, scaled)) {
        hover_.clear();
        statusBar()->clearMessage();
        return;
    }
    const Session& s = doc_->session();
    const attn::LongHead& hd = result->heads[static_cast<std::size_t>(doc_->head())];
    const QStringList& keys = keyTokens(s);
    const QLocale l;
    const bool masked = map_->content().isMasked(row, column);
    hover_ = tr("Query %1 “%2” → key %3 “%4”: weight %5 · score %6 · scaled %7")
                 .arg(row + 1)
                 .arg(row < s.targetTokens.size() ? shownLabel(s.targetTokens[row]) : QString())
                 .arg(column + 1)
                 .arg(column < keys.size() ? shownLabel(keys[column]) : QString(),
                      masked ? tr("masked") : weightText(hd.weights(row, column)),
                      l.toString(raw[column], 'f', 3), l.toString(scaled[column], 'f', 3));
    statusBar()->showMessage(hover_);
}

bool LongWindow::exportMap(const QString& path, QString& error) const
{
    if (!doc_->result()) {
        error = tr("There is no map to export yet.");
        return false;
    }
    Figure f;
    f.panels.push_back(content());
    f.title = f.panels.front().title;
    f.panels.front().title.clear();
    f.caption =
        tr("%1 tokens; only the weights were kept, in float; each pixel shows the largest weight "
           "of the cells it covers.")
            .arg(QLocale().toString(static_cast<qint64>(doc_->session().input.queryCount())));
    return writeFigure(f, path, defaultFigureSize(f), 2.0, error);
}

void LongWindow::updateUndo()
{
    const QUndoStack* stack = doc_->undoStack();
    const bool idle = !doc_->computing();
    undo_->setEnabled(idle && stack->canUndo());
    redo_->setEnabled(idle && stack->canRedo());
    undo_->setText(stack->canUndo() ? tr("&Undo %1").arg(stack->undoText()) : tr("&Undo"));
    redo_->setText(stack->canRedo() ? tr("&Redo %1").arg(stack->redoText()) : tr("&Redo"));
}

bool LongWindow::saveTo(const QString& path, QString& error)
{
    FileError e;
    if (!writeSessionFile(path, SessionFile{doc_->session(), {}}, e)) {
        error = e.message();
        return false;
    }
    path_ = path;
    doc_->undoStack()->setClean();
    retranslate();
    return true;
}

bool LongWindow::hasUnsavedChanges() const
{
    return !doc_->undoStack()->isClean();
}

QString LongWindow::sessionName() const
{
    return path_.isEmpty() ? tr("Long session") : QFileInfo(path_).fileName();
}

bool LongWindow::save()
{
    if (path_.isEmpty()) return saveAs();
    QString error;
    if (saveTo(path_, error)) return true;
    QMessageBox::warning(this, tr("Cannot save the session"), error);
    return false;
}

bool LongWindow::saveAs()
{
    const QString path = QFileDialog::getSaveFileName(this, tr("Save the long session"), path_,
                                                      tr("AttnLab sessions (*.attnlab.json)"));
    if (path.isEmpty()) return false;
    QString error;
    if (saveTo(path, error)) return true;
    QMessageBox::warning(this, tr("Cannot save the session"), error);
    return false;
}

void LongWindow::closeEvent(QCloseEvent* event)
{
    if (!doc_->undoStack()->isClean()) {
        const QMessageBox::StandardButton answer = askOnClose_();
        if (answer == QMessageBox::Cancel || (answer == QMessageBox::Save && !save())) {
            event->ignore();
            return;
        }
    }
    doc_->cancel();
    QMainWindow::closeEvent(event);
}

void LongWindow::exportWithDialog()
{
    // Next to the session file, named after it.
    const QFileInfo file(path_);
    const QString base =
        path_.isEmpty() ? tr("long-map") : file.completeBaseName().section(QLatin1Char('.'), 0, 0);
    const QString suggestion = path_.isEmpty()
                                   ? base + QStringLiteral(".png")
                                   : file.absoluteDir().filePath(base + QStringLiteral(".png"));
    const QString path = QFileDialog::getSaveFileName(this, tr("Export the map"), suggestion,
                                                      tr("Images (*.png *.svg *.pdf)"));
    if (path.isEmpty()) return;
    QString error;
    if (!exportMap(path, error))
        QMessageBox::warning(this, tr("Cannot export the map"), error);
    else
        statusBar()->showMessage(tr("Exported %1").arg(QFileInfo(path).fileName()), 5000);
}

}  // namespace attnlab
