// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Every file AttnLab writes goes through here, onto core/io/atomic_file.h: a regular file is
// replaced whole or left as it was; a link's target is written and the link stays; a character
// device or a read FIFO is written in place; anything else is refused. This side says why in
// the reader's language.

#include <QByteArray>
#include <QString>

#include "core/io/atomic_file.h"

namespace attnlab {

// Writes `bytes` to `path` as above. On failure returns false with `problem`, a translated
// sentence saying why ("the disk is full: 150 kB needed, 64 kB free", "permission denied"),
// and `path` is untouched.
bool writeFileAtomically(const QString& path, const QByteArray& bytes, QString& problem);

// "a FIFO (named pipe)", "a character device", ... translated.
QString fileKindText(attn::io::FileKind kind);

// Why a write was refused or failed, translated, without the path ("the disk is full: ...",
// "it is the same file as the input s.json, which it would overwrite").
QString writeProblemText(const attn::io::WriteStatus& status);

}  // namespace attnlab
