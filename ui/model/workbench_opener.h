// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// How the model window hands one of its heads to the workbench (Open in Workbench): the
// workbench window registers what to do, the model window's menus offer the action while one
// is registered. Both live on the GUI thread.

#include <functional>
#include <memory>

#include <QString>

class QObject;

namespace attnlab {

struct LoadedModel;
struct ModelSnapshot;

struct HeadRequest {
    std::shared_ptr<const LoadedModel> loaded;
    std::shared_ptr<const ModelSnapshot> run;
    int layer = 0;  // from 0
    int head = 0;
};

using WorkbenchOpener = std::function<bool(const HeadRequest& request, QString& error)>;

// Registers `open` for as long as `owner` lives (the last registration wins).
void setWorkbenchOpener(QObject* owner, WorkbenchOpener open);
[[nodiscard]] bool canOpenInWorkbench();
// False with a translated `error` when no workbench is registered or it refused the head.
bool openInWorkbench(const HeadRequest& request, QString& error);

}  // namespace attnlab
