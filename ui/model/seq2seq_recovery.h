// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The translator window's recovery file (Autosave of AutosaveKind::translator()): the
// encoder-decoder's folder, the source, a typed target (empty when the model translates), the
// head edits with the attention each belongs to, and the selected map, as JSON:
//   {"format": "attnlab-translator-recovery", "version": 1, "folder": "/models/opus-mt-en-zh",
//    "source": "...", "target": "",
//    "edits": [{"attention": "cross", "kind": "ablate-zero", "layer": 0, "head": 1,
//               "index": 0, "scale": 1.0}],
//    "selection": {"attention": "cross", "layer": 0, "head": 1}}
// Layers, heads and positions count from 0. The reader refuses a file larger than
// kMaxSeq2SeqRecoveryBytes, malformed JSON and a missing, mistyped or out-of-range field, with a
// message naming the field; the opened model checks the layers and heads.

#include <functional>
#include <vector>

#include <QString>

#include "core/model/head_edit.h"
#include "ui/model/recovery_file.h"
#include "ui/model/seq2seq_document.h"

namespace attnlab {

class Seq2SeqWindow;

struct Seq2SeqRecoveryState {
    QString folder;
    QString source;
    QString target;  // typed; empty when the model translates
    std::vector<attn::model::HeadEdit> edits;
    Seq2SeqSelection selection;
};

inline constexpr qint64 kMaxSeq2SeqRecoveryBytes = 16 * 1024 * 1024;

[[nodiscard]] Seq2SeqRecoveryState seq2seqRecoveryState(const Seq2SeqDocument& doc);
QByteArray seq2seqRecoveryJson(const Seq2SeqRecoveryState& state);
bool writeSeq2SeqRecovery(const QString& path, const Seq2SeqRecoveryState& state, QString& error);
// Reads `bytes` into `state`; false with a translated `error` naming the field.
bool parseSeq2SeqRecovery(const QByteArray& bytes, Seq2SeqRecoveryState& state, QString& error);
bool readSeq2SeqRecovery(const QString& path, Seq2SeqRecoveryState& state, QString& error);

// Opens the state in `window` (a new one: what it showed is replaced): the folder, the texts,
// the edits and the selection. False with a translated `error` when the folder is not an
// encoder-decoder any more or an edit or the selection is outside its layers and heads.
bool restoreSeq2SeqRecovery(Seq2SeqWindow* window, const Seq2SeqRecoveryState& state,
                            QString& error);

// At start: offers the newest translator window a crashed run left in `dir`, as
// offerRecovery() does; restored in a translator window of its own (deleted when closed),
// which `restored` receives when given. True when restored.
// `make` makes the window (ModelWindows::newTranslator, so that the workbench is wired; a plain
// one when empty).
bool offerSeq2SeqRecovery(const QString& dir, bool withoutAsking, const RecoveryDialogs& dialogs,
                          const std::function<Seq2SeqWindow*()>& make = {},
                          Seq2SeqWindow** restored = nullptr);

}  // namespace attnlab
