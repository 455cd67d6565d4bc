#pragma once
// Every file AttnLab writes goes through here: the bytes go to a temporary file beside the
// target, unbuffered so that each write is checked (a buffered QSaveFile reports a failed flush
// only at commit, if at all: a full disk then leaves an empty file and "success"), then synced and
// renamed over the target. So the target is either replaced whole or left as it was.

#include <QByteArray>
#include <QString>

namespace attnlab {

// Writes `bytes` to `path` as above. On failure returns false with `problem`, a translated
// sentence saying why ("the disk is full: 150 kB needed, 64 kB free", "permission denied"),
// and `path` is untouched.
bool writeFileAtomically(const QString& path, const QByteArray& bytes, QString& problem);

}  // namespace attnlab
