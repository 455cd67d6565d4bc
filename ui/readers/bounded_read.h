// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The UI's side of core/io/bounded_file.h: every file a person names (a session, a pattern
// CSV, a lesson's files) is read through here, so that a FIFO, a device, a socket or a folder is
// refused by name and a regular file is read only up to its kind's cap. Paths starting with
// ":/" are the program's own resources and are read as such.

#include <functional>

#include <QByteArray>
#include <QByteArrayView>
#include <QString>

namespace attnlab {

// Reads the whole of `path` into `out`, at most `limit` bytes. On failure returns false with
// `problem`, a translated sentence without the path ("the file does not exist.", "it is a FIFO
// (named pipe), not a file.", "the file is larger than 64 MiB; such a file may be at most
// 64 MiB.").
bool readUserFile(const QString& path, qint64 limit, QByteArray& out, QString& problem);

// Reads `path` under the same rules in pieces of 4 MiB handed to `take` as they come, for a file
// too large to hold (a checkpoint to hash); `take` returns false to stop early (and true is
// returned). Not for resources. On failure returns false with `problem` as above, and the
// pieces already handed over are to be dropped.
bool readUserFileInPieces(const QString& path, qint64 limit,
                          const std::function<bool(QByteArrayView)>& take, QString& problem);

}  // namespace attnlab
