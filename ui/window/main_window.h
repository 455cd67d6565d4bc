// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The workbench window: one Document, the central maps (weights, difference,
// pipeline, all heads) and docked panels around them. Menus and shortcuts live in
// WindowActions; this class only assembles.
//
// A session that only the long path can hold (LongDocument: the weights, in float) opens here
// too: a "Long map" tab shows its map and controls, the other tabs and the docks step aside
// with a message, and File, Edit, Export, autosave and recovery serve it.

#include <QMainWindow>
#include <QPointer>

class QStackedWidget;
class QTabWidget;
class QUndoStack;

namespace attnlab {

class Document;
class FileActions;
class HeadLink;
class LongDocument;
class LongMapPanel;
class MarkStore;
class ModelWindow;
class ModelWindows;
struct HeadReply;
struct HeadRequest;
struct CrossHeadRequest;
class CrossLink;
class Seq2SeqWindow;
class WeightsPanel;
class WindowActions;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    [[nodiscard]] Document* document() const { return doc_; }
    [[nodiscard]] WeightsPanel* weightsPanel() const { return weights_; }
    [[nodiscard]] QTabWidget* centralTabs() const { return tabs_; }
    // The long session's document (open or not) and, while one is open, its tab.
    [[nodiscard]] LongDocument* longDocument() const { return long_; }
    [[nodiscard]] LongMapPanel* longMapPanel() const;
    [[nodiscard]] bool showsLongSession() const;
    // The undo history that Edit ▸ Undo, Save and autosave serve: the long session's while
    // one is open, else the workbench's.
    [[nodiscard]] QUndoStack* activeUndoStack() const;
    // Closes the long session before the workbench session takes the window again (a lesson,
    // a head from a model); asks first about its unsaved changes. False when cancelled.
    bool leaveLongSession();
    [[nodiscard]] FileActions* fileActions() const { return files_; }
    // The real model the open head came from, carried through by every change (Model panel).
    [[nodiscard]] HeadLink* headLink() const { return link_; }
    // A translator's cross head, carried back into its translator.
    [[nodiscard]] CrossLink* crossLink() const { return crossLink_; }
    // The application's model window, made on first use; each one made is adopted.
    [[nodiscard]] ModelWindows* modelWindows() const { return models_; }
    // Wires `window`'s Open in Workbench to this workbench (HeadLink).
    void adoptModelWindow(ModelWindow* window);
    // Wires a translator window's Open in Workbench (a cross head) to this workbench.
    void adoptTranslator(Seq2SeqWindow* window);
    // What was drawn in the presenter view, per view and walkthrough step.
    [[nodiscard]] MarkStore* marks() const { return marks_; }
    // Starts opening a session file (FileActions::openFile: read on a worker, then published;
    // a warning when it cannot).
    bool openFile(const QString& path);
    // Deletes and recreates menus, toolbars, tabs and docks (after a language switch) while
    // the Document, FileActions and the window layout stay. Runs on QEvent::LanguageChange.
    void rebuildInterface();

protected:
    void closeEvent(QCloseEvent* event) override;
    void showEvent(QShowEvent* event) override;
    void changeEvent(QEvent* event) override;

private:
    void buildInterface();
    QDockWidget* addPanel(QWidget* panel, const QString& title, const QString& objectName,
                          Qt::DockWidgetArea area);
    void updateTitle();
    void restoreLayout();
    // Shows the long tab and the panels' messages while a long session is open.
    void showLongSession();
    // A head from a real model was opened (or a session holding one): lay the docks out for it.
    void provenanceChanged();
    // A model window's Open in Workbench.
    void takeHead(const HeadRequest& request, HeadReply* reply);
    // A translator window's Open in Workbench: a cross head's session, one undo step.
    void takeCrossHead(const CrossHeadRequest& request, HeadReply* reply);
    bool layoutOnShow_ = false;  // first start: lay the docks out again at the shown size

    Document* doc_;
    LongDocument* long_;
    QTabWidget* tabs_ = nullptr;
    QPointer<LongMapPanel> longMap_;
    QList<QStackedWidget*> dockPages_;  // each dock: its panel, then its long-session message
    bool longLayout_ = false;           // the docks are hidden for the long session
    QByteArray workbenchState_;         // the docks as they were before it
    WeightsPanel* weights_ = nullptr;
    WindowActions* actions_ = nullptr;
    FileActions* files_ = nullptr;
    HeadLink* link_ = nullptr;
    CrossLink* crossLink_ = nullptr;  // a translator's cross head, carried back
    ModelWindows* models_ = nullptr;
    MarkStore* marks_ = nullptr;
    QString shownProvenance_;         // the head the Model dock was last laid out for
    QList<QPointer<QObject>> built_;  // non-widget objects made by buildInterface()
};

}  // namespace attnlab
