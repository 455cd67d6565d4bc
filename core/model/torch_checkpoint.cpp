// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/model/torch_checkpoint.h"

#include <algorithm>
#include <limits>

#include "core/model/torch_pickle.h"
#include "core/model/torch_zip.h"

namespace attn::model::detail {

namespace {

attn::Status badTensor(const std::string& path, const std::string& name, const std::string& detail)
{
    return attn::failure(attn::StatusCode::BadOffsets, path, "tensor '" + name + "'", detail);
}

// Row-major strides of `shape`, or false when its elements overflow.
bool contiguous(const PickledTensor& t, std::int64_t& count)
{
    count = 1;
    for (std::size_t d = t.shape.size(); d-- > 0;) {
        if (t.shape[d] != 1 && t.stride[d] != count) return false;
        if (t.shape[d] != 0 && count > std::numeric_limits<std::int64_t>::max() / t.shape[d])
            return false;
        count *= t.shape[d];
    }
    return true;
}

attn::Status place(const PickledTensor& p, const ZipEntry& storage, const std::string& path,
                   TensorInfo& t)
{
    const std::size_t element = dtypeSize(p.dtype);
    std::int64_t count = 0;
    if (!contiguous(p, count))
        return attn::failure(attn::StatusCode::TorchArchive, path, "tensor '" + p.name + "'",
                             "is not stored contiguously (strides disagree with its shape); save a "
                             "contiguous copy of it");
    const auto elements = static_cast<std::uint64_t>(p.storageElements);
    if (elements > storage.size / element)
        return badTensor(path, p.name,
                         "its storage data/" + p.storageKey + " is said to hold " +
                             std::to_string(elements) + " elements, but has " +
                             std::to_string(storage.size) + " bytes");
    const auto offset = static_cast<std::uint64_t>(p.offset);
    if (offset > elements || static_cast<std::uint64_t>(count) > elements - offset)
        return badTensor(path, p.name,
                         "elements " + std::to_string(offset) + ".." +
                             std::to_string(offset + static_cast<std::uint64_t>(count)) +
                             " pass the end of its storage (" + std::to_string(elements) + ")");
    t.name = p.name;
    t.dtype = p.dtype;
    t.shape = p.shape;
    t.begin = storage.dataOffset + offset * element;
    t.end = t.begin + static_cast<std::uint64_t>(count) * element;
    return {};
}

}  // namespace

attn::Status readTorchCheckpoint(const unsigned char* bytes, std::uint64_t fileSize,
                                 const std::string& path, std::vector<TensorInfo>& tensors)
{
    std::vector<ZipEntry> entries;
    if (attn::Status s = readStoredZip(bytes, fileSize, path, entries); !s.ok()) return s;
    // torch.save names every entry under one folder: "archive/data.pkl", "archive/data/0", ...
    const ZipEntry* pickle = nullptr;
    std::unordered_map<std::string, const ZipEntry*> byName;
    for (const ZipEntry& e : entries) {
        byName[e.name] = &e;
        const auto slash = e.name.find('/');
        if (slash != std::string::npos &&
            e.name.compare(slash, std::string::npos, "/data.pkl") == 0)
            pickle = &e;
    }
    if (pickle == nullptr)
        return attn::failure(attn::StatusCode::TorchArchive, path, "data.pkl",
                             "missing: a zip, but not one torch.save wrote");
    const std::string folder = pickle->name.substr(0, pickle->name.size() - 8);
    if (const auto order = byName.find(folder + "byteorder"); order != byName.end()) {
        const std::string value(
            reinterpret_cast<const char*>(bytes + order->second->dataOffset),
            static_cast<std::size_t>(std::min<std::uint64_t>(order->second->size, 16)));
        if (value != "little")
            return attn::failure(attn::StatusCode::TorchArchive, path, "byteorder",
                                 "is '" + value + "'; only little-endian tensors are read");
    }
    if (pickle->size > kMaxPickleBytes)
        return attn::failure(attn::StatusCode::HeaderTooLarge, path, "data.pkl",
                             std::to_string(pickle->size) + " bytes; at most " +
                                 std::to_string(kMaxPickleBytes) + " are read");
    std::vector<PickledTensor> pickled;
    if (attn::Status s =
            readStateDictPickle(bytes + pickle->dataOffset, pickle->size, path, pickled);
        !s.ok())
        return s;
    tensors.clear();
    tensors.reserve(pickled.size());
    for (const PickledTensor& p : pickled) {
        const auto storage = byName.find(folder + "data/" + p.storageKey);
        if (storage == byName.end())
            return badTensor(path, p.name, "its storage data/" + p.storageKey + " is missing");
        TensorInfo t;
        if (attn::Status s = place(p, *storage->second, path, t); !s.ok()) return s;
        tensors.push_back(std::move(t));
    }
    return {};
}

}  // namespace attn::model::detail
