// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// View ▸ Five-step walkthrough (Ctrl+F5) shows the Walkthrough tab. (Its presenter view is
// View ▸ Presenter view, PresenterActions.) Made by MainWindow.

#include <QObject>

class QAction;

namespace attnlab {

class Document;
class MainWindow;
class WalkthroughPanel;

class WalkthroughActions : public QObject {
    Q_OBJECT
public:
    WalkthroughActions(MainWindow* window, Document* doc);

    [[nodiscard]] QAction* walkthroughAction() const { return walkthrough_; }
    // The walkthrough tab of the main window, or nullptr.
    [[nodiscard]] WalkthroughPanel* tabPanel() const;

    void showTab();

private:
    MainWindow* main_;
    QAction* walkthrough_ = nullptr;
};

}  // namespace attnlab
