// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/tokenize/loaded.h"

#include <algorithm>
#include <climits>
#include <utility>

#include "core/io/bounded_file.h"

namespace attn::tok {

namespace {

// "232 bytes", "17 MiB" (rounded up, so that a file just above a cap never reads as the cap).
std::string sizeText(std::uint64_t bytes)
{
    constexpr std::uint64_t kMiB = std::uint64_t{1} << 20;
    if (bytes < kMiB) return std::to_string(bytes) + " bytes";
    return std::to_string((bytes + kMiB - 1) / kMiB) + " MiB";
}

}  // namespace

Status tokenizerError(std::string file, std::string what)
{
    return failure(StatusCode::TokenizerSyntax, std::move(file), "", std::move(what));
}

std::optional<Status> readWholeFile(const std::filesystem::path& path, std::string& out,
                                    std::uint64_t limit)
{
    const std::string name = path.string();
    const io::ReadStatus s = io::readBoundedFile(name, limit, out);
    const auto refuse = [&name](std::string what) {
        return failure(StatusCode::TokenizerFile, name, "", std::move(what));
    };
    switch (s.error) {
    case io::ReadError::Ok: return std::nullopt;
    case io::ReadError::Missing: return refuse("file not found");
    case io::ReadError::NotRegular:
        if (s.kind == io::FileKind::Directory) return refuse("is a folder, not a file");
        return refuse(io::describe(s));
    case io::ReadError::TooLarge: {
        // The size is the file's own, from fstat, unless it grew past the cap while being read.
        const bool grew = s.size == limit + 1;
        Status st =
            refuse("is " + std::string(grew ? "more than " : "") + sizeText(grew ? limit : s.size) +
                   "; such a file may be at most " + sizeText(limit));
        st.value = static_cast<long>(std::min<std::uint64_t>(s.size, LONG_MAX));
        st.limit = static_cast<long>(limit);
        return st;
    }
    default: return refuse("cannot be read: " + io::describe(s));
    }
}

std::optional<Status> checkLineCount(std::string_view text, const std::string& name,
                                     const char* what)
{
    std::size_t lines = static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n'));
    if (!text.empty() && text.back() != '\n') ++lines;
    if (lines <= kMaxVocabEntries) return std::nullopt;
    Status s = tokenizerError(name, "has " + std::to_string(lines) + " lines; " + what +
                                        " may have at most " + std::to_string(kMaxVocabEntries));
    s.value = static_cast<long>(lines);
    s.limit = static_cast<long>(kMaxVocabEntries);
    return s;
}

}  // namespace attn::tok
