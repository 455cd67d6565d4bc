// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// How the model window hands one of its heads to the workbench (Open in Workbench): its
// document emits ModelDocument::workbenchRequested with a request and a reply, and the
// workbench window, which wired that signal when the model window was made
// (MainWindow::adoptModelWindow), takes the head or says in the reply why not. Both live on the
// GUI thread, so the reply is filled before emit returns. A translator's cross head goes the
// same way (Seq2SeqDocument::workbenchRequested, MainWindow::adoptTranslator).

#include <memory>
#include <vector>

#include <QString>
#include <QStringList>

#include "ui/readers/session.h"

namespace attnlab {

class Seq2SeqDocument;
struct LoadedModel;
struct ModelSnapshot;

struct HeadRequest {
    std::shared_ptr<const LoadedModel> loaded;
    std::shared_ptr<const ModelSnapshot> run;
    int layer = 0;  // from 0
    int head = 0;
};

// A translator's cross head (Seq2SeqDocument::workbenchRequested): its session in cross mode,
// the undo step's title, and what the workbench needs to carry its changes back (CrossLink).
struct CrossHeadTaken {
    int layer = 0;  // from 0
    int head = 0;
    long headDim = 0;
    std::vector<int> sourceIds;
    std::vector<int> targetIds;  // the decoder's input when the head was taken
};
struct CrossHeadRequest {
    Seq2SeqDocument* translator = nullptr;  // where the changes are carried back
    Session session;
    QString title;
    CrossHeadTaken taken;
};

struct HeadReply {
    bool taken = false;
    QString error;  // translated, when not taken
};

}  // namespace attnlab
