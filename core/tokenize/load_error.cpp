// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/tokenize/load_error.h"

#include "core/io/bounded_file.h"

namespace attn::tok {

std::string describe(const LoadError& error)
{
    return error.file + ": " + error.what;
}

std::optional<LoadError> readWholeFile(const std::filesystem::path& path, std::string& out)
{
    const std::string name = path.string();
    const io::ReadStatus s = io::readBoundedFile(name, kMaxTokenizerFileBytes, out);
    switch (s.error) {
    case io::ReadError::Ok: return std::nullopt;
    case io::ReadError::Missing: return LoadError{name, "file not found"};
    case io::ReadError::NotRegular:
        if (s.kind == io::FileKind::Directory) return LoadError{name, "is a folder, not a file"};
        return LoadError{name, io::describe(s)};
    case io::ReadError::TooLarge:
        return LoadError{name, "file is too large (" + std::to_string(s.size) +
                                   " bytes or more; the limit is " +
                                   std::to_string(kMaxTokenizerFileBytes) + ")"};
    default: return LoadError{name, "cannot be read: " + io::describe(s)};
    }
}

}  // namespace attn::tok
