// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The model window's recovery file (Autosave of AutosaveKind::model()): the checkpoint folder,
// the text, the head edits and what is selected, as JSON:
//   {"format": "attnlab-model-recovery", "version": 1, "folder": "/models/gpt2",
//    "text": "...", "edits": [{"kind": "key", "layer": 0, "head": 1, "index": 2,
//    "scale": 2.0}], "selection": {"layer": 0, "head": 1, "focus": "head", "query": -1}}
// Layers, heads and positions count from 0; kinds are query, key, value, ablate-zero and
// ablate-mean; focus is head, average or rollout.
//
// The reader refuses a file larger than kMaxBytes, malformed JSON, a missing or mistyped
// field and a layer, head or position out of range, with a message naming the field; checking
// the layers and heads against the opened model is restoreModelRecovery()'s.

#include <vector>

#include <QString>

#include "core/model/head_edit.h"
#include "ui/model/model_document.h"
#include "ui/model/recovery_file.h"

namespace attnlab {

class ModelWindow;

struct ModelRecoveryState {
    QString folder;
    QString text;
    std::vector<attn::model::HeadEdit> edits;
    ModelSelection selection;
};

inline constexpr qint64 kMaxModelRecoveryBytes = 16 * 1024 * 1024;

[[nodiscard]] ModelRecoveryState modelRecoveryState(const ModelDocument& doc);
QByteArray modelRecoveryJson(const ModelRecoveryState& state);
bool writeModelRecovery(const QString& path, const ModelRecoveryState& state, QString& error);
// Reads `bytes` (of `path`, for messages) into `state`; false with a translated `error`.
bool parseModelRecovery(const QByteArray& bytes, ModelRecoveryState& state, QString& error);
bool readModelRecovery(const QString& path, ModelRecoveryState& state, QString& error);

// Opens the state in `window`: the folder, the text, the edits and the selection (its query
// once the text has run). False with a translated `error` when the folder is not a checkpoint
// any more or a layer or head is outside it; what the window showed then stays.
bool restoreModelRecovery(ModelWindow* window, const ModelRecoveryState& state, QString& error);

using ModelRecoveryDialogs = RecoveryDialogs;
inline ModelRecoveryDialogs defaultModelRecoveryDialogs()
{
    return defaultRecoveryDialogs();
}

// At start: offers the newest model window a crashed run left in `window`'s recovery directory
// (Yes restores it, Discard deletes it, Cancel keeps it for the next start; `withoutAsking`
// restores it at once). A file that cannot be restored is set aside and the warning says
// where. True when it was restored (the window is then shown).
bool offerModelRecovery(ModelWindow* window, bool withoutAsking,
                        const ModelRecoveryDialogs& dialogs);

}  // namespace attnlab
