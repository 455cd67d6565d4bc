// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/tokenize/loaded.h"

#include <utility>

#include "core/io/bounded_file.h"

namespace attn::tok {

Status tokenizerError(std::string file, std::string what)
{
    return failure(StatusCode::TokenizerSyntax, std::move(file), "", std::move(what));
}

std::optional<Status> readWholeFile(const std::filesystem::path& path, std::string& out)
{
    const std::string name = path.string();
    const io::ReadStatus s = io::readBoundedFile(name, kMaxTokenizerFileBytes, out);
    const auto refuse = [&name](std::string what) {
        return failure(StatusCode::TokenizerFile, name, "", std::move(what));
    };
    switch (s.error) {
    case io::ReadError::Ok: return std::nullopt;
    case io::ReadError::Missing: return refuse("file not found");
    case io::ReadError::NotRegular:
        if (s.kind == io::FileKind::Directory) return refuse("is a folder, not a file");
        return refuse(io::describe(s));
    case io::ReadError::TooLarge:
        return refuse("file is too large (" + std::to_string(s.size) +
                      " bytes or more; the limit is " + std::to_string(kMaxTokenizerFileBytes) +
                      ")");
    default: return refuse("cannot be read: " + io::describe(s));
    }
}

}  // namespace attn::tok
