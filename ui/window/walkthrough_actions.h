#pragma once
// The walkthrough's menu actions: View ▸ Presenter view (F5) opens the walkthrough full
// screen with large fonts, starting at the step the Walkthrough tab shows; the two stay
// on the same step. View ▸ Walkthrough (Ctrl+F5) shows the tab. Made by MainWindow.

#include <QObject>
#include <QPointer>

class QAction;

namespace attnlab {

class Document;
class MainWindow;
class PresenterWindow;
class WalkthroughPanel;

class WalkthroughActions : public QObject {
    Q_OBJECT
public:
    WalkthroughActions(MainWindow* window, Document* doc);
    ~WalkthroughActions() override;  // closes the presenter view

    [[nodiscard]] QAction* presenterAction() const { return presenter_; }
    [[nodiscard]] QAction* walkthroughAction() const { return walkthrough_; }
    // The open presenter view, or nullptr.
    [[nodiscard]] PresenterWindow* presenterWindow() const;
    // The walkthrough tab of the main window, or nullptr.
    [[nodiscard]] WalkthroughPanel* tabPanel() const;

    void showPresenter();
    void showTab();

private:
    MainWindow* main_;
    Document* doc_;
    QAction* presenter_ = nullptr;
    QAction* walkthrough_ = nullptr;
    QPointer<PresenterWindow> presenterWindow_;
};

}  // namespace attnlab
