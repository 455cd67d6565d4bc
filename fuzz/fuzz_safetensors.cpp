// SPDX-License-Identifier: GPL-3.0-or-later
// libFuzzer target: the checkpoint reader (SafetensorsFile::fromMemory, which open() uses on
// the mapped file): safetensors, and torch.save zips with their pickle. Every float tensor it
// accepts is read to its last element; opened again without widening F16 and BF16 (widenHalf =
// false), every tensor's raw bytes are read to the last.
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>

#include "core/model/safetensors.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    // A copy at an 8-byte-aligned address, as a mapping is (the fuzzer's buffer is not).
    std::unique_ptr<std::uint64_t[]> copy(new std::uint64_t[size / 8 + 1]);
    std::memcpy(copy.get(), data, size);
    attn::model::SafetensorsFile file;
    const attn::Status s =
        attn::model::SafetensorsFile::fromMemory(copy.get(), size, "fuzz.safetensors", file);
    if (!s.ok()) {
        if (!file.tensors().empty()) std::abort();
        return 0;
    }
    volatile float sink = 0;
    for (const attn::model::TensorInfo& t : file.tensors()) {
        if (file.find(t.name) != &t) std::abort();
        if (t.data == nullptr) continue;
        const std::int64_t n = t.elementCount();
        for (std::int64_t k = 0; k < n; ++k) sink = sink + t.data[k];
    }
    attn::model::SafetensorsFile mapped;
    if (!attn::model::SafetensorsFile::fromMemory(copy.get(), size, "fuzz.safetensors", mapped,
                                                  {.widenHalf = false})
             .ok())
        std::abort();
    volatile unsigned char byteSink = 0;
    for (const attn::model::TensorInfo& t : mapped.tensors()) {
        const bool half = t.dtype == "F16" || t.dtype == "BF16";
        if (t.raw == nullptr || (half && t.data != nullptr)) std::abort();
        if (half && reinterpret_cast<std::uintptr_t>(t.raw) % 2 != 0) std::abort();
        const auto* bytes = static_cast<const unsigned char*>(t.raw);
        for (std::uint64_t k = 0; k < t.end - t.begin; ++k) byteSink = byteSink + bytes[k];
    }
    (void)sink;
    (void)byteSink;
    return 0;
}
