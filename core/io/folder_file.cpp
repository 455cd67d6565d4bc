// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/io/folder_file.h"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <dirent.h>
#include <fcntl.h>
#include <filesystem>
#include <ftw.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/io/command_files.h"
#include "core/io/write_target.h"

namespace attn::io {

namespace {

using detail::Fd;

struct Examined {
    WriteStatus status;
    bool exists = false;
    mode_t mode = 0;
    std::vector<std::string> others;  // entries of the old folder that are not ours to write
    bool entryOnly = false;      // not a folder (a link, a file): replaced as it is, not entered
    bool missingParent = false;  // folders above it are to be made
};

WriteStatus refuse(WriteStatus s, WriteError error, int errnoValue, std::string other = {})
{
    s.error = error;
    s.errnoValue = errnoValue;
    s.other = std::move(other);
    return s;
}

// The entries of `folder` other than `names`; false if it cannot be listed.
bool otherEntries(const std::string& folder, const std::vector<std::string>& names,
                  std::vector<std::string>& out)
{
    DIR* dir = ::opendir(folder.c_str());
    if (dir == nullptr) return false;
    while (const dirent* e = ::readdir(dir)) {
        const std::string name = e->d_name;
        if (name == "." || name == "..") continue;
        if (std::find(names.begin(), names.end(), name) == names.end()) out.push_back(name);
    }
    ::closedir(dir);
    std::sort(out.begin(), out.end());
    return true;
}

Examined examineFolder(const std::string& folder, const std::vector<std::string>& names,
                       const FolderPolicy& policy)
{
    Examined x;
    WriteStatus& s = x.status;
    s.kind = FileKind::Directory;
    if (folder.empty()) {
        s = refuse(s, WriteError::EmptyPath, ENOENT);
        return x;
    }
    std::string target = folder;
    while (target.size() > 1 && target.back() == '/') target.pop_back();
    s.target = target;
    if (policy.followLinks && !detail::resolveLinks(target, s.target)) {
        s = refuse(s, WriteError::SystemError, errno == 0 ? ELOOP : errno);
        return x;
    }
    struct stat st {};
    x.exists =
        (policy.followLinks ? ::stat(s.target.c_str(), &st) : ::lstat(s.target.c_str(), &st)) == 0;
    if (x.exists && !S_ISDIR(st.st_mode)) {
        // What is not a folder is replaced whole only where the folder is the program's own.
        x.entryOnly = policy.mayReplace && !policy.keepOthers && !policy.followLinks;
        if (!x.entryOnly) {
            s.kind = detail::kindOf(st.st_mode);
            s = refuse(s, WriteError::NotWritable, ENOTDIR);
            return x;
        }
    }
    x.mode = st.st_mode & 07777;
    // The folder it goes in, or with makeParents the nearest one above that exists.
    std::string parent = detail::folderOf(s.target);
    struct stat up {};
    bool found = ::stat(parent.c_str(), &up) == 0;
    while (!found && policy.makeParents && errno == ENOENT && parent != "/" && parent != ".") {
        parent = detail::folderOf(parent);
        x.missingParent = true;
        found = ::stat(parent.c_str(), &up) == 0;
    }
    if (!found || !S_ISDIR(up.st_mode)) {
        s = refuse(s, WriteError::NoFolder, ENOENT, found ? parent : detail::folderOf(s.target));
        return x;
    }
    if (!detail::mayWrite(parent, W_OK | X_OK)) {
        s = refuse(s, WriteError::NoPermission, EACCES, parent);
        return x;
    }
    if (x.exists && !x.entryOnly) {
        std::vector<std::string> all;
        if (!otherEntries(s.target, {}, all)) {
            s = refuse(s, WriteError::SystemError, errno);
            return x;
        }
        (void)otherEntries(s.target, names, x.others);
        if (!all.empty() && !policy.mayReplace) {
            s = refuse(s, WriteError::NotOurs, EEXIST, all.front());
            return x;
        }
        for (const std::string& other : x.others) {
            struct stat e {};
            if (policy.keepOthers &&
                (::lstat((s.target + "/" + other).c_str(), &e) != 0 || !S_ISREG(e.st_mode))) {
                s = refuse(s, WriteError::NotOurs, EEXIST, other);
                return x;
            }
        }
    }
    for (const std::string& name : names) {
        s = detail::checkAgainstCommand(s.target + "/" + name, s);
        if (!s.ok()) return x;
    }
    return x;
}

int removeEntry(const char* path, const struct stat*, int, struct FTW*)
{
    return ::remove(path);
}

// Removes `folder` and everything in it, following no link.
void removeTree(const std::string& folder)
{
    (void)::nftw(folder.c_str(), removeEntry, 16, FTW_DEPTH | FTW_PHYS);
}

std::string temporaryFolder(const std::string& target, int attempt)
{
    static std::atomic<unsigned> counter{0};
    return detail::folderOf(target) + "/." + detail::nameOf(target) + "." +
           std::to_string(::getpid()) + "-" + std::to_string(counter.fetch_add(1)) + "-" +
           std::to_string(attempt) + ".tmp";
}

WriteStatus folderFailure(WriteStatus s, int error)
{
    s.errnoValue = error == 0 ? EIO : error;
    s.error = error == ENOSPC || error == EDQUOT ? WriteError::DiskFull : WriteError::SystemError;
    return s;
}

// Writes the files (and the links to the kept ones) into the new folder `temp`.
int fill(const std::string& temp, const Examined& x, const std::vector<FolderFile>& files,
         const FolderPolicy& policy)
{
    for (const FolderFile& f : files) {
        Fd fd{::open((temp + "/" + f.name).c_str(),
                     O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666)};
        if (fd.fd < 0) return errno;
        int error = 0;
        if (!detail::writeAll(fd.fd, f.bytes.data(), f.bytes.size(), error)) return error;
        if (::fsync(fd.fd) != 0) return errno;
    }
    if (x.exists && !x.entryOnly && policy.keepOthers) {
        for (const std::string& other : x.others)
            if (::link((x.status.target + "/" + other).c_str(), (temp + "/" + other).c_str()) != 0)
                return errno;
    }
    if (x.exists && !x.entryOnly) (void)::chmod(temp.c_str(), x.mode);
    if (Fd dir{::open(temp.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC)}; dir.fd >= 0)
        (void)::fsync(dir.fd);
    return 0;
}

// Puts `temp` where `target` is, in one step where the file system can; `temp` then names the
// old folder (or nothing).
int putInPlace(const std::string& temp, const std::string& target, bool exists)
{
    if (!exists) return ::rename(temp.c_str(), target.c_str()) == 0 ? 0 : errno;
    if (::renameat2(AT_FDCWD, temp.c_str(), AT_FDCWD, target.c_str(), RENAME_EXCHANGE) == 0)
        return 0;
    if (errno != EINVAL && errno != ENOSYS) return errno;
    // A file system without the exchange: two renames, the old folder first moved aside.
    const std::string aside = temp + ".old";
    if (::rename(target.c_str(), aside.c_str()) != 0) return errno;
    if (::rename(temp.c_str(), target.c_str()) != 0) {
        const int error = errno;
        (void)::rename(aside.c_str(), target.c_str());
        return error;
    }
    return ::rename(aside.c_str(), temp.c_str()) == 0 ? 0 : errno;
}

std::vector<std::string> namesOf(const std::vector<FolderFile>& files)
{
    std::vector<std::string> names;
    for (const FolderFile& f : files) names.push_back(f.name);
    return names;
}

}  // namespace

WriteStatus checkFolderWritable(const std::string& folder, const std::vector<std::string>& names,
                                const FolderPolicy& policy)
{
    return examineFolder(folder, names, policy).status;
}

WriteStatus writeFolderAtomically(const std::string& folder, const std::vector<FolderFile>& files,
                                  const FolderPolicy& policy)
{
    const Examined x = examineFolder(folder, namesOf(files), policy);
    WriteStatus s = x.status;
    for (const FolderFile& f : files) s.needed += f.bytes.size();
    if (!s.ok()) return s;
    if (x.missingParent) {
        std::error_code ec;
        std::filesystem::create_directories(detail::folderOf(s.target), ec);
        if (ec) return folderFailure(s, ec.value());
    }
    std::string temp;
    int made = -1;
    for (int attempt = 0; attempt < 100 && made != 0; ++attempt) {
        temp = temporaryFolder(s.target, attempt);
        made = ::mkdir(temp.c_str(), 0777) == 0 ? 0 : errno;
        if (made != 0 && made != EEXIST) return folderFailure(s, made);
    }
    if (made != 0) return folderFailure(s, EEXIST);
    int error = fill(temp, x, files, policy);
    if (error == 0) error = putInPlace(temp, s.target, x.exists);
    removeTree(temp);  // the old folder after the exchange; the new one if anything failed
    if (error != 0) return folderFailure(s, error);
    if (Fd dir{::open(detail::folderOf(s.target).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC)};
        dir.fd >= 0)
        (void)::fsync(dir.fd);
    for (const FolderFile& f : files) detail::noteWritten(s.target + "/" + f.name);
    return s;
}

}  // namespace attn::io
