// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/model/safetensors.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <exception>
#include <fcntl.h>
#include <new>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <utility>

#include "core/io/bounded_file.h"
#include "core/model/safetensors_header.h"
#include "core/model/torch_checkpoint.h"
#include "core/model/torch_zip.h"

namespace attn::model {

struct SafetensorsFile::Mapping {
    void* address = nullptr;
    std::size_t size = 0;
    Mapping(void* a, std::size_t s) : address(a), size(s) {}
    ~Mapping()
    {
        if (address != nullptr) munmap(address, size);
    }
    Mapping(const Mapping&) = delete;
    Mapping& operator=(const Mapping&) = delete;
};

std::int64_t TensorInfo::elementCount() const
{
    std::int64_t count = 1;
    for (std::int64_t d : shape) count *= d;
    return count;
}

SafetensorsFile::SafetensorsFile() = default;
SafetensorsFile::~SafetensorsFile() = default;
SafetensorsFile::SafetensorsFile(SafetensorsFile&&) noexcept = default;
SafetensorsFile& SafetensorsFile::operator=(SafetensorsFile&&) noexcept = default;

const TensorInfo* SafetensorsFile::find(const std::string& name) const
{
    const auto it = index_.find(name);
    return it == index_.end() ? nullptr : &tensors_[it->second];
}

std::size_t dtypeSize(const std::string& dtype)
{
    static const std::pair<const char*, std::size_t> kSizes[] = {
        {"F64", 8}, {"F32", 4}, {"F16", 2},  {"BF16", 2},    {"I64", 8},
        {"I32", 4}, {"I16", 2}, {"I8", 1},   {"U64", 8},     {"U32", 4},
        {"U16", 2}, {"U8", 1},  {"BOOL", 1}, {"F8_E4M3", 1}, {"F8_E5M2", 1}};
    for (const auto& [name, size] : kSizes) {
        if (dtype == name) return size;
    }
    return 0;
}

namespace {

// Mapped, not read, so only the address space bounds it: 1 TiB is far above any checkpoint
// this program can run.
constexpr std::uint64_t kMaxCheckpointBytes = std::uint64_t{1} << 40;

// No two tensors may share a byte (empty tensors own none).
attn::Status checkNoOverlap(const std::vector<TensorInfo>& tensors, const std::string& path)
{
    std::vector<const TensorInfo*> byStart;
    for (const TensorInfo& t : tensors) {
        if (t.end > t.begin) byStart.push_back(&t);
    }
    std::sort(byStart.begin(), byStart.end(),
              [](const TensorInfo* a, const TensorInfo* b) { return a->begin < b->begin; });
    for (std::size_t i = 1; i < byStart.size(); ++i) {
        if (byStart[i]->begin < byStart[i - 1]->end)
            return attn::failure(
                attn::StatusCode::Overlap, path, "tensor '" + byStart[i]->name + "'",
                "bytes " + std::to_string(byStart[i]->begin) + ".." +
                    std::to_string(byStart[i]->end) + " overlap tensor '" + byStart[i - 1]->name +
                    "' (" + std::to_string(byStart[i - 1]->begin) + ".." +
                    std::to_string(byStart[i - 1]->end) + ")");
    }
    return {};
}

// The buffers of a file's tensors that could not be read in place, and their size in bytes.
struct Copies {
    std::vector<std::unique_ptr<float[]>>& floats;
    std::vector<std::unique_ptr<std::uint16_t[]>>& halves;  // realigned F16 / BF16
    std::size_t& bytes;
};

// Points `t` at its bytes `src` in the file: F32 in place where aligned, else copied; F16 and
// BF16 kept as they are (realigned when needed) or widened to float when `widenHalf`.
void placeTensor(TensorInfo& t, const unsigned char* src, bool widenHalf, const Copies& copies)
{
    t.raw = src;
    const auto count = static_cast<std::size_t>(t.elementCount());
    const bool halfPrecision = t.dtype == "F16" || t.dtype == "BF16";
    if (t.dtype == "F32") {
        if (reinterpret_cast<std::uintptr_t>(src) % alignof(float) == 0) {
            t.data = reinterpret_cast<const float*>(src);
            return;
        }
        auto buffer = std::make_unique<float[]>(count);
        std::memcpy(buffer.get(), src, count * sizeof(float));
        t.data = buffer.get();
        t.raw = buffer.get();
        copies.floats.push_back(std::move(buffer));
    } else if (halfPrecision && !widenHalf) {
        if (reinterpret_cast<std::uintptr_t>(src) % alignof(std::uint16_t) == 0) return;
        auto buffer = std::make_unique<std::uint16_t[]>(count);
        std::memcpy(buffer.get(), src, count * sizeof(std::uint16_t));
        t.raw = buffer.get();
        copies.halves.push_back(std::move(buffer));
        t.copied = true;
        copies.bytes += count * sizeof(std::uint16_t);
        return;
    } else if (halfPrecision) {
        auto buffer = std::make_unique<float[]>(count);
        const bool half = t.dtype == "F16";
        for (std::size_t k = 0; k < count; ++k) {
            const auto bits = static_cast<std::uint16_t>(src[2 * k] | (src[2 * k + 1] << 8));
            buffer[k] = half ? halfToFloat(bits) : bfloat16ToFloat(bits);
        }
        t.data = buffer.get();
        copies.floats.push_back(std::move(buffer));
    } else {
        return;
    }
    t.copied = true;
    copies.bytes += count * sizeof(float);
}

}  // namespace

attn::Status SafetensorsFile::open(const std::string& path, SafetensorsFile& out,
                                   const SafetensorsOptions& options)
{
    out = SafetensorsFile();
    // Checked on the opened descriptor before it is mapped: a FIFO or a device is refused
    // without blocking or reading.
    io::RegularFile regular;
    if (const io::ReadStatus r = io::openRegularFile(path, kMaxCheckpointBytes, regular); !r.ok())
        return attn::failure(
            attn::StatusCode::FileOpen, path, "",
            r.error == io::ReadError::NotRegular || r.error == io::ReadError::TooLarge
                ? "cannot open: it " + io::describe(r)
                : "cannot open: " + io::describe(r));
    const int fd = regular.fd();
    const std::uint64_t fileSize = regular.size();
    if (fileSize < 8)
        return attn::failure(
            attn::StatusCode::FileTruncated, path, "header length",
            "file has " + std::to_string(fileSize) + " bytes, fewer than the 8-byte header length");
    void* address =
        mmap(nullptr, static_cast<std::size_t>(fileSize), PROT_READ, MAP_PRIVATE, fd, 0);
    if (address == MAP_FAILED)
        return attn::failure(attn::StatusCode::FileOpen, path, "",
                             std::string("cannot map: ") + std::strerror(errno));
    auto mapping = std::make_unique<Mapping>(address, fileSize);
    SafetensorsFile file;
    if (attn::Status s = parse(address, fileSize, path, options, file); !s.ok()) return s;
    file.mapping_ = std::move(mapping);
    out = std::move(file);
    return {};
}

attn::Status SafetensorsFile::fromMemory(const void* bytes, std::size_t size,
                                         const std::string& name, SafetensorsFile& out,
                                         const SafetensorsOptions& options)
{
    out = SafetensorsFile();
    SafetensorsFile file;
    if (attn::Status s = parse(bytes, size, name, options, file); !s.ok()) return s;
    out = std::move(file);
    return {};
}

attn::Status SafetensorsFile::parse(const void* address, std::uint64_t fileSize,
                                    const std::string& path, const SafetensorsOptions& options,
                                    SafetensorsFile& file)
{
    try {
        file.path_ = path;
        const auto* bytes = static_cast<const unsigned char*>(address);
        std::uint64_t headerLength = 0;
        // torch.save before PyTorch 1.6 began with a pickled magic number: 80 02 8a 0a.
        if (fileSize >= 4 && bytes[0] == 0x80 && bytes[2] == 0x8a && bytes[3] == 0x0a)
            return attn::failure(attn::StatusCode::TorchArchive, path, "",
                                 "is in the format torch.save wrote before PyTorch 1.6 (a bare "
                                 "pickle), which is not read: save it again with a later "
                                 "PyTorch, or convert it to safetensors");
        // A torch.save zip (pytorch_model.bin) places its tensors from the file's start.
        const bool torch = detail::looksLikeZip(bytes, fileSize);
        if (attn::Status s =
                torch ? detail::readTorchCheckpoint(bytes, fileSize, path, file.tensors_)
                      : detail::readSafetensorsHeader(bytes, fileSize, path, file.tensors_,
                                                      file.index_, headerLength);
            !s.ok())
            return s;
        // Listed by name, whatever the header's order, so that tensors() is the same for every
        // writer of the same tensors.
        std::sort(file.tensors_.begin(), file.tensors_.end(),
                  [](const TensorInfo& a, const TensorInfo& b) { return a.name < b.name; });
        file.index_.clear();
        // Tied weights share one storage in a torch file, never in a safetensors one.
        if (!torch)
            if (attn::Status s = checkNoOverlap(file.tensors_, path); !s.ok()) return s;
        const unsigned char* data = torch ? bytes : bytes + 8 + headerLength;
        const Copies copies{file.owned_, file.ownedHalf_, file.copiedBytes_};
        for (std::size_t i = 0; i < file.tensors_.size(); ++i) {
            TensorInfo& t = file.tensors_[i];
            file.index_.emplace(t.name, i);
            placeTensor(t, data + t.begin, options.widenHalf, copies);
        }
        return {};
    } catch (const std::bad_alloc&) {
        return attn::failure(attn::StatusCode::FileOpen, path, "", "out of memory while reading");
    } catch (const std::exception& e) {
        return attn::failure(attn::StatusCode::HeaderSyntax, path, "header", e.what());
    }
}

}  // namespace attn::model
