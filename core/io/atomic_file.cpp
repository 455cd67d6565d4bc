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

#include "core/io/command_files.h"
#include "core/io/write_target.h"

namespace attn::io {

namespace {

using detail::Fd;
using detail::folderOf;
using detail::writeAll;

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

WriteStatus refusal(WriteStatus s, WriteError error, int errnoValue, std::string other = {})
{
    s.error = error;
    s.errnoValue = errnoValue;
    s.other = std::move(other);
    return s;
}

// The checks of checkWritable; `st` and `exists` say what the target was found to be.
WriteStatus examine(const std::string& path, struct stat& st, bool& exists)
{
    WriteStatus s;
    exists = false;
    if (path.empty()) return refusal(s, WriteError::EmptyPath, ENOENT);
    if (!detail::resolveLinks(path, s.target)) return failed(s, errno == 0 ? ELOOP : errno);
    exists = ::stat(s.target.c_str(), &st) == 0;
    if (!exists && errno != ENOENT) return failed(s, errno);
    if (exists && !S_ISREG(st.st_mode)) {
        s.kind = detail::kindOf(st.st_mode);
        if (s.kind != FileKind::CharDevice && s.kind != FileKind::Fifo)
            s.error = WriteError::NotWritable;
        return s;
    }
    const std::string folder = folderOf(s.target);
    struct stat dir {};
    if (::stat(folder.c_str(), &dir) != 0 || !S_ISDIR(dir.st_mode))
        return refusal(s, WriteError::NoFolder, ENOENT, folder);
    if (exists && !detail::mayWrite(s.target, W_OK))
        return refusal(s, WriteError::NoPermission, EACCES);
    // The file is replaced by a new one made in its folder.
    if (!detail::mayWrite(folder, W_OK | X_OK))
        return refusal(s, WriteError::NoPermission, EACCES, folder);
    return detail::checkAgainstCommand(s.target, s);
}

}  // namespace

WriteStatus checkWritable(const std::string& path)
{
    struct stat st {};
    bool exists = false;
    return examine(path, st, exists);
}

WriteStatus writeFileAtomically(const std::string& path, const char* data, std::size_t size)
{
    struct stat st {};
    bool exists = false;
    WriteStatus s = examine(path, st, exists);
    s.needed = size;
    if (!s.ok()) return s;
    if (s.kind == FileKind::CharDevice || s.kind == FileKind::Fifo)
        return writeInPlace(s, data, size);
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
    detail::noteWritten(s.target);
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
    case WriteError::EmptyPath: return "no file name was given";
    case WriteError::NoFolder: return "the folder " + s.other + " does not exist";
    case WriteError::NoPermission:
        return s.other.empty()
                   ? "you may not write this file (permission denied); it is left as it was"
                   : "you may not write in the folder " + s.other + " (permission denied)";
    case WriteError::SameAsInput:
        return "is the same file as the input " + s.other + ", which it would overwrite";
    case WriteError::NotOurs:
        return "is a folder AttnLab did not make (it holds " + s.other +
               "); nothing in it was changed: choose a new or empty folder";
    case WriteError::SameAsOutput:
        return "is the same file as the output " + s.other + "; give each output its own file";
    }
    return "cannot be written";
}

}  // namespace attn::io
