// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Reader of checkpoints: the safetensors format, and the zip that `torch.save` writes
// (pytorch_model.bin, read without running its pickle: torch_pickle.h). Safetensors
// (huggingface/safetensors):
//   bytes 0..7   N, the header length, unsigned little-endian
//   bytes 8..8+N a JSON object: name -> {"dtype", "shape", "data_offsets": [begin, end]},
//                plus an optional "__metadata__" entry (ignored); offsets count from 8 + N
//   the rest     the tensors' bytes, row-major, little-endian
// The file is memory-mapped. F32 tensors are views into the mapping (no copy; a tensor whose
// start is not 4-byte aligned — never the case in files the safetensors library writes, as it
// pads the header to 8 bytes — is copied once instead of being read through a misaligned
// float pointer). F16 and BF16 tensors are converted to float once, at open, unless the caller
// asks to keep them as they are (SafetensorsOptions::widenHalf = false: kernels::gemmWeights reads
// them straight from the mapping). Other dtypes the format defines are listed with their facts
// but have no float data. Every tensor's stored bytes are at TensorInfo::raw.
// Everything is validated at open; errors come back as a attn::Status naming the file and the
// tensor or field, never as an exception or a crash. The header is read as a stream (no JSON
// tree), so what a header costs is its tensors, however it is nested or padded; a header over
// kMaxSafetensorsHeader is refused before anything is read.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/status.h"

namespace attn::model {

struct TensorInfo {
    std::string name;
    std::string dtype;                // as written in the file: "F32", "F16", "BF16", "I64", ...
    std::vector<std::int64_t> shape;  // row-major
    std::uint64_t begin = 0;          // byte offsets within the data section (a torch
                                      // file: within the file)
    std::uint64_t end = 0;
    const float* data = nullptr;  // product(shape) floats; null for non-float dtypes, and for
                                  // F16 / BF16 opened with widenHalf = false
    // The tensor's bytes as stored (little-endian), for every dtype: in the mapping, or, for a
    // tensor whose start in the file is not a multiple of its element size and that is read in
    // place (F32, and F16 / BF16 with widenHalf = false), in the aligned copy made of it. So raw
    // is aligned to the element size wherever data is null for a half-precision tensor.
    const void* raw = nullptr;
    bool copied = false;  // data (or raw, if data is null) lives in a converted or realigned buffer

    [[nodiscard]] std::int64_t elementCount() const;
};

struct SafetensorsOptions {
    // Convert F16 and BF16 tensors to float at open (TensorInfo::data); false keeps them in the
    // mapping (TensorInfo::raw only) for kernels that widen them as they read them.
    bool widenHalf = true;
};

class SafetensorsFile {
public:
    SafetensorsFile();
    ~SafetensorsFile();
    SafetensorsFile(SafetensorsFile&&) noexcept;
    SafetensorsFile& operator=(SafetensorsFile&&) noexcept;
    SafetensorsFile(const SafetensorsFile&) = delete;
    SafetensorsFile& operator=(const SafetensorsFile&) = delete;

    // Opens and validates `path`. On failure `out` is left empty.
    static attn::Status open(const std::string& path, SafetensorsFile& out,
                             const SafetensorsOptions& options = {});
    // Validates a safetensors file already in memory (`name` stands for it in messages), with
    // the same rules as open(). Tensors point into `bytes`, which must outlive `out`.
    static attn::Status fromMemory(const void* bytes, std::size_t size, const std::string& name,
                                   SafetensorsFile& out, const SafetensorsOptions& options = {});

    [[nodiscard]] const std::string& path() const { return path_; }
    [[nodiscard]] const std::vector<TensorInfo>& tensors() const { return tensors_; }
    // The tensor called `name`, or nullptr.
    [[nodiscard]] const TensorInfo* find(const std::string& name) const;
    // Bytes held outside the mapping (converted F16/BF16, realigned F32, F16 and BF16).
    [[nodiscard]] std::size_t copiedBytes() const { return copiedBytes_; }

private:
    struct Mapping;
    static attn::Status parse(const void* bytes, std::uint64_t size, const std::string& name,
                              const SafetensorsOptions& options, SafetensorsFile& file);
    std::string path_;
    std::unique_ptr<Mapping> mapping_;
    std::vector<std::unique_ptr<float[]>> owned_;
    std::vector<std::unique_ptr<std::uint16_t[]>> ownedHalf_;  // realigned F16 / BF16
    std::vector<TensorInfo> tensors_;
    std::unordered_map<std::string, std::size_t> index_;
    std::size_t copiedBytes_ = 0;
};

// Size in bytes of one element of a safetensors dtype, or 0 if the name is unknown.
std::size_t dtypeSize(const std::string& dtype);
// IEEE half and bfloat16 bit patterns to float (exact).
float halfToFloat(std::uint16_t bits);
float bfloat16ToFloat(std::uint16_t bits);

// Largest header this reader accepts. The safetensors library allows 100 MB; GPT-2 XL's header
// is about 60 kB and those of the largest common checkpoints well under 1 MB. What a hostile
// header costs to read is its tensors, at most one per ~56 header bytes: 8 MiB of them
// (150,000 empty tensors) take 41 MB of resident memory, 16 MiB (283,000) more than the 100 MB
// that MemoryLimit.SafetensorsHeaderOfTinyTensorsUpToTheLimitIsReadWithin100MB allows.
inline constexpr std::uint64_t kMaxSafetensorsHeader = std::uint64_t{8} << 20;

}  // namespace attn::model
