// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The Lessons menu, the start page and the lesson docks (the lesson's text, "Show working"
// and the cost of n² panel; lesson 6's plot sits below its text). MainWindow creates it; it adds
// its menu before Help and a "Start page" item to the Help menu.

#include <QObject>
#include <QPointer>

class QDockWidget;
class QMenu;

namespace attnlab {

class CostPanel;
struct Lesson;
class Document;
class LessonPanel;
class MainWindow;
class StartPage;
class WorkingPanel;

class LessonActions : public QObject {
    Q_OBJECT
public:
    LessonActions(MainWindow* window, Document* doc);

    // Replaces the session by the lesson's (one undo step), selects what the lesson
    // selects and shows its text. False (and a status message) for an unknown id.
    bool openLesson(const QString& id);
    [[nodiscard]] QString currentLesson() const { return current_; }

    // Shows the start page (not modal).
    void showStartPage();
    // Shows the start page at startup unless the user unticked "Show this page at startup";
    // records that it was shown. Returns true when it was shown.
    bool showStartPageOnFirstLaunch();
    [[nodiscard]] StartPage* startPage() const;

    // Switches the lesson language ("zh", "en", or "" to follow the locale) and refreshes
    // the lesson text, the menu and the start page (for the language menu).
    void setLanguage(const QString& code);

    [[nodiscard]] LessonPanel* lessonPanel() const { return panel_; }
    [[nodiscard]] WorkingPanel* workingPanel() const { return working_; }
    [[nodiscard]] QDockWidget* lessonDock() const { return lessonDock_; }
    [[nodiscard]] QDockWidget* workingDock() const { return workingDock_; }
    [[nodiscard]] CostPanel* costPanel() const { return cost_; }
    [[nodiscard]] QDockWidget* costDock() const { return costDock_; }
    [[nodiscard]] QMenu* menu() const { return menu_; }

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void buildMenu();
    void fillMenu();
    // Shows the lesson's tab and raises the docks it declares (resources/lessons/lessons.json).
    void applyLayout(const Lesson& lesson);
    // After the start page closes: the window is active and its map has the keyboard.
    void focusWindow();
    QDockWidget* addDock(QWidget* panel, const QString& objectName, Qt::DockWidgetArea area);

    MainWindow* window_;
    Document* doc_;
    LessonPanel* panel_;
    WorkingPanel* working_;
    CostPanel* cost_;
    QDockWidget* lessonDock_ = nullptr;
    QDockWidget* workingDock_ = nullptr;
    QDockWidget* costDock_ = nullptr;
    QMenu* menu_ = nullptr;
    QPointer<StartPage> startPage_;
    QString current_;
};

}  // namespace attnlab
