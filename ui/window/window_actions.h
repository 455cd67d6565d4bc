#pragma once
// Menus, toolbar and shortcuts of the main window: undo/redo, pin/compare,
// ×2 on the selected key, view toggles, full screen, zoom of the maps.

#include <QObject>

class QAction;
class QMenu;

namespace attnlab {

class Document;
class MainWindow;

class WindowActions : public QObject {
    Q_OBJECT
public:
    WindowActions(MainWindow* window, Document* doc);

    [[nodiscard]] QAction* undo() const { return undo_; }
    [[nodiscard]] QAction* redo() const { return redo_; }
    [[nodiscard]] QAction* pin() const { return pin_; }
    [[nodiscard]] QAction* doubleKey() const { return doubleKey_; }

private:
    void buildFileMenu();
    void buildEditMenu();
    void buildAttentionMenu();
    void buildViewMenu();
    void buildColorsMenu(QMenu* menu);
    void buildHelpMenu();
    void doubleSelectedKey();
    void resetSelectedKey();

    MainWindow* window_;
    Document* doc_;
    QAction* undo_ = nullptr;
    QAction* redo_ = nullptr;
    QAction* pin_ = nullptr;
    QAction* doubleKey_ = nullptr;
};

}  // namespace attnlab
