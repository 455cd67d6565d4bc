#include "ui/window/main_window.h"

#include <QCloseEvent>
#include <QDockWidget>
#include <QFileInfo>
#include <QScrollArea>
#include <QSettings>
#include <QStatusBar>
#include <QTabWidget>

#include "ui/document/document.h"
#include "ui/panels/controls_panel.h"
#include "ui/panels/heads_grid_panel.h"
#include "ui/panels/matrices_panel.h"
#include "ui/panels/pipeline_panel.h"
#include "ui/panels/row_inspector_panel.h"
#include "ui/panels/sequences_panel.h"
#include "ui/panels/vector_editor_panel.h"
#include "ui/panels/weights_panel.h"
#include "ui/window/export_actions.h"
#include "ui/window/file_actions.h"
#include "ui/window/window_actions.h"

namespace attnlab {

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent), doc_(new Document(this))
{
    setObjectName(QStringLiteral("MainWindow"));
    setDockNestingEnabled(true);

    tabs_ = new QTabWidget(this);
    tabs_->setDocumentMode(true);
    weights_ = new WeightsPanel(doc_, WeightsPanel::Kind::Weights, tabs_);
    tabs_->addTab(weights_, tr("&Weights"));
    tabs_->addTab(new WeightsPanel(doc_, WeightsPanel::Kind::Difference, tabs_), tr("&Difference"));
    tabs_->addTab(new PipelinePanel(doc_, tabs_), tr("&Pipeline"));
    tabs_->addTab(new HeadsGridPanel(doc_, tabs_), tr("All &heads"));
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

    files_ = new FileActions(this, doc_);
    actions_ = new WindowActions(this, doc_);
    new ExportActions(this, doc_);
    connect(doc_, &Document::errorOccurred, this,
            [this](const QString& message) { statusBar()->showMessage(message, 8000); });
    connect(weights_, &WeightsPanel::hoverTextChanged, this, [this](const QString& text) {
        statusBar()->showMessage(QString(text).replace(QLatin1Char('\n'), QStringLiteral("   ")));
    });
    connect(doc_->undoStack(), &QUndoStack::cleanChanged, this, &MainWindow::updateTitle);
    connect(files_, &FileActions::currentFileChanged, this, &MainWindow::updateTitle);
    updateTitle();
    resize(1500, 950);
    restoreLayout();
}

MainWindow::~MainWindow() = default;

QDockWidget* MainWindow::addPanel(QWidget* panel, const QString& title, const QString& objectName,
                                  Qt::DockWidgetArea area)
{
    auto* dock = new QDockWidget(title, this);
    dock->setObjectName(objectName);
    auto* scroll = new QScrollArea(dock);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setWidget(panel);
    dock->setWidget(scroll);
    addDockWidget(area, dock);
    return dock;
}

void MainWindow::updateTitle()
{
    const QString file = files_->currentFile();
    setWindowFilePath(file);
    setWindowTitle(tr("%1[*] — AttnLab")
                       .arg(file.isEmpty() ? tr("Untitled") : QFileInfo(file).fileName()));
    setWindowModified(!doc_->undoStack()->isClean());
}

bool MainWindow::openFile(const QString& path)
{
    return files_->openFile(path);
}

void MainWindow::restoreLayout()
{
    QSettings settings;
    restoreGeometry(settings.value(QStringLiteral("window/geometry")).toByteArray());
    if (!restoreState(settings.value(QStringLiteral("window/state")).toByteArray())) {
        // First start: give the right-hand panels room for the bars and sliders.
        const QList<QDockWidget*> docks = findChildren<QDockWidget*>();
        for (QDockWidget* d : docks) {
            if (dockWidgetArea(d) == Qt::RightDockWidgetArea) {
                resizeDocks({d}, {500}, Qt::Horizontal);
                break;
            }
        }
    }
}

void MainWindow::closeEvent(QCloseEvent* event)
{
    QSettings settings;
    settings.setValue(QStringLiteral("window/geometry"), saveGeometry());
    settings.setValue(QStringLiteral("window/state"), saveState());
    event->accept();
}

}  // namespace attnlab
