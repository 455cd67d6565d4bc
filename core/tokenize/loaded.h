// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A loaded tokenizer (or its options), or the status that says why its files could not be
// loaded: StatusCode::TokenizerFile (missing, a folder, a FIFO or device, too large,
// unreadable) or StatusCode::TokenizerSyntax (the content is malformed; `detail` says how).

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

#include "core/status.h"

namespace attn::tok {

// A loaded T or the reason it could not be loaded.
template <class T>
using Loaded = std::variant<T, Status>;

// A tokenizer file whose content is malformed: "<file>: <what>".
Status tokenizerError(std::string file, std::string what);

// The caps on tokenizer files, checked on a file's size before a byte of it is read. A
// tokenizer.json holds a whole pipeline and vocabulary (the largest in common use, Gemma's, are
// a few tens of MB); a vocabulary file alone is far smaller: bert-base-uncased's vocab.txt is
// 232 kB (30,522 lines), the multilingual ones about 1 MB (120,000 lines), GPT-2's vocab.json
// 1 MB and its merges.txt 456 kB (50,000 lines).
inline constexpr std::uint64_t kMaxTokenizerFileBytes = 256u << 20;  // tokenizer(_config).json
inline constexpr std::uint64_t kMaxVocabFileBytes = 16u << 20;       // vocab.txt/.json, merges.txt
// Lines of a vocab.txt or merges.txt, and tokens of a vocab.json: four times the largest in use.
inline constexpr std::size_t kMaxVocabEntries = 500'000;

// Reads a whole file of at most `limit` bytes into `out`; on failure returns why, naming the
// path: missing, a folder, a FIFO or device (never opened for reading, so never waited on), its
// size and the limit, or the system's reason.
std::optional<Status> readWholeFile(const std::filesystem::path& path, std::string& out,
                                    std::uint64_t limit = kMaxTokenizerFileBytes);

// Refuses `text` (a vocab.txt or merges.txt named `name`) when it has more than
// kMaxVocabEntries lines; `what` names the kind ("a vocabulary") in the message.
std::optional<Status> checkLineCount(std::string_view text, const std::string& name,
                                     const char* what);

}  // namespace attn::tok
