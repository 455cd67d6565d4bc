// SPDX-License-Identifier: GPL-3.0-or-later
// libFuzzer target: the safetensors reader (SafetensorsFile::fromMemory, which open() uses on
// the mapped file). Every float tensor it accepts is read to its last element.
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
    (void)sink;
    return 0;
}
