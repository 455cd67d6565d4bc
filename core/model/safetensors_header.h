// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Inside the safetensors reader (safetensors.cpp): reading a file's header apart from mapping
// and placing its tensors.

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/model/safetensors.h"
#include "core/status.h"

namespace attn::model::detail {

// The 8-byte header length of `bytes` (`fileSize` long), then the JSON header's tensor entries
// (into `tensors` and `index`, in the header's order), each checked against the data section
// that follows; `headerLength` is set once read. Syntax is checked first, without building
// anything, so that a broken file is called broken rather than refused for whatever its first
// entry happens to be cut into.
attn::Status readSafetensorsHeader(const unsigned char* bytes, std::uint64_t fileSize,
                                   const std::string& path, std::vector<TensorInfo>& tensors,
                                   std::unordered_map<std::string, std::size_t>& index,
                                   std::uint64_t& headerLength);

}  // namespace attn::model::detail
