// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/window/quit_flow.h"

#include <QApplication>
#include <QMessageBox>

#include "ui/model/model_window.h"
#include "ui/model/model_windows.h"
#include "ui/window/file_actions.h"
#include "ui/window/main_window.h"

namespace attnlab {

QStringList QuitFlow::unsavedWork(MainWindow* workbench)
{
    QStringList names;
    if (workbench->fileActions()->hasUnsavedChanges())
        names << tr("%1 (the workbench)").arg(workbench->fileActions()->sessionName());
    if (ModelWindow* model = workbench->modelWindows()->existing()) names << model->unsavedWork();
    return names;
}

bool QuitFlow::quit(MainWindow* workbench)
{
    FileActions* files = workbench->fileActions();
    const QStringList names = unsavedWork(workbench);
    if (!names.isEmpty()) {
        QString list;
        for (const QString& name : names) list += QStringLiteral("\n • ") + name;
        const QMessageBox::StandardButton answer = files->dialogs().ask(
            tr("Quit AttnLab"),
            tr("Not saved:%1\n\nSave before quitting? Discard quits without saving.").arg(list),
            QMessageBox::SaveAll | QMessageBox::Discard | QMessageBox::Cancel);
        if (answer != QMessageBox::SaveAll && answer != QMessageBox::Discard) return false;
        if (answer == QMessageBox::SaveAll) {
            // The save may ask for a file name; cancelling it keeps every window open.
            if (files->hasUnsavedChanges() && !files->save()) return false;
            ModelWindow* model = workbench->modelWindows()->existing();
            if (model && !model->saveUnsavedWork()) return false;
        }
    }
    // Answered once for all: no window asks again as it closes.
    files->closeWithoutAsking();
    for (QWidget* w : QApplication::topLevelWidgets())
        if (auto* m = qobject_cast<ModelWindow*>(w)) m->close();
    workbench->close();
    QApplication::closeAllWindows();  // anything else still open (presenter view, dialogs)
    QCoreApplication::quit();         // also when a hidden window would keep the loop alive
    return true;
}

}  // namespace attnlab
