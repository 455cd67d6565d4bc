// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// File ▸ Quit: one question that lists the unsaved work of every window (the workbench's
// session, or the long session open in it; the model window's trained model that no folder
// holds), then every window closes (the model window too) and the application ends. Nothing
// is asked when nothing is unsaved.

#include <QCoreApplication>
#include <QStringList>

namespace attnlab {

class MainWindow;

class QuitFlow {
    Q_DECLARE_TR_FUNCTIONS(attnlab::QuitFlow)
public:
    // The names of the unsaved work in every open window ("Lesson 2 — …", "long.attnlab.json
    // (the workbench)", "Trained model, step 40 of 3000 (the model trainer)"), the workbench
    // first; empty when there is none.
    static QStringList unsavedWork(MainWindow* workbench);
    // Asks once (Save all / Discard / Cancel) when something is unsaved, saves if told to,
    // then closes every window and quits. False when cancelled or a save failed: then every
    // window stays open.
    static bool quit(MainWindow* workbench);
};

}  // namespace attnlab
