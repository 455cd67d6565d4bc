// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The zip container of a `torch.save` file (pytorch_model.bin since PyTorch 1.6): its entries,
// each stored without compression (torch writes them so, padded to align their data), read
// from the central directory, with zip64 sizes and offsets for files over 4 GiB. Only what a
// reader of stored entries needs; a compressed or encrypted entry is refused by name.

#include <cstdint>
#include <string>
#include <vector>

#include "core/status.h"

namespace attn::model::detail {

struct ZipEntry {
    std::string name;
    std::uint64_t dataOffset = 0;  // from the start of the file
    std::uint64_t size = 0;
};

// True when `bytes` start as a zip file does ("PK\3\4").
bool looksLikeZip(const unsigned char* bytes, std::uint64_t size);

// The entries of the zip held in `bytes` (`size` long; `path` names it in messages), each
// checked to lie inside the file. At most kMaxZipEntries.
attn::Status readStoredZip(const unsigned char* bytes, std::uint64_t size, const std::string& path,
                           std::vector<ZipEntry>& entries);

// A state dict has a few entries per tensor; the largest checkpoints hold a few thousand.
inline constexpr std::uint64_t kMaxZipEntries = 1u << 20;

}  // namespace attn::model::detail
