// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The workbench window: one Document, the central maps (weights, difference,
// pipeline, all heads) and docked panels around them. Menus and shortcuts live in
// WindowActions; this class only assembles.

#include <QMainWindow>
#include <QPointer>

class QTabWidget;

namespace attnlab {

class Document;
class FileActions;
class HeadLink;
class MarkStore;
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
    [[nodiscard]] FileActions* fileActions() const { return files_; }
    // The real model the open head came from, carried through by every change (Model panel).
    [[nodiscard]] HeadLink* headLink() const { return link_; }
    // What was drawn in the presenter view, per view and walkthrough step.
    [[nodiscard]] MarkStore* marks() const { return marks_; }
    // Opens a session file (FileActions::openFile); false and a warning when it cannot.
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
    // A head from a real model was opened (or a session holding one): lay the docks out for it.
    void provenanceChanged();
    bool layoutOnShow_ = false;  // first start: lay the docks out again at the shown size

    Document* doc_;
    QTabWidget* tabs_ = nullptr;
    WeightsPanel* weights_ = nullptr;
    WindowActions* actions_ = nullptr;
    FileActions* files_ = nullptr;
    HeadLink* link_ = nullptr;
    MarkStore* marks_ = nullptr;
    QString shownProvenance_;         // the head the Model dock was last laid out for
    QList<QPointer<QObject>> built_;  // non-widget objects made by buildInterface()
};

}  // namespace attnlab
