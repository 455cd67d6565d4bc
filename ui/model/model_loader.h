// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Opening a model folder reads config.json and the tokenizer's files and maps the checkpoint:
// up to hundreds of MB from a slow disk, or a network share that stalls. None of that may stop
// the window painting, so the reading runs on a worker thread.

#include <memory>

#include <QString>

#include "ui/modelrun/model_snapshot.h"

namespace attnlab {

// loadModelFolder() on a worker thread (runAway: called on the GUI thread, it waits in an
// event loop that keeps painting but holds back the user's input; elsewhere it reads directly).
std::shared_ptr<const LoadedModel> loadModelFolderAway(const QString& folder, QString& error);

}  // namespace attnlab
