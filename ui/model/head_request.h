// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// How the model window hands one of its heads to the workbench (Open in Workbench): its
// document emits ModelDocument::workbenchRequested with a request and a reply, and the
// workbench window, which wired that signal when the model window was made
// (MainWindow::adoptModelWindow), takes the head or says in the reply why not. Both live on the
// GUI thread, so the reply is filled before emit returns.

#include <memory>

#include <QString>

namespace attnlab {

struct LoadedModel;
struct ModelSnapshot;

struct HeadRequest {
    std::shared_ptr<const LoadedModel> loaded;
    std::shared_ptr<const ModelSnapshot> run;
    int layer = 0;  // from 0
    int head = 0;
};

struct HeadReply {
    bool taken = false;
    QString error;  // translated, when not taken
};

}  // namespace attnlab
