// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What went wrong while loading a tokenizer's files, in plain English.

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <variant>

namespace attn::tok {

struct LoadError {
    std::string file;  // the file's path (or name, for in-memory sources)
    std::string what;  // e.g. "line 7: expected two tokens separated by a space, got 1"
};

// "<file>: <what>".
std::string describe(const LoadError& error);

// A loaded T or the reason it could not be loaded.
template <class T>
using Loaded = std::variant<T, LoadError>;

// Files larger than this are refused rather than read (the largest tokenizer.json files in
// common use are a few tens of MB).
inline constexpr std::uintmax_t kMaxTokenizerFileBytes = 256u * 1024u * 1024u;

// Reads a whole file into `out`; on failure returns the error (missing, unreadable, too large).
std::optional<LoadError> readWholeFile(const std::filesystem::path& path, std::string& out);

}  // namespace attn::tok
