// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/io/bounded_file.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <utility>
#include <vector>

#include "core/io/command_files.h"
#include "core/io/write_target.h"

namespace attn::io {

namespace {

using detail::kindOf;

std::string sizeText(std::uint64_t bytes)
{
    if (bytes >= (std::uint64_t{1} << 20) && bytes % (std::uint64_t{1} << 20) == 0)
        return std::to_string(bytes >> 20) + " MiB";
    if (bytes >= (std::uint64_t{1} << 20)) return std::to_string((bytes >> 20) + 1) + " MiB";
    return std::to_string(bytes) + " bytes";
}

}  // namespace

std::string describe(FileKind kind)
{
    switch (kind) {
    case FileKind::Regular: return "a file";
    case FileKind::Directory: return "a folder";
    case FileKind::Fifo: return "a FIFO (named pipe)";
    case FileKind::CharDevice: return "a character device";
    case FileKind::BlockDevice: return "a block device";
    case FileKind::Socket: return "a socket";
    case FileKind::Other: return "not a regular file";
    }
    return "not a regular file";
}

std::string describe(const ReadStatus& s)
{
    switch (s.error) {
    case ReadError::Ok: return "read";
    case ReadError::Missing:
    case ReadError::OpenFailed:
    case ReadError::ReadFailed: return std::strerror(s.errnoValue);
    case ReadError::NotRegular: return "is " + describe(s.kind) + ", not a file; it is not read";
    case ReadError::TooLarge:
        return "is " + (s.size > s.limit ? "more than " + sizeText(s.limit) : sizeText(s.size)) +
               "; such a file may be at most " + sizeText(s.limit);
    }
    return "cannot be read";
}

RegularFile::RegularFile(RegularFile&& other) noexcept
    : fd_(std::exchange(other.fd_, -1)), size_(other.size_)
{
}

RegularFile& RegularFile::operator=(RegularFile&& other) noexcept
{
    if (this != &other) {
        if (fd_ >= 0) ::close(fd_);
        fd_ = std::exchange(other.fd_, -1);
        size_ = other.size_;
    }
    return *this;
}

RegularFile::~RegularFile()
{
    if (fd_ >= 0) ::close(fd_);
}

ReadStatus openRegularFile(const std::string& path, std::uint64_t limit, RegularFile& out)
{
    out = RegularFile();
    ReadStatus s;
    s.limit = limit;
    // O_NONBLOCK: opening a FIFO with no writer would otherwise wait for one forever.
    const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    if (fd < 0) {
        s.errnoValue = errno;
        s.error = errno == ENOENT ? ReadError::Missing : ReadError::OpenFailed;
        if (errno == EISDIR) {  // not reached on Linux (O_RDONLY opens folders) but kept exact
            s.error = ReadError::NotRegular;
            s.kind = FileKind::Directory;
        }
        return s;
    }
    RegularFile file;
    file.fd_ = fd;
    struct stat st {};
    if (::fstat(fd, &st) != 0) {
        s.errnoValue = errno;
        s.error = ReadError::OpenFailed;
        return s;
    }
    s.kind = kindOf(st.st_mode);
    if (s.kind != FileKind::Regular) {
        s.error = ReadError::NotRegular;
        return s;
    }
    s.size = static_cast<std::uint64_t>(st.st_size);
    // Whatever a command reads, it must not then overwrite (command_files.h).
    detail::noteInput(path, st.st_dev, st.st_ino);
    if (s.size > limit) {
        s.error = ReadError::TooLarge;
        return s;
    }
    // Regular files never block; reads from here on may wait for the disk as usual.
    const int flags = ::fcntl(fd, F_GETFL);
    if (flags >= 0) (void)::fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
    file.size_ = s.size;
    out = std::move(file);
    return s;
}

namespace {

// One read(2), retried when a signal interrupts it; a failure is written into `s`.
ssize_t readSome(int fd, char* into, std::size_t size, ReadStatus& s)
{
    for (;;) {
        const ssize_t n = ::read(fd, into, size);
        if (n >= 0 || errno != EINTR) {
            if (n < 0) {
                s.errnoValue = errno;
                s.error = ReadError::ReadFailed;
            }
            return n;
        }
    }
}

}  // namespace

ReadStatus readBoundedFile(const std::string& path, std::uint64_t limit, std::string& out)
{
    out.clear();
    RegularFile file;
    ReadStatus s = openRegularFile(path, limit, file);
    if (!s.ok()) return s;
    // The size is a hint: the file may shrink or grow while it is read (a log, /proc). At most
    // limit + 1 bytes are taken, the extra one telling "too large" from "exactly at the cap".
    std::string bytes;
    bytes.resize(static_cast<std::size_t>(file.size()) + 1);
    std::uint64_t have = 0;
    for (;;) {
        if (have == bytes.size()) {
            if (have > limit) break;
            bytes.resize(static_cast<std::size_t>(
                std::min<std::uint64_t>(limit + 1, std::max<std::uint64_t>(have * 2, 4096))));
        }
        const ssize_t n = readSome(file.fd(), bytes.data() + have, bytes.size() - have, s);
        if (n < 0) return s;
        if (n == 0) break;
        have += static_cast<std::uint64_t>(n);
    }
    if (have > limit) {
        s.error = ReadError::TooLarge;
        s.size = have;
        return s;
    }
    bytes.resize(static_cast<std::size_t>(have));
    s.size = have;
    out = std::move(bytes);
    return s;
}

ReadStatus readBoundedFileInPieces(const std::string& path, std::uint64_t limit,
                                   std::size_t pieceBytes,
                                   const std::function<bool(const char*, std::size_t)>& take)
{
    RegularFile file;
    ReadStatus s = openRegularFile(path, limit, file);
    if (!s.ok()) return s;
    std::vector<char> piece(std::max<std::size_t>(pieceBytes, 1));
    std::uint64_t have = 0;
    for (;;) {
        const ssize_t n = readSome(file.fd(), piece.data(), piece.size(), s);
        if (n < 0) return s;
        if (n == 0) break;
        have += static_cast<std::uint64_t>(n);
        if (have > limit) {  // it grew past the cap after it was opened
            s.error = ReadError::TooLarge;
            s.size = have;
            return s;
        }
        if (!take(piece.data(), static_cast<std::size_t>(n))) break;
    }
    s.size = have;
    return s;
}

}  // namespace attn::io
