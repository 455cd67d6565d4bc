// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What the model window's and the translator window's recovery files share (model_recovery.h,
// seq2seq_recovery.h): reading their JSON fields with a translated message naming the field,
// head edits as JSON, and offering a crashed run's newest file back at start.

#include <functional>
#include <initializer_list>
#include <nlohmann/json_fwd.hpp>

#include <QMessageBox>
#include <QString>

#include "core/model/head_edit.h"

namespace attnlab {

struct AutosaveKind;
class Autosave;

namespace recovery {

// Far above any checkpoint's layers, heads and positions; the open model checks the rest.
inline constexpr long kMaxIndex = 1L << 20;

// Reading: each getter throws Refused with a translated message naming the field.
struct Refused {
    QString message;
};
const nlohmann::json& field(const nlohmann::json& object, const char* name);
QString text(const nlohmann::json& object, const char* name);
long whole(const nlohmann::json& object, const char* name, long min, long max);
// The index in `labels` of the string field `name`.
std::size_t oneOf(const nlohmann::json& object, const char* name,
                  std::initializer_list<const char*> labels);
// `bytes` parsed as a JSON object of `format`, version 1, at most `maxBytes` long; throws
// Refused naming `what` (a "model window's", translated) when it is another kind of file.
nlohmann::json parseObject(const QByteArray& bytes, qint64 maxBytes, const char* format,
                           const QString& what);

// {"kind": "key", "layer": 0, "head": 1, "index": 2, "scale": 2.0}, with "attention":
// "encoder" | "decoder" | "cross" first when `withAttention` (an encoder-decoder's).
nlohmann::json editJson(const attn::model::HeadEdit& edit, bool withAttention);
attn::model::HeadEdit readEdit(const nlohmann::json& object, bool withAttention);
attn::model::AttentionKind readAttention(const nlohmann::json& object);

// Reads a recovery file through the bounded file layer; false with a translated `error` naming
// the file.
bool readFile(const QString& path, qint64 maxBytes,
              const std::function<bool(const QByteArray&, QString&)>& parse, QString& error);

}  // namespace recovery

struct RecoveryDialogs {
    std::function<QMessageBox::StandardButton(const QString& title, const QString& text)> ask;
    std::function<void(const QString& title, const QString& text)> warn;
};
RecoveryDialogs defaultRecoveryDialogs();

// One kind of window offered back at start.
struct RecoveryOffer {
    QString askTitle;
    QString askText;  // %1 the folder (or `unknownFolder`), %2 when it was written
    QString unknownFolder;
    QString failTitle;
    // Reads the file into the caller's state and says its folder; false with `error`.
    std::function<bool(const QString& path, QString& folder, QString& error)> read;
    // Opens what read() read; returns the restored window's Autosave, or nullptr with `error`
    // (what was shown then stays).
    std::function<Autosave*(QString& error)> restore;
};

// At start: offers the newest file of `kind` a crashed run left in `dir` (Yes restores it,
// Discard deletes it, Cancel keeps it for the next start; `withoutAsking` restores it at once).
// A file that cannot be restored is set aside and the warning says where. True when restored.
bool offerRecovery(const QString& dir, const AutosaveKind& kind, bool withoutAsking,
                   const RecoveryDialogs& dialogs, const RecoveryOffer& offer);

}  // namespace attnlab
