// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A loaded tokenizer (or its options), or the status that says why its files could not be
// loaded: StatusCode::TokenizerFile (missing, a folder, too large, unreadable) or
// StatusCode::TokenizerSyntax (the content is malformed; `detail` says how).

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <variant>

#include "core/status.h"

namespace attn::tok {

// A loaded T or the reason it could not be loaded.
template <class T>
using Loaded = std::variant<T, Status>;

// A tokenizer file whose content is malformed: "<file>: <what>".
Status tokenizerError(std::string file, std::string what);

// Files larger than this are refused rather than read (the largest tokenizer.json files in
// common use are a few tens of MB).
inline constexpr std::uintmax_t kMaxTokenizerFileBytes = 256u * 1024u * 1024u;

// Reads a whole file into `out`; on failure returns the error (missing, unreadable, too large).
std::optional<Status> readWholeFile(const std::filesystem::path& path, std::string& out);

}  // namespace attn::tok
