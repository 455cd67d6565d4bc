// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The one way AttnLab writes a file. A regular file is replaced whole or not at all: the bytes
// go to a temporary file beside it, each write checked, then synced and renamed over it. The
// path may name something else, and then replacing it would be wrong:
//  - a symlink: the file it points to is written (the temporary file goes beside that file),
//    and the link stays a link;
//  - a character device (/dev/null, /dev/stdout, a terminal) or a FIFO with a reader: the bytes
//    are written to it directly, as `cat > /dev/null` does; the node stays what it was;
//  - a block device, a socket, a folder, or a FIFO that nobody reads: refused, untouched.
// A file this user could not open for writing is not replaced either (as `cp` would not): the
// rename would otherwise replace a read-only file, or another user's file in a shared folder.
// While a CommandFiles (command_files.h) is open, an input of the command and a file the
// command already wrote are refused too.

#include <cstddef>
#include <cstdint>
#include <string>

#include "core/io/bounded_file.h"

namespace attn::io {

enum class WriteError {
    Ok,
    DiskFull,      // no space (or quota); `freeBefore` says what there was
    NotWritable,   // a block device, socket, folder or a FIFO without a reader: `kind`
    NoReader,      // a FIFO that nobody has open for reading
    SystemError,   // anything else: `errnoValue`
    EmptyPath,     // no name was given
    NoFolder,      // the folder it would go in does not exist (or is not a folder): `other`
    NoPermission,  // this user may not write the file, or (`other` set) its folder
    SameAsInput,   // the file is an input of the same command: `other` names it
    SameAsOutput,  // the command already writes it under another name: `other`
    NotOurs,       // a folder that holds files AttnLab did not write (`other`: one of them)
};

struct WriteStatus {
    WriteError error = WriteError::Ok;
    FileKind kind = FileKind::Regular;  // what the (resolved) target is
    int errnoValue = 0;
    std::uint64_t needed = 0;      // bytes to write
    std::uint64_t freeBefore = 0;  // free bytes for us on its file system before the write
    bool freeKnown = false;
    std::string target;  // the path actually written (a link resolved)
    std::string other;   // NoFolder, NoPermission: the folder; SameAs*: the other path

    bool ok() const { return error == WriteError::Ok; }
};

// Writes `size` bytes at `data` to `path` as above.
WriteStatus writeFileAtomically(const std::string& path, const char* data, std::size_t size);

// Everything writeFileAtomically would refuse before it writes a byte, without writing: so that
// a command says an output cannot be written before it works for minutes (the free space is
// not known yet and is not checked).
WriteStatus checkWritable(const std::string& path);

// The reason in plain English, without the path.
std::string describe(const WriteStatus& status);

}  // namespace attn::io
