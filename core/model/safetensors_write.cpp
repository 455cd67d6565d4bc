// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/model/safetensors_write.h"

#include <bit>
#include <cstring>
#include <nlohmann/json.hpp>
#include <unordered_set>

#include "core/io/atomic_file.h"

namespace attn::model {

static_assert(std::endian::native == std::endian::little,
              "safetensors data is little-endian; this writer copies floats as they are");

attn::Status safetensorsBytes(const std::vector<TensorToWrite>& tensors,
                              const SafetensorsMetadata& metadata, std::string& out)
{
    // nlohmann's ordered_json keeps the tensors in the order given, which makes the file's
    // bytes depend only on the tensors.
    nlohmann::ordered_json header = nlohmann::ordered_json::object();
    if (!metadata.empty()) header["__metadata__"] = metadata;
    std::unordered_set<std::string> names;
    std::uint64_t offset = 0;
    for (const TensorToWrite& t : tensors) {
        if (t.name.empty() || t.name == "__metadata__" || !names.insert(t.name).second)
            return attn::failure(attn::StatusCode::HeaderField, "", t.name,
                                 "a tensor name must be non-empty and unique");
        std::uint64_t count = 1;
        for (std::int64_t d : t.shape) {
            if (d < 0)
                return attn::failure(attn::StatusCode::TensorShape, "", t.name,
                                     "a dimension is negative");
            count *= static_cast<std::uint64_t>(d);
        }
        if (count != t.values.size())
            return attn::failure(attn::StatusCode::TensorShape, "", t.name,
                                 "its shape holds " + std::to_string(count) + " values, given " +
                                     std::to_string(t.values.size()));
        header[t.name] = {
            {"dtype", "F32"}, {"shape", t.shape}, {"data_offsets", {offset, offset + 4 * count}}};
        offset += 4 * count;
    }
    std::string text = header.dump();
    text.append((8 - text.size() % 8) % 8, ' ');
    out.assign(8, '\0');
    const std::uint64_t n = text.size();
    for (int i = 0; i < 8; ++i)
        out[static_cast<std::size_t>(i)] = static_cast<char>((n >> (8 * i)) & 0xff);
    out += text;
    const std::size_t dataStart = out.size();
    out.resize(dataStart + offset);
    std::size_t at = dataStart;
    for (const TensorToWrite& t : tensors) {
        // An empty tensor's values may have no storage at all (data() is null), and memcpy
        // from null is undefined even for 0 bytes.
        if (!t.values.empty())
            std::memcpy(out.data() + at, t.values.data(), t.values.size() * sizeof(float));
        at += t.values.size() * sizeof(float);
    }
    return {};
}

attn::Status writeSafetensors(const std::string& path, const std::vector<TensorToWrite>& tensors,
                              const SafetensorsMetadata& metadata)
{
    std::string bytes;
    if (attn::Status s = safetensorsBytes(tensors, metadata, bytes); !s.ok()) {
        s.file = path;
        return s;
    }
    const io::WriteStatus w = io::writeFileAtomically(path, bytes.data(), bytes.size());
    if (!w.ok()) return attn::failure(attn::StatusCode::FileOpen, path, "", io::describe(w));
    return {};
}

}  // namespace attn::model
