// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/io/atomic_file.h"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>
#include <utility>

namespace attn::io {

namespace {

struct Fd {
    int fd = -1;
    ~Fd()
    {
        if (fd >= 0) ::close(fd);
    }
};

std::string folderOf(const std::string& path)
{
    const std::size_t slash = path.rfind('/');
    if (slash == std::string::npos) return ".";
    if (slash == 0) return "/";
    return path.substr(0, slash);
}

// Follows `path` through its chain of symlinks to what it names (which may not exist yet), so
// that the file is replaced and the links stay links. Returns false on a loop.
bool resolveLinks(std::string path, std::string& out)
{
    for (int hop = 0; hop < 40; ++hop) {
        struct stat st {};
        if (::lstat(path.c_str(), &st) != 0 || !S_ISLNK(st.st_mode)) {
            out = path;
            return true;
        }
        std::string link(4096, '\0');
        const ssize_t n = ::readlink(path.c_str(), link.data(), link.size());
        if (n < 0 || static_cast<std::size_t>(n) >= link.size()) return false;
        link.resize(static_cast<std::size_t>(n));
        path = link.front() == '/' ? link : folderOf(path) + "/" + link;
    }
    errno = ELOOP;
    return false;
}

bool writeAll(int fd, const char* data, std::size_t size, int& error)
{
    // In pieces, so that a short write names the failure it met.
    constexpr std::size_t kPiece = std::size_t{1} << 20;
    std::size_t at = 0;
    while (at < size) {
        const ssize_t n = ::write(fd, data + at, std::min(kPiece, size - at));
        if (n < 0) {
            if (errno == EINTR) continue;
            error = errno;
            return false;
        }
        if (n == 0) {
            error = ENOSPC;
            return false;
        }
        at += static_cast<std::size_t>(n);
    }
    return true;
}

WriteStatus failed(WriteStatus s, int error)
{
    s.errnoValue = error;
    // A device that is full (/dev/full) says so in the system's words; "the disk" is a file's.
    const bool noRoom =
        s.kind == FileKind::Regular &&
        (error == ENOSPC || error == EDQUOT || (s.freeKnown && s.freeBefore < s.needed + 4096));
    s.error = noRoom ? WriteError::DiskFull : WriteError::SystemError;
    if (error == 0 && s.error == WriteError::SystemError) s.errnoValue = EIO;
    return s;
}

// A device or FIFO: written in place, never created, truncated or replaced.
WriteStatus writeInPlace(WriteStatus s, const char* data, std::size_t size)
{
    // O_NONBLOCK so that a FIFO without a reader is refused instead of waited on.
    Fd f{::open(s.target.c_str(), O_WRONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)};
    if (f.fd < 0) {
        if (errno == ENXIO && s.kind == FileKind::Fifo) {
            s.error = WriteError::NoReader;
            return s;
        }
        return failed(s, errno);
    }
    struct stat st {};
    if (::fstat(f.fd, &st) != 0) return failed(s, errno);
    if (!S_ISCHR(st.st_mode) && !S_ISFIFO(st.st_mode)) {  // swapped since it was looked at
        s.error = WriteError::NotWritable;
        s.kind = FileKind::Other;
        return s;
    }
    const int flags = ::fcntl(f.fd, F_GETFL);
    if (flags >= 0) (void)::fcntl(f.fd, F_SETFL, flags & ~O_NONBLOCK);
    if (int error = 0; !writeAll(f.fd, data, size, error)) return failed(s, error);
    return s;
}

std::string temporaryName(const std::string& target, int attempt)
{
    static std::atomic<unsigned> counter{0};
    const auto tick = static_cast<unsigned long long>(
        std::chrono::steady_clock::now().time_since_epoch().count());
    const std::size_t slash = target.rfind('/');
    const std::string base = slash == std::string::npos ? target : target.substr(slash + 1);
    return folderOf(target) + "/." + base + "." + std::to_string(::getpid()) + "-" +
           std::to_string(counter.fetch_add(1)) + "-" + std::to_string((tick >> 4) % 1000000) +
           "-" + std::to_string(attempt) + ".tmp";
}

}  // namespace

WriteStatus writeFileAtomically(const std::string& path, const char* data, std::size_t size)
{
    WriteStatus s;
    s.needed = size;
    if (!resolveLinks(path, s.target)) return failed(s, errno == 0 ? ELOOP : errno);
    struct stat st {};
    const bool exists = ::stat(s.target.c_str(), &st) == 0;
    if (exists && !S_ISREG(st.st_mode)) {
        s.kind = S_ISCHR(st.st_mode)    ? FileKind::CharDevice
                 : S_ISFIFO(st.st_mode) ? FileKind::Fifo
                 : S_ISDIR(st.st_mode)  ? FileKind::Directory
                 : S_ISBLK(st.st_mode)  ? FileKind::BlockDevice
                 : S_ISSOCK(st.st_mode) ? FileKind::Socket
                                        : FileKind::Other;
        if (s.kind == FileKind::CharDevice || s.kind == FileKind::Fifo)
            return writeInPlace(s, data, size);
        s.error = WriteError::NotWritable;
        return s;
    }
    // The free space before anything of ours is on the disk, for an honest "disk is full".
    const std::string folder = folderOf(s.target);
    if (struct statvfs vfs{}; ::statvfs(folder.c_str(), &vfs) == 0) {
        s.freeBefore = static_cast<std::uint64_t>(vfs.f_bavail) * vfs.f_frsize;
        s.freeKnown = true;
    }
    std::string temp;
    Fd f;
    for (int attempt = 0; attempt < 100 && f.fd < 0; ++attempt) {
        temp = temporaryName(s.target, attempt);
        // Mode 0666 so that the umask decides, as for any new file; an existing file's own
        // mode is copied below.
        f.fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (f.fd < 0 && errno != EEXIST) return failed(s, errno);
    }
    if (f.fd < 0) return failed(s, EEXIST);
    int error = 0;
    bool ok = writeAll(f.fd, data, size, error);
    // The file keeps its mode; where that is not ours to set (another owner's file in a shared
    // folder), the umask's mode stands.
    if (ok && exists) (void)::fchmod(f.fd, st.st_mode & 07777);
    if (ok && ::fsync(f.fd) != 0) ok = false, error = errno;
    if (ok && ::close(std::exchange(f.fd, -1)) != 0) ok = false, error = errno;
    if (ok && ::rename(temp.c_str(), s.target.c_str()) != 0) ok = false, error = errno;
    if (!ok) {
        ::unlink(temp.c_str());
        return failed(s, error);
    }
    // The rename itself reaches the disk with the folder's entry.
    if (Fd dir{::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC)}; dir.fd >= 0)
        (void)::fsync(dir.fd);
    return s;
}

std::string describe(const WriteStatus& s)
{
    switch (s.error) {
    case WriteError::Ok: return "written";
    case WriteError::DiskFull:
        return "the disk is full: " + std::to_string(s.needed) + " bytes needed, " +
               (s.freeKnown ? std::to_string(s.freeBefore) + " bytes free"
                            : std::string("free space unknown"));
    case WriteError::NotWritable: return "is " + describe(s.kind) + "; nothing was written to it";
    case WriteError::NoReader:
        return "is a FIFO (named pipe) that nobody reads; nothing was written";
    case WriteError::SystemError: return std::strerror(s.errnoValue);
    }
    return "cannot be written";
}

}  // namespace attn::io
