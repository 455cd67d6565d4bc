// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/window/window_actions.h"

#include <QActionGroup>
#include <QApplication>
#include <QDockWidget>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QStatusBar>
#include <QTabWidget>
#include <QToolBar>

#include "ui/document/document.h"
#include "ui/document/long_document.h"
#include "ui/model/model_window.h"
#include "ui/model/model_windows.h"
#include "ui/panels/long_map_panel.h"
#include "ui/panels/weights_panel.h"
#include "ui/views/heatmap_view.h"
#include "ui/views/help_dialogs.h"
#include "ui/window/file_actions.h"
#include "ui/window/language.h"
#include "ui/window/main_window.h"
#include "ui/window/quit_flow.h"

namespace attnlab {

WindowActions::WindowActions(MainWindow* window, Document* doc)
    : QObject(window), window_(window), doc_(doc)
{
    buildFileMenu();
    buildEditMenu();
    buildAttentionMenu();
    buildViewMenu();
    buildHelpMenu();

    QToolBar* bar = window_->addToolBar(tr("Main"));
    bar->setObjectName(QStringLiteral("MainToolBar"));
    bar->addAction(undo_);
    bar->addAction(redo_);
    bar->addSeparator();
    bar->addAction(pin_);
    bar->addAction(doubleKey_);

    pinStatus_ = new QLabel;
    pinStatus_->setObjectName(QStringLiteral("PinStatus"));
    pinStatus_->setTextFormat(Qt::PlainText);
    window_->statusBar()->addPermanentWidget(pinStatus_);
    // Pinned weights are dropped by the document too (other tokens, another head).
    // The description names the steps around the pin: it follows pushes, undo and redo (an
    // edit publishes its snapshot before its step is pushed).
    connect(doc_, &Document::pinChanged, this, &WindowActions::showPin);
    connect(doc_->undoStack(), &QUndoStack::indexChanged, this, &WindowActions::showPin);
    showPin();
}

WindowActions::~WindowActions()
{
    // The status bar stays across a language switch; this note is made again with the actions.
    delete pinStatus_.data();
}

void WindowActions::buildFileMenu()
{
    QMenu* menu = window_->menuBar()->addMenu(tr("&File"));
    window_->fileActions()->addToMenu(menu);
    // Every window: the model windows would otherwise keep running.
    QAction* quit = menu->addAction(tr("&Quit"), window_, [w = window_] { QuitFlow::quit(w); });
    quit->setObjectName(QStringLiteral("QuitAction"));
    quit->setShortcut(QKeySequence::Quit);
}

void WindowActions::buildEditMenu()
{
    QMenu* menu = window_->menuBar()->addMenu(tr("&Edit"));
    // The history of the session open: the workbench's, or the long session's. Not waiting on
    // a long session's computation: its document refuses a change meanwhile, and an undo then
    // would move the stack's index while the session stays.
    const auto busy = [this] {
        return window_->showsLongSession() && window_->longDocument()->computing();
    };
    undo_ = menu->addAction(tr("&Undo"), this, [this, busy] {
        if (!busy()) window_->activeUndoStack()->undo();
    });
    undo_->setShortcut(QKeySequence::Undo);
    redo_ = menu->addAction(tr("&Redo"), this, [this, busy] {
        if (!busy()) window_->activeUndoStack()->redo();
    });
    redo_->setShortcut(QKeySequence::Redo);
    const auto update = [this, busy] {
        const QUndoStack* stack = window_->activeUndoStack();
        undo_->setEnabled(!busy() && stack->canUndo());
        redo_->setEnabled(!busy() && stack->canRedo());
        undo_->setText(stack->canUndo() ? tr("&Undo %1").arg(stack->undoText()) : tr("&Undo"));
        redo_->setText(stack->canRedo() ? tr("&Redo %1").arg(stack->redoText()) : tr("&Redo"));
    };
    LongDocument* longDoc = window_->longDocument();
    for (QUndoStack* stack : {doc_->undoStack(), longDoc->undoStack()}) {
        connect(stack, &QUndoStack::indexChanged, this, update);
        connect(stack, &QUndoStack::undoTextChanged, this, update);
        connect(stack, &QUndoStack::redoTextChanged, this, update);
    }
    connect(longDoc, &LongDocument::busyChanged, this, update);
    connect(longDoc, &LongDocument::openChanged, this, update);
    update();
}

void WindowActions::buildAttentionMenu()
{
    QMenu* menu = window_->menuBar()->addMenu(tr("&Attention"));
    pin_ = menu->addAction(tr("&Pin weights"));
    pin_->setObjectName(QStringLiteral("PinAction"));
    pin_->setCheckable(true);
    pin_->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_P));
    connect(pin_, &QAction::triggered, this, &WindowActions::setPinned);
    QAction* clear = menu->addAction(tr("&Clear pin"), this, [this] { setPinned(false); });
    clear->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_P));
    menu->addSeparator();
    doubleKey_ = menu->addAction(tr("Double the selected &key (×2)"), this,
                                 &WindowActions::doubleSelectedKey);
    doubleKey_->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_D));
    doubleKey_->setToolTip(
        tr("The textbook exercise: multiply the selected key vector by 2 and "
           "watch every row's weights redistribute."));
    menu->addAction(tr("&Reset the selected key"), this, &WindowActions::resetSelectedKey);
    // They change the workbench's session, which waits while a long session is open (its own
    // mode, scaling and key are in the Long map tab).
    LongDocument* longDoc = window_->longDocument();
    const auto enable = [menu, longDoc] {
        for (QAction* a : menu->actions()) a->setEnabled(!longDoc->isOpen());
    };
    connect(longDoc, &LongDocument::openChanged, menu, enable);
    enable();
}

void WindowActions::buildViewMenu()
{
    QMenu* menu = window_->menuBar()->addMenu(tr("&View"));
    menu->setObjectName(QStringLiteral("ViewMenu"));  // found by WalkthroughActions
    QTabWidget* tabs = window_->centralTabs();
    QList<QAction*> tabActions;
    for (int i = 0; i < tabs->count(); ++i) {
        QAction* a = menu->addAction(tabs->tabText(i).remove(QLatin1Char('&')), tabs,
                                     [tabs, i] { tabs->setCurrentIndex(i); });
        a->setShortcut(QKeySequence(Qt::ALT | static_cast<Qt::Key>(Qt::Key_1 + i)));
        tabActions.append(a);
    }
    // The long session's tab comes and goes with it; the workbench's tabs wait meanwhile.
    QAction* longTab = menu->addAction(tr("Long map"), tabs, [w = window_] {
        if (LongMapPanel* panel = w->longMapPanel()) w->centralTabs()->setCurrentWidget(panel);
    });
    longTab->setObjectName(QStringLiteral("LongMapTabAction"));
    longTab->setShortcut(QKeySequence(Qt::ALT | static_cast<Qt::Key>(Qt::Key_1 + tabs->count())));
    LongDocument* longDoc = window_->longDocument();
    const auto showTabs = [tabActions, longTab, longDoc] {
        for (QAction* a : tabActions) a->setEnabled(!longDoc->isOpen());
        longTab->setVisible(longDoc->isOpen());
    };
    connect(longDoc, &LongDocument::openChanged, longTab, showTabs);
    showTabs();
    menu->addSeparator();
    // The map on show: the long session's, or the workbench's weights.
    const auto map = [w = window_] {
        LongMapPanel* panel = w->longMapPanel();
        return panel ? panel->map() : w->weightsPanel()->view();
    };
    QAction* zoomIn = menu->addAction(tr("Zoom &in"), this, [map] { map()->zoom(0.8); });
    zoomIn->setObjectName(QStringLiteral("ZoomInAction"));
    zoomIn->setShortcut(QKeySequence::ZoomIn);
    QAction* zoomOut = menu->addAction(tr("Zoom &out"), this, [map] { map()->zoom(1.25); });
    zoomOut->setShortcut(QKeySequence::ZoomOut);
    QAction* reset = menu->addAction(tr("Reset &view"), this, [map] { map()->resetView(); });
    reset->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_0));
    QAction* full = menu->addAction(tr("&Full screen"), window_, [this] {
        window_->setWindowState(window_->windowState() ^ Qt::WindowFullScreen);
    });
    full->setShortcut(QKeySequence::FullScreen);
    buildColorsMenu(menu->addMenu(tr("Weight &colours")));
    menu->addSeparator();
    QMenu* panels = menu->addMenu(tr("&Panels"));
    for (QDockWidget* dock : window_->findChildren<QDockWidget*>())
        panels->addAction(dock->toggleViewAction());
    addLanguageMenu(menu);
}

void WindowActions::buildColorsMenu(QMenu* menu)
{
    // At 500 tokens most weights are near 1/500: on [0, 1] the map is almost all dark.
    menu->setToolTipsVisible(true);
    auto* group = new QActionGroup(menu);
    const struct {
        WeightColors colors;
        QString text, tip;
    } choices[] = {
        {WeightColors::Fixed, tr("&Fixed [0, 1]"),
         tr("Every map on the same scale, so that maps can be compared")},
        {WeightColors::DataRange, tr("This map's &range"),
         tr("From the map's smallest to its largest weight")},
        {WeightColors::PerRow, tr("Each &row by its largest weight"),
         tr("Each row divided by its own largest weight: long rows stay visible")},
        {WeightColors::Log, tr("&Log scale"),
         tr("log₁₀ of the weight on [−4, 0]: small weights stay visible")},
    };
    for (const auto& c : choices) {
        QAction* a = menu->addAction(
            c.text, doc_, [doc = doc_, colors = c.colors] { doc->setWeightColors(colors); });
        a->setToolTip(c.tip);
        a->setCheckable(true);
        a->setChecked(doc_->view().colors == c.colors);
        a->setData(static_cast<int>(c.colors));
        group->addAction(a);
    }
    connect(doc_, &Document::viewChanged, group, [group, doc = doc_] {
        for (QAction* a : group->actions())
            a->setChecked(a->data().toInt() == static_cast<int>(doc->view().colors));
    });
}

void WindowActions::buildHelpMenu()
{
    QMenu* menu = window_->menuBar()->addMenu(tr("&Help"));
    menu->setObjectName(QStringLiteral("HelpMenu"));
    // Read when the list opens: the menus as they are then, and an open model window's.
    addHelpActions(menu, window_, [this] {
        QList<ShortcutEntry> entries = collectShortcuts(window_);
        if (const ModelWindow* model = window_->modelWindows()->existing())
            entries += collectShortcuts(model, ShortcutsDialog::tr("Model window"));
        return entries + keysWithoutActions();
    });
    menu->addSeparator();
    menu->addAction(tr("&About AttnLab"), window_, [this] {
        QMessageBox::about(
            window_, tr("About AttnLab"),
            tr("<p><b>AttnLab %1</b></p><p>Attention you can touch: edit the vectors, toggle "
               "the scaling and masks, and watch the softmax redistribute.</p><p>Attention "
               "weights are a microscope, not courtroom evidence.</p>")
                .arg(QApplication::applicationVersion()));
    });
}

void WindowActions::setPinned(bool on)
{
    if (on)
        doc_->pinWeights();
    else
        doc_->clearPin();
    showPin();
    const bool pinned = doc_->pinnedWeights().has_value();
    window_->statusBar()->showMessage(
        pinned ? tr("Pinned the weights of head %1. Now edit, for example ×2 on a key (Ctrl+D): "
                    "the Difference tab shows how they move. Ctrl+P again unpins.")
                     .arg(doc_->head() + 1)
               : tr("Unpinned: the Difference tab has nothing to compare with."),
        10000);
}

void WindowActions::showPin()
{
    const QString text = doc_->pinDescription();
    pin_->setChecked(doc_->pinnedWeights().has_value());
    pin_->setToolTip(text.isEmpty()
                         ? tr("Remember the current weights; the Difference map and the row "
                              "inspector then show how later edits move them.")
                         : tr("%1. Click (or Ctrl+P) to unpin.").arg(text));
    if (pinStatus_) {
        pinStatus_->setText(text);
        pinStatus_->setVisible(!text.isEmpty());
    }
}

void WindowActions::doubleSelectedKey()
{
    attn::VectorEdit e;
    e.role = attn::Role::Key;
    e.head = doc_->head();
    e.index = doc_->selectedColumn();
    if (const attn::VectorEdit* old =
            attn::findEdit(doc_->session().input.edits, e.role, e.head, e.index))
        e = *old;
    e.scale *= 2.0;
    doc_->editVector(e);
}

void WindowActions::resetSelectedKey()
{
    attn::VectorEdit e;
    e.role = attn::Role::Key;
    e.head = doc_->head();
    e.index = doc_->selectedColumn();
    doc_->editVector(e);
}

}  // namespace attnlab
