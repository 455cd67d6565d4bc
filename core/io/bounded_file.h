// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The one way AttnLab reads a file that a person chose (sessions, lesson and model folders,
// config.json, tokenizer files, checkpoints, pattern CSVs). A path can name anything: a FIFO
// that never ends or blocks on open, /dev/zero that never ends, a socket, a folder. So the file
// is opened without blocking (O_NONBLOCK), the opened descriptor is checked (fstat on the
// descriptor, not the path, so that nothing can be swapped in between), anything but a regular
// file is refused by name, and a regular file is read only up to a cap given by its kind.

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>

namespace attn::io {

// What a path turned out to be, for the message that refuses it.
enum class FileKind { Regular, Directory, Fifo, CharDevice, BlockDevice, Socket, Other };

enum class ReadError {
    Ok,
    Missing,     // no such file
    OpenFailed,  // exists but cannot be opened (permission, loop of links, ...)
    NotRegular,  // a folder, FIFO, device or socket
    TooLarge,    // above the cap for its kind (or grew past it while being read)
    ReadFailed,  // an I/O error while reading
};

struct ReadStatus {
    ReadError error = ReadError::Ok;
    FileKind kind = FileKind::Regular;
    int errnoValue = 0;       // the system's reason, for Missing/OpenFailed/ReadFailed
    std::uint64_t size = 0;   // the file's size (TooLarge: at least this many bytes)
    std::uint64_t limit = 0;  // the cap that applied

    bool ok() const { return error == ReadError::Ok; }
};

// "a FIFO (named pipe)", "a character device", ... in plain English.
std::string describe(FileKind kind);
// The reason in plain English, without the path: "is a character device, not a file",
// "is 3 MiB; at most 1 MiB is read", "No such file or directory".
std::string describe(const ReadStatus& status);

// An open, checked regular file: the descriptor is closed when this goes.
class RegularFile {
public:
    RegularFile() = default;
    RegularFile(RegularFile&& other) noexcept;
    RegularFile& operator=(RegularFile&& other) noexcept;
    RegularFile(const RegularFile&) = delete;
    RegularFile& operator=(const RegularFile&) = delete;
    ~RegularFile();

    int fd() const { return fd_; }
    std::uint64_t size() const { return size_; }

private:
    friend ReadStatus openRegularFile(const std::string& path, std::uint64_t limit,
                                      RegularFile& out);
    int fd_ = -1;
    std::uint64_t size_ = 0;
};

// Opens `path` for reading without blocking and keeps it only if it is a regular file of at
// most `limit` bytes. For callers that map the file (checkpoints) or read it themselves.
ReadStatus openRegularFile(const std::string& path, std::uint64_t limit, RegularFile& out);

// Reads the whole of `path` into `out` under the same rules; never more than `limit` bytes,
// even if the file grows while it is read.
ReadStatus readBoundedFile(const std::string& path, std::uint64_t limit, std::string& out);

// Reads `path` under the same rules in pieces of at most `pieceBytes`, each handed to `take` as
// it comes: for a file too large to hold in memory (a checkpoint to hash). `take` returns false
// to stop early; the status is then Ok and the rest is left unread. Never more than `limit`
// bytes are handed over, even if the file grows while it is read; on a failure the pieces
// already handed over are to be dropped.
ReadStatus readBoundedFileInPieces(const std::string& path, std::uint64_t limit,
                                   std::size_t pieceBytes,
                                   const std::function<bool(const char*, std::size_t)>& take);

}  // namespace attn::io
