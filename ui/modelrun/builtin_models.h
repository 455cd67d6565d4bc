// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The trained models that ship inside the program (resources/models, made by
// `attnlab train-model`; each folder's training.json records the command). A checkpoint is
// memory-mapped from a file, so a built-in model is copied once out of the program into the
// cache folder, and opened from there like any other model folder.

#include <QList>
#include <QString>
#include <QStringList>

namespace attnlab {

struct BuiltinModel {
    QString name;    // "induction": what `builtin:NAME` names
    QString title;   // translated, for menus and lists
    QString sample;  // a text to open it with
};

// The built-in models, in menu order.
QList<BuiltinModel> builtinModels();
// "builtin:NAME" for a name.
QString builtinReference(const QString& name);
// The folder of `arg` when it is "builtin:NAME" (copied out on first use); `arg` itself when it
// is not; empty with `error` set when NAME is unknown or the copy could not be written.
QString resolveModelFolder(const QString& arg, QString& error);
// The built-in model's name when `folder` is where it was copied out, else empty.
QString builtinNameOf(const QString& folder);

}  // namespace attnlab
