#include "ui/window/walkthrough_actions.h"

#include <QAction>
#include <QMenu>
#include <QMenuBar>
#include <QScreen>
#include <QTabWidget>
#include <QTimer>

#include "ui/panels/walkthrough_panel.h"
#include "ui/window/main_window.h"
#include "ui/window/presenter_window.h"

namespace attnlab {

WalkthroughActions::WalkthroughActions(MainWindow* window, Document* doc)
    : QObject(window), main_(window), doc_(doc)
{
    auto* menu = window->menuBar()->findChild<QMenu*>(QStringLiteral("ViewMenu"));
    if (!menu) menu = window->menuBar()->addMenu(tr("&Walkthrough"));
    menu->addSeparator();
    walkthrough_ =
        menu->addAction(tr("Five-step &walkthrough"), this, &WalkthroughActions::showTab);
    walkthrough_->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_F5));
    walkthrough_->setToolTip(
        tr("Reveal the computation step by step: project, score, scale, "
           "softmax, weighted sum."));
    presenter_ = menu->addAction(tr("P&resenter view"), this, &WalkthroughActions::showPresenter);
    presenter_->setShortcut(QKeySequence(Qt::Key_F5));
    presenter_->setToolTip(
        tr("The walkthrough full screen with large fonts, for the lecture hall. Esc leaves."));
    if (WalkthroughPanel* tab = tabPanel())
        connect(tab, &WalkthroughPanel::presenterRequested, this,
                &WalkthroughActions::showPresenter);
}

WalkthroughActions::~WalkthroughActions()
{
    if (presenterWindow_) presenterWindow_->close();
}

PresenterWindow* WalkthroughActions::presenterWindow() const
{
    return presenterWindow_.data();
}

WalkthroughPanel* WalkthroughActions::tabPanel() const
{
    QTabWidget* tabs = main_->centralTabs();
    for (int i = 0; tabs && i < tabs->count(); ++i)
        if (auto* panel = qobject_cast<WalkthroughPanel*>(tabs->widget(i))) return panel;
    return nullptr;
}

void WalkthroughActions::showTab()
{
    if (WalkthroughPanel* tab = tabPanel()) main_->centralTabs()->setCurrentWidget(tab);
}

void WalkthroughActions::showPresenter()
{
    if (presenterWindow_) {
        presenterWindow_->raise();
        presenterWindow_->activateWindow();
        return;
    }
    presenterWindow_ = new PresenterWindow(doc_, main_);
    WalkthroughPanel* shown = presenterWindow_->panel();
    if (WalkthroughPanel* tab = tabPanel()) {
        // Start where the tab is and keep both on the same step.
        shown->setStep(tab->step());
        connect(shown, &WalkthroughPanel::stepChanged, tab, &WalkthroughPanel::setStep);
        connect(tab, &WalkthroughPanel::stepChanged, shown, &WalkthroughPanel::setStep);
    }
    presenterWindow_->showFullScreen();
    // Without a window manager (a bare X server) full screen is not honoured: then cover
    // the main window's screen by hand.
    if (QScreen* screen = main_->screen()) {
        const QRect area = screen->geometry();
        PresenterWindow* shownWindow = presenterWindow_;
        QTimer::singleShot(0, shownWindow, [shownWindow, area] {
            if (shownWindow->geometry() != area) shownWindow->setGeometry(area);
        });
    }
    presenterWindow_->activateWindow();
    shown->setFocus(Qt::OtherFocusReason);
}

}  // namespace attnlab
