// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/model/model_cache.h"

#include <cstdint>
#include <sys/stat.h>

#include "core/io/sha256.h"

namespace attn::model {

bool cachedCopyIntact(const std::string& dir, const std::vector<io::FolderFile>& files)
{
    struct stat st {};
    if (::lstat(dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) return false;
    for (const io::FolderFile& f : files) {
        const std::string path = dir + '/' + f.name;
        if (::lstat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode) ||
            static_cast<std::uint64_t>(st.st_size) != f.bytes.size())
            return false;
        std::string digest;
        if (!io::sha256OfFile(path, f.bytes.size(), digest).ok() ||
            digest != io::sha256Hex(f.bytes))
            return false;
    }
    return true;
}

io::WriteStatus writeCachedCopy(const std::string& dir, const std::vector<io::FolderFile>& files)
{
    io::FolderPolicy own;
    own.mayReplace = true;
    own.keepOthers = false;
    own.followLinks = false;
    own.makeParents = true;
    return io::writeFolderAtomically(dir, files, own);
}

}  // namespace attn::model
