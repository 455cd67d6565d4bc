// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A restricted reader of the pickle inside a `torch.save` file (data.pkl): enough of the pickle
// machine (protocols 2 to 4) for a state dict, a dict of names to tensors, and nothing more.
// A pickle may name any Python function to call while it is read; this reader calls none. It
// accepts the few names a plain state dict uses and refuses every other by name:
//   collections.OrderedDict                 the dict, and the hooks a tensor carries (empty)
//   torch._utils._rebuild_tensor_v2         a tensor: storage, offset, size, stride
//   torch._utils._rebuild_parameter         a parameter around such a tensor
//   torch.{Float,Half,BFloat16,Double,Long,Int,Short,Char,Byte,Bool}Storage   storage types
// Storages arrive as persistent ids ('storage', type, key, location, numel): the key names the
// zip entry data/KEY that holds the bytes.

#include <cstdint>
#include <string>
#include <vector>

#include "core/status.h"

namespace attn::model::detail {

struct PickledTensor {
    std::string name;
    std::string dtype;  // as safetensors names it: "F32", "F16", "BF16", "I64", ...
    std::string storageKey;
    std::int64_t storageElements = 0;
    std::int64_t offset = 0;  // in elements, from the storage's start
    std::vector<std::int64_t> shape;
    std::vector<std::int64_t> stride;
};

// Reads a state dict from the pickle `bytes` (`path` names the file in messages). The top
// object must be a dict (or OrderedDict) of names to tensors.
attn::Status readStateDictPickle(const unsigned char* bytes, std::uint64_t size,
                                 const std::string& path, std::vector<PickledTensor>& tensors);

// Bounds on what a pickle may build: a state dict takes about 15 objects a tensor, so that of
// a model of 20,000 tensors takes 300,000; a million objects take at most ~200 MB.
inline constexpr std::uint64_t kMaxPickleObjects = std::uint64_t{1} << 20;
inline constexpr std::uint64_t kMaxPickleBytes = std::uint64_t{64} << 20;
inline constexpr std::size_t kMaxTensorRank = 8;

}  // namespace attn::model::detail
