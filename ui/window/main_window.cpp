// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/window/main_window.h"

#include <QCloseEvent>
#include <QDockWidget>
#include <QFileInfo>
#include <QMenuBar>
#include <QScreen>
#include <QScrollArea>
#include <QSettings>
#include <QStackedWidget>
#include <QStatusBar>
#include <QTabWidget>
#include <QTimer>
#include <QToolBar>
#include <QVBoxLayout>

#include "ui/document/document.h"
#include "ui/document/long_document.h"
#include "ui/model/cross_link.h"
#include "ui/model/head_link.h"
#include "ui/model/head_request.h"
#include "ui/model/model_document.h"
#include "ui/model/model_link_panel.h"
#include "ui/model/model_window.h"
#include "ui/model/model_windows.h"
#include "ui/model/seq2seq_document.h"
#include "ui/model/seq2seq_window.h"
#include "ui/modelrun/head_session.h"
#include "ui/panels/controls_panel.h"
#include "ui/panels/heads_grid_panel.h"
#include "ui/panels/long_map_panel.h"
#include "ui/panels/matrices_panel.h"
#include "ui/panels/pipeline_panel.h"
#include "ui/panels/row_inspector_panel.h"
#include "ui/panels/sequences_panel.h"
#include "ui/panels/vector_editor_panel.h"
#include "ui/panels/walkthrough_panel.h"
#include "ui/panels/weights_panel.h"
#include "ui/presenter/mark_store.h"
#include "ui/train/trainer_panel.h"
#include "ui/views/panel_message.h"
#include "ui/window/dock_layout.h"
#include "ui/window/export_actions.h"
#include "ui/window/file_actions.h"
#include "ui/window/lesson_actions.h"
#include "ui/window/presenter_actions.h"
#include "ui/window/walkthrough_actions.h"
#include "ui/window/window_actions.h"

namespace attnlab {

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent), doc_(new Document(this)), long_(new LongDocument({}, this))
{
    setObjectName(QStringLiteral("MainWindow"));
    setDockNestingEnabled(true);

    // What outlives a language switch: the document and the file/autosave state.
    models_ = new ModelWindows(this);
    files_ = new FileActions(this, doc_, long_, models_);
    marks_ = new MarkStore(this);
    link_ = new HeadLink(doc_, this);
    crossLink_ = new CrossLink(doc_, this);
    buildInterface();
    // The model window's "Open in Workbench" comes here.
    connect(models_, &ModelWindows::made, this, &MainWindow::adoptModelWindow);
    connect(models_, &ModelWindows::translatorMade, this, &MainWindow::adoptTranslator);
    connect(doc_, &Document::inputsChanged, this, &MainWindow::provenanceChanged);
    // The head replaced the session: Save must not write it over the file that was open.
    connect(link_, &HeadLink::headOpened, this, [this] {
        files_->detachFromFile();
        updateTitle();
    });
    connect(link_, &HeadLink::errorOccurred, this,
            [this](const QString& message) { statusBar()->showMessage(message, 12000); });
    connect(doc_, &Document::errorOccurred, this,
            [this](const QString& message) { statusBar()->showMessage(message, 8000); });
    connect(doc_, &Document::noticed, this,
            [this](const QString& message) { statusBar()->showMessage(message, 8000); });
    connect(doc_->undoStack(), &QUndoStack::cleanChanged, this, &MainWindow::updateTitle);
    connect(long_->undoStack(), &QUndoStack::cleanChanged, this, &MainWindow::updateTitle);
    connect(long_, &LongDocument::openChanged, this, [this](bool open) {
        // The docks would only say that they cannot serve it: the map takes their room, and
        // the workbench gets its layout back after.
        if (open && !longLayout_) {
            workbenchState_ = saveState();
            longLayout_ = true;
            for (QDockWidget* dock : findChildren<QDockWidget*>(Qt::FindDirectChildrenOnly))
                dock->hide();
        } else if (!open && longLayout_) {
            longLayout_ = false;
            restoreState(workbenchState_);
        }
        showLongSession();
        updateTitle();
    });
    connect(long_, &LongDocument::errorOccurred, this,
            [this](const QString& message) { statusBar()->showMessage(message, 15000); });
    connect(long_, &LongDocument::noticed, this,
            [this](const QString& message) { statusBar()->showMessage(message, 10000); });
    connect(files_, &FileActions::currentFileChanged, this, &MainWindow::updateTitle);
    connect(files_, &FileActions::readingChanged, this, [this](bool reading, const QString& path) {
        if (reading)
            statusBar()->showMessage(tr("Reading %1…").arg(QFileInfo(path).fileName()));
        else
            statusBar()->clearMessage();
    });
    connect(doc_, &Document::viewChanged, this, &MainWindow::updateTitle);  // a lesson opened
    updateTitle();
    resize(1500, 950);
    restoreLayout();
}

void MainWindow::adoptModelWindow(ModelWindow* window)
{
    connect(window->document(), &ModelDocument::workbenchRequested, this, &MainWindow::takeHead);
}

void MainWindow::takeHead(const HeadRequest& request, HeadReply* reply)
{
    if (!leaveLongSession()) {
        reply->error = tr("The long session stays open: its changes were not saved.");
        return;
    }
    crossLink_->detach();
    if (!link_->openHead(request.loaded, request.run, request.layer, request.head, reply->error))
        return;
    reply->taken = true;
    show();
    raise();
    activateWindow();
}

void MainWindow::adoptTranslator(Seq2SeqWindow* window)
{
    connect(window->document(), &Seq2SeqDocument::workbenchRequested, this,
            &MainWindow::takeCrossHead);
}

void MainWindow::takeCrossHead(const CrossHeadRequest& request, HeadReply* reply)
{
    if (!leaveLongSession()) {
        reply->error = tr("The long session stays open: its changes were not saved.");
        return;
    }
    crossLink_->detach();
    if (!doc_->replaceSession(request.session, request.title)) {
        reply->error = tr("The workbench cannot open that head.");
        return;
    }
    crossLink_->attach(request.translator, request);
    // The head replaced the session: Save must not write it over the file that was open.
    files_->detachFromFile();
    updateTitle();
    tabs_->setCurrentIndex(0);
    reply->taken = true;
    show();
    raise();
    activateWindow();
}

MainWindow::~MainWindow()
{
    // The children go after this class's part of the window is gone; a non-clean undo stack
    // still signals cleanChanged as it is destroyed, and nothing may call into this window
    // (or into panels half torn down) then: UBSan (SANITIZE=1 ./scripts/test.sh) reports such
    // a call.
    doc_->undoStack()->blockSignals(true);
    doc_->blockSignals(true);
    long_->undoStack()->blockSignals(true);
    long_->blockSignals(true);
    files_->blockSignals(true);
}

// Everything with translated text: tabs, docks, menus, toolbars and their action objects.
// rebuildInterface() deletes and recreates all of it, so build per-language UI here (not in
// the constructor), parented to this window.
void MainWindow::buildInterface()
{
    const QObjectList before = children();
    dockPages_.clear();
    tabs_ = new QTabWidget(this);
    tabs_->setDocumentMode(true);
    // The tabs' object names are the views PresenterActions presents ("weightsTab": weights).
    const auto addTab = [this](QWidget* panel, const QString& name, const QString& label) {
        panel->setObjectName(name + QStringLiteral("Tab"));
        tabs_->addTab(panel, label);
    };
    weights_ = new WeightsPanel(doc_, WeightsPanel::Kind::Weights, tabs_);
    addTab(weights_, QStringLiteral("weights"), tr("&Weights"));
    addTab(new WeightsPanel(doc_, WeightsPanel::Kind::Difference, tabs_),
           QStringLiteral("difference"), tr("&Difference"));
    addTab(new PipelinePanel(doc_, tabs_), QStringLiteral("pipeline"), tr("&Pipeline"));
    addTab(new HeadsGridPanel(doc_, tabs_), QStringLiteral("heads"), tr("All &heads"));
    addTab(new WalkthroughPanel(doc_, tabs_), QStringLiteral("walkthrough"), tr("Wal&kthrough"));
    setCentralWidget(tabs_);

    addPanel(new ControlsPanel(doc_, this), tr("Controls"), QStringLiteral("ControlsDock"),
             Qt::LeftDockWidgetArea);
    addPanel(new SequencesPanel(doc_, this), tr("Sequences"), QStringLiteral("SequencesDock"),
             Qt::LeftDockWidgetArea);
    addPanel(new RowInspectorPanel(doc_, this), tr("Row inspector"),
             QStringLiteral("RowInspectorDock"), Qt::RightDockWidgetArea);
    QDockWidget* keys = addPanel(new VectorEditorPanel(doc_, attn::Role::Key, this), tr("Keys"),
                                 QStringLiteral("KeysDock"), Qt::RightDockWidgetArea);
    QDockWidget* queries =
        addPanel(new VectorEditorPanel(doc_, attn::Role::Query, this), tr("Queries"),
                 QStringLiteral("QueriesDock"), Qt::RightDockWidgetArea);
    QDockWidget* values =
        addPanel(new VectorEditorPanel(doc_, attn::Role::Value, this), tr("Values"),
                 QStringLiteral("ValuesDock"), Qt::RightDockWidgetArea);
    tabifyDockWidget(keys, queries);
    tabifyDockWidget(queries, values);
    keys->raise();
    addPanel(new MatricesPanel(doc_, this), tr("Matrices"), QStringLiteral("MatricesDock"),
             Qt::LeftDockWidgetArea);
    addPanel(new ModelLinkPanel(doc_, link_, this), tr("Model"), QStringLiteral("ModelDock"),
             Qt::RightDockWidgetArea)
        ->hide();  // shown with a head from a real model

    // Training W_Q and W_K: under the map, shown from View ▸ Panels or a lesson.
    addPanel(new TrainerPanel(doc_, this), tr("Trainer"), QStringLiteral("TrainerDock"),
             Qt::BottomDockWidgetArea)
        ->hide();

    actions_ = new WindowActions(this, doc_);
    new ExportActions(this, doc_);
    new LessonActions(this, doc_);
    new WalkthroughActions(this, doc_);
    new PresenterActions(this, doc_, marks_);
    connect(weights_, &WeightsPanel::hoverTextChanged, this, [this](const QString& text) {
        statusBar()->showMessage(QString(text).replace(QLatin1Char('\n'), QStringLiteral("   ")));
    });
    // Remember the helper objects (actions) made here so that a rebuild removes them too.
    built_.clear();
    for (QObject* child : children()) {
        if (!child->isWidgetType() && !before.contains(child) && !qobject_cast<QLayout*>(child))
            built_.append(child);
    }
    showLongSession();
}

LongMapPanel* MainWindow::longMapPanel() const
{
    return long_->isOpen() ? longMap_.data() : nullptr;
}

bool MainWindow::showsLongSession() const
{
    return long_->isOpen();
}

QUndoStack* MainWindow::activeUndoStack() const
{
    return long_->isOpen() ? long_->undoStack() : doc_->undoStack();
}

bool MainWindow::leaveLongSession()
{
    if (!long_->isOpen()) return true;
    if (!files_->confirmDiscard()) return false;
    files_->closeLongSession();
    return true;
}

void MainWindow::showLongSession()
{
    if (!tabs_) return;
    const bool on = long_->isOpen();
    if (on && !longMap_) {
        longMap_ = new LongMapPanel(long_, tabs_);
        longMap_->setObjectName(QStringLiteral("longTab"));
        tabs_->addTab(longMap_, tr("&Long map"));
        connect(longMap_, &LongMapPanel::hoverTextChanged, this,
                [this](const QString& text) { statusBar()->showMessage(text); });
    } else if (!on && longMap_) {
        delete longMap_.data();  // takes its tab along
        tabs_->setCurrentIndex(0);
    }
    // The workbench's views compute every stage in double: they wait for a workbench session.
    const QString why =
        tr("A long session keeps only its attention weights: this view cannot "
           "show it. The Long map tab shows its map and its controls.");
    for (int i = 0; i < tabs_->count(); ++i) {
        if (tabs_->widget(i) == longMap_) continue;
        tabs_->setTabEnabled(i, !on);
        tabs_->setTabToolTip(i, on ? why : QString());
    }
    if (on) {
        tabs_->setCurrentWidget(longMap_);
        longMap_->map()->setFocus();  // the arrows move its row, and no caret blinks over it
    }
    for (QStackedWidget* page : std::as_const(dockPages_)) page->setCurrentIndex(on ? 1 : 0);
}

void MainWindow::rebuildInterface()
{
    const QByteArray state = saveState();
    const int tab = tabs_ ? tabs_->currentIndex() : 0;
    setUpdatesEnabled(false);
    for (const QPointer<QObject>& object : std::as_const(built_)) delete object.data();
    built_.clear();
    for (QDockWidget* dock : findChildren<QDockWidget*>(Qt::FindDirectChildrenOnly)) {
        removeDockWidget(dock);
        delete dock;
    }
    for (QToolBar* bar : findChildren<QToolBar*>(Qt::FindDirectChildrenOnly)) {
        removeToolBar(bar);
        delete bar;
    }
    delete menuWidget();  // menuBar() makes a new one
    delete takeCentralWidget();
    tabs_ = nullptr;
    longMap_ = nullptr;
    weights_ = nullptr;
    actions_ = nullptr;
    buildInterface();
    restoreState(state);
    tabs_->setCurrentIndex(tab);
    updateTitle();
    setUpdatesEnabled(true);
    // The new panels' size hints (the other language's text) count only once they are laid
    // out; the state restored before that let the docks grow over the map. Restore it again
    // then, so that every dock keeps its size and the map its room.
    QTimer::singleShot(0, this, [this, state] { restoreState(state); });
}

void MainWindow::changeEvent(QEvent* event)
{
    // Posted (and compressed) by QApplication after a translator was installed or removed.
    if (event->type() == QEvent::LanguageChange && tabs_) {
        doc_->retranslate();  // before the undo actions are made again from the labels
        rebuildInterface();
    }
    QMainWindow::changeEvent(event);
}

QDockWidget* MainWindow::addPanel(QWidget* panel, const QString& title, const QString& objectName,
                                  Qt::DockWidgetArea area)
{
    auto* dock = new QDockWidget(title, this);
    dock->setObjectName(objectName);
    auto* scroll = new QScrollArea(dock);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    auto* pages = new QStackedWidget(scroll);
    pages->addWidget(panel);
    // What the panel says while a long session is open, in place of what it cannot show.
    auto* aside = new QWidget(pages);
    // The dock keeps the size its panel asks for (dock_layout.cpp reads the panel's hints).
    aside->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Ignored);
    auto* asideLayout = new QVBoxLayout(aside);
    auto* message = new PanelMessage(aside);
    message->setObjectName(QStringLiteral("LongSessionMessage"));
    message->setStyleSheet(QString());
    message->say(
        tr("Not available for a long session: only its attention weights are kept. "
           "The Long map tab shows them."));
    asideLayout->addWidget(message);
    asideLayout->addStretch(1);
    pages->addWidget(aside);
    dockPages_.append(pages);
    scroll->setWidget(pages);
    dock->setWidget(scroll);
    addDockWidget(area, dock);
    return dock;
}

void MainWindow::updateTitle()
{
    setWindowFilePath(files_->currentFile());
    setWindowTitle(tr("%1[*] — AttnLab").arg(files_->sessionName()));
    setWindowModified(!activeUndoStack()->isClean());
}

bool MainWindow::openFile(const QString& path)
{
    return files_->openFile(path);
}

void MainWindow::restoreLayout()
{
    QSettings settings;
    restoreGeometry(settings.value(QStringLiteral("window/geometry")).toByteArray());
    // Saved on a larger screen: Qt moves it on screen but keeps its size, which would leave
    // the docks on the right beyond the edge. Shrink it to this screen.
    if (const QScreen* s = screen()) {
        const QRect room = s->availableGeometry();
        if (width() > room.width() || height() > room.height()) {
            resize(size().boundedTo(room.size()));
            move(room.topLeft());
        }
    }
    if (!restoreState(settings.value(QStringLiteral("window/state")).toByteArray())) {
        // First start: the default layout, sized again once the window has its real size.
        applyDockLayout(this, defaultDockLayout());
        layoutOnShow_ = true;
    }
}

void MainWindow::provenanceChanged()
{
    const std::optional<ModelProvenance>& p = doc_->session().provenance;
    const QString key = p ? p->folder + QLatin1Char('|') + headTitle(*p) + p->text : QString();
    if (key == shownProvenance_) return;
    shownProvenance_ = key;
    updateTitle();  // the session is named by its head (or no longer is, after an undo)
    if (!p) return;
    // A saved head: attach its model when the folder is there (the link checks its SHA-256
    // on a worker; the Model panel says how that went).
    if (!link_->active() && !link_->attaching() && QFileInfo(p->folder).isDir())
        link_->attachFromProvenance();
    // The head's map, its keys' sliders under it, and beside it what the model predicts.
    DockLayout l;
    l.left = {{QStringLiteral("ControlsDock"), QStringLiteral("SequencesDock"),
               QStringLiteral("MatricesDock")}};
    l.right = {{QStringLiteral("ModelDock")}};
    l.bottom = {{QStringLiteral("KeysDock"), QStringLiteral("QueriesDock"),
                 QStringLiteral("ValuesDock"), QStringLiteral("RowInspectorDock")}};
    l.tab = QStringLiteral("weights");
    l.rightFullHeight = true;  // the predictions and the whole change grid beside everything
    applyDockLayout(this, l);
}

void MainWindow::showEvent(QShowEvent* event)
{
    QMainWindow::showEvent(event);
    // A lesson opened before the window was shown keeps its own layout.
    if (layoutOnShow_ && doc_->view().lesson.isEmpty()) applyDockLayout(this, defaultDockLayout());
    layoutOnShow_ = false;
}

void MainWindow::closeEvent(QCloseEvent* event)
{
    QSettings settings;
    settings.setValue(QStringLiteral("window/geometry"), saveGeometry());
    settings.setValue(QStringLiteral("window/state"), longLayout_ ? workbenchState_ : saveState());
    event->accept();
}

}  // namespace attnlab
