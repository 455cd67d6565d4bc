// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Inside the checkpoint reader (safetensors.cpp): the tensors of a `torch.save` file
// (pytorch_model.bin), placed as the safetensors reader places its own. Tensors that share a
// storage (tied weights, views) are read from the same bytes; each must be contiguous.

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/model/safetensors.h"
#include "core/status.h"

namespace attn::model::detail {

// The state dict in the zip `bytes` (`fileSize` long): each tensor's name, dtype, shape and
// its bytes as offsets from the start of the file (begin, end), in the pickle's order.
attn::Status readTorchCheckpoint(const unsigned char* bytes, std::uint64_t fileSize,
                                 const std::string& path, std::vector<TensorInfo>& tensors);

}  // namespace attn::model::detail
