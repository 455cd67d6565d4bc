// SPDX-License-Identifier: GPL-3.0-or-later
// The model window's menus: File (models, built-in models, export), Edit (undo, head edits),
// Generate (the model writes), Train (the model trainer), View (sinks, docks, the presenter)
// and Help.
#include <QAction>
#include <QDockWidget>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QPushButton>
#include <QUndoStack>

#include "ui/model/generate_panel.h"
#include "ui/model/model_document.h"
#include "ui/model/model_presenter.h"
#include "ui/model/model_trainer_panel.h"
#include "ui/model/model_window.h"
#include "ui/modelrun/builtin_models.h"
#include "ui/views/help_dialogs.h"

namespace attnlab {

void ModelWindow::buildMenus()
{
    buildFileMenu();
    buildEditMenu();
    buildGenerateMenu();
    buildTrainMenu();
    buildViewAndHelpMenus();
}

void ModelWindow::buildFileMenu()
{
    QMenu* file = menuBar()->addMenu(tr("&File"));
    QAction* open = file->addAction(tr("&Open Model…"), this, &ModelWindow::openFolderDialog);
    open->setShortcut(QKeySequence::Open);
    open->setToolTip(tr("A folder with config.json, model.safetensors and the tokenizer's files"));
    QMenu* builtins = file->addMenu(tr("Open &Built-in Model"));
    builtins->setToolTip(
        tr("Models trained by AttnLab itself, shipped with it: they open offline"));
    for (const BuiltinModel& m : builtinModels()) {
        builtins->addAction(m.title, this, [this, m] {
            QString error;
            const QString folder = resolveModelFolder(builtinReference(m.name), error);
            if (folder.isEmpty()) {
                dialogs_.warn(tr("Could not open the model"), error);
                return;
            }
            if (openFolder(folder)) setText(m.sample);
        });
    }
    builtins->setEnabled(!builtins->isEmpty());
    file->addSeparator();
    QMenu* exports = file->addMenu(tr("&Export"));
    QAction* grid = exports->addAction(tr("Model &View (all layers and heads)…"), this,
                                       [this] { exportWithDialog(ModelExport::Grid); });
    grid->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_E));
    exports->addAction(tr("&Enlarged Map…"), this,
                       [this] { exportWithDialog(ModelExport::Focus); });
    exports->addAction(tr("&Head View…"), this,
                       [this] { exportWithDialog(ModelExport::HeadView); });
    file->addSeparator();
    QAction* close = file->addAction(tr("&Close"), this, &QWidget::close);
    close->setShortcut(QKeySequence::Close);
}

void ModelWindow::buildEditMenu()
{
    QMenu* edit = menuBar()->addMenu(tr("&Edit"));
    QAction* undo = doc_->undoStack()->createUndoAction(this, tr("&Undo"));
    undo->setShortcut(QKeySequence::Undo);
    QAction* redo = doc_->undoStack()->createRedoAction(this, tr("&Redo"));
    redo->setShortcut(QKeySequence::Redo);
    edit->addAction(undo);
    edit->addAction(redo);
    built_ << undo << redo;
    edit->addSeparator();
    edit->addAction(tr("&Clear Head Edits"), doc_, &ModelDocument::clearEdits);
    edit->addAction(tr("How to Edit a Head"), this, [this] {
        QMessageBox::information(
            this, tr("How to edit a head"),
            tr("Right-click a head in the model view to switch it off or replace it by its "
               "mean; right-click a cell of an enlarged head to double or halve that key, value "
               "or query. The model re-runs from that layer on: the predictions show before and "
               "after, and the grid below them how much each later head's attention changed. "
               "Every edit is one undo step."));
    });
}

void ModelWindow::buildGenerateMenu()
{
    QMenu* menu = menuBar()->addMenu(tr("&Generate"));
    for (QAction* a :
         {generate_->generateAction(), generate_->stepAction(), generate_->stopAction()}) {
        menu->addAction(a);
        // Shown beside the Generate dock's sliders: the dock comes up with the action.
        connect(a, &QAction::triggered, this, [this] {
            for (QDockWidget* d : findChildren<QDockWidget*>())
                if (d->widget() == generate_) d->raise();
        });
    }
}

void ModelWindow::buildTrainMenu()
{
    QMenu* train = menuBar()->addMenu(tr("&Train"));
    QAction* trainer = train->addAction(tr("Model &Trainer"), this, [this] { showTrainer(); });
    trainer->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_T));
    trainer->setToolTip(tr("Train a small GPT-2 here and watch its heads form"));
    QAction* run = train->addAction(tr("&Start or Pause"), this, [this] {
        showTrainer();
        trainer_->startButton()->click();
    });
    run->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_R));
    QAction* step = train->addAction(tr("S&tep"), this, [this] {
        showTrainer();
        trainer_->stepOnce();
    });
    step->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_R));
    QAction* openTrained = train->addAction(tr("&Open the Trained Model Here"), this, [this] {
        QString error;
        if (!trainer_->openInModelWindow(error))
            dialogs_.warn(tr("Could not open the model"), error);
    });
    openTrained->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_M));
    openTrained->setToolTip(tr("Pause first: the model opens as it stands between steps"));
    train->addSeparator();
    train->addAction(tr("Induction Heads: &1 Layer"), this, [this] { showTrainer(1); });
    train->addAction(tr("Induction Heads: &2 Layers"), this, [this] { showTrainer(2); });
    train->addAction(tr("&Dates → English Translator"), this, [this] { showTranslatorTrainer(); })
        ->setToolTip(tr("Train an encoder-decoder here and watch its cross-attention align"));
}

void ModelWindow::buildViewAndHelpMenus()
{
    QMenu* view = menuBar()->addMenu(tr("&View"));
    QAction* sink =
        view->addAction(tr("Next Attention &Sink"), doc_, &ModelDocument::selectNextSink);
    sink->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_A));
    sink->setToolTip(
        tr("Enlarge the next head whose queries put most of their attention on the "
           "first token (ringed in the model view)"));
    sink->setObjectName(QStringLiteral("nextSink"));
    view->addSeparator();
    for (QDockWidget* d : findChildren<QDockWidget*>()) view->addAction(d->toggleViewAction());
    presenter_->addActions(view);
    QMenu* help = menuBar()->addMenu(tr("&Help"));
    help->setObjectName(QStringLiteral("ModelHelpMenu"));
    addHelpActions(help, this, [this] { return collectShortcuts(this) + keysWithoutActions(); });
    help->addSeparator();
    help->addAction(tr("&Which Models Open?"), this, [this] {
        QMessageBox::information(
            this, tr("Which models open?"),
            tr("GPT-2 (gpt2, distilgpt2, gpt2-medium, …) and BERT (bert-base-uncased, "
               "bert-base-chinese, …) checkpoints in the Hugging Face layout: a folder with "
               "config.json, model.safetensors (F32, F16 or BF16) and the tokenizer's files "
               "(GPT-2: vocab.json and merges.txt, or tokenizer.json; BERT: vocab.txt). "
               "Download them once from huggingface.co; AttnLab runs them on this computer "
               "without Python or a network."));
    });
}

}  // namespace attnlab
