// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Menus, toolbar and shortcuts of the main window: undo/redo, pin/compare,
// ×2 on the selected key, view toggles, full screen, zoom of the maps.

#include <QObject>
#include <QPointer>

class QAction;
class QLabel;
class QMenu;

namespace attnlab {

class Document;
class MainWindow;

class WindowActions : public QObject {
    Q_OBJECT
public:
    WindowActions(MainWindow* window, Document* doc);
    ~WindowActions() override;

    [[nodiscard]] QAction* undo() const { return undo_; }
    [[nodiscard]] QAction* redo() const { return redo_; }
    // Checkable: checked while weights are pinned; triggering it pins or unpins.
    [[nodiscard]] QAction* pin() const { return pin_; }
    // The status bar's lasting note of what is pinned (hidden when nothing is).
    [[nodiscard]] QLabel* pinStatus() const { return pinStatus_; }
    [[nodiscard]] QAction* doubleKey() const { return doubleKey_; }

private:
    void buildFileMenu();
    void buildEditMenu();
    void buildAttentionMenu();
    void buildViewMenu();
    void buildColorsMenu(QMenu* menu);
    void buildHelpMenu();
    void setPinned(bool on);
    void showPin();
    void doubleSelectedKey();
    void resetSelectedKey();

    MainWindow* window_;
    Document* doc_;
    QAction* undo_ = nullptr;
    QAction* redo_ = nullptr;
    QAction* pin_ = nullptr;
    QPointer<QLabel> pinStatus_;  // owned by the status bar, which outlives a rebuild
    QAction* doubleKey_ = nullptr;
};

}  // namespace attnlab
