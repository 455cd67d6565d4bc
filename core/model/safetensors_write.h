// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Writer for the safetensors format that safetensors.h reads: F32 tensors only, the header
// padded with spaces to a multiple of 8 bytes (as the safetensors library does, so every
// tensor starts 4-byte aligned and opens as a view), tensors in the order given, written
// through io::writeFileAtomically (whole or not at all).

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "core/status.h"

namespace attn::model {

struct TensorToWrite {
    std::string name;
    std::vector<std::int64_t> shape;  // row-major
    std::vector<float> values;        // product(shape) of them
};

// String pairs of the header's "__metadata__" entry (none: no entry). Hugging Face
// transformers refuses a checkpoint without {"format": "pt"} there.
using SafetensorsMetadata = std::map<std::string, std::string>;

// The file's bytes: header length, header, data. Refuses a tensor whose values disagree with
// its shape (TensorShape) and an empty or repeated name (HeaderField).
attn::Status safetensorsBytes(const std::vector<TensorToWrite>& tensors,
                              const SafetensorsMetadata& metadata, std::string& out);
// Writes them to `path`; FileOpen with the system's reason if the file cannot be written.
attn::Status writeSafetensors(const std::string& path, const std::vector<TensorToWrite>& tensors,
                              const SafetensorsMetadata& metadata = {});

}  // namespace attn::model
