// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/window/walkthrough_actions.h"

#include <QAction>
#include <QMenu>
#include <QMenuBar>
#include <QTabWidget>

#include "ui/panels/walkthrough_panel.h"
#include "ui/window/main_window.h"

namespace attnlab {

WalkthroughActions::WalkthroughActions(MainWindow* window, Document*)
    : QObject(window), main_(window)
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

}  // namespace attnlab
