#include "core/model/safetensors.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <exception>
#include <fcntl.h>
#include <new>
#include <nlohmann/json.hpp>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <utility>

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

float halfToFloat(std::uint16_t h)
{
    const std::uint32_t sign = (h & 0x8000u) << 16;
    std::uint32_t exponent = (h >> 10) & 0x1fu;
    std::uint32_t mantissa = h & 0x3ffu;
    std::uint32_t bits = 0;
    if (exponent == 0x1f) {  // Inf / NaN
        bits = sign | 0x7f800000u | (mantissa << 13);
    } else if (exponent != 0) {  // normal
        bits = sign | ((exponent + 112) << 23) | (mantissa << 13);
    } else if (mantissa != 0) {  // subnormal: normalise
        exponent = 113;
        while ((mantissa & 0x400u) == 0) {
            mantissa <<= 1;
            --exponent;
        }
        bits = sign | (exponent << 23) | ((mantissa & 0x3ffu) << 13);
    } else {
        bits = sign;
    }
    float f = 0;
    std::memcpy(&f, &bits, sizeof f);
    return f;
}

float bfloat16ToFloat(std::uint16_t b)
{
    const std::uint32_t bits = std::uint32_t{b} << 16;
    float f = 0;
    std::memcpy(&f, &bits, sizeof f);
    return f;
}

namespace {

using nlohmann::json;

bool readCount(const json& v, std::uint64_t& out)
{
    if (!v.is_number_unsigned() && !(v.is_number_integer() && v.get<std::int64_t>() >= 0))
        return false;
    out = v.get<std::uint64_t>();
    return true;
}

// Parses and checks one header entry (everything but overlaps).
ModelStatus parseEntry(const std::string& file, const std::string& name, const json& entry,
                       std::uint64_t dataSize, TensorInfo& t)
{
    auto fail = [&](ModelError code, const std::string& detail) {
        return modelError(code, file, "tensor '" + name + "'", detail);
    };
    if (!entry.is_object()) return fail(ModelError::HeaderField, "entry is not a JSON object");
    const auto dtype = entry.find("dtype");
    if (dtype == entry.end() || !dtype->is_string())
        return fail(ModelError::HeaderField, "missing or non-string \"dtype\"");
    t.name = name;
    t.dtype = dtype->get<std::string>();
    const std::size_t elementSize = dtypeSize(t.dtype);
    if (elementSize == 0)
        return fail(ModelError::UnknownDtype, "unknown dtype \"" + t.dtype +
                                                  "\" (known: F64, F32, F16, BF16, I64, I32, "
                                                  "I16, I8, U64, U32, U16, U8, BOOL, F8_E4M3, "
                                                  "F8_E5M2; read as float: F32, F16, BF16)");
    const auto shape = entry.find("shape");
    if (shape == entry.end() || !shape->is_array())
        return fail(ModelError::HeaderField, "missing or non-array \"shape\"");
    std::uint64_t bytes = elementSize;
    for (const json& d : *shape) {
        std::uint64_t dim = 0;
        if (!readCount(d, dim) || dim > static_cast<std::uint64_t>(INT64_MAX))
            return fail(ModelError::HeaderField, "\"shape\" holds a value that is not a size");
        if (__builtin_mul_overflow(bytes, dim, &bytes))
            return fail(ModelError::BadOffsets, "shape's byte size overflows 64 bits");
        t.shape.push_back(static_cast<std::int64_t>(dim));
    }
    const auto offsets = entry.find("data_offsets");
    if (offsets == entry.end() || !offsets->is_array() || offsets->size() != 2 ||
        !readCount((*offsets)[0], t.begin) || !readCount((*offsets)[1], t.end))
        return fail(ModelError::HeaderField, "\"data_offsets\" is not two byte offsets");
    if (t.begin > t.end)
        return fail(ModelError::BadOffsets, "data_offsets begin " + std::to_string(t.begin) +
                                                " > end " + std::to_string(t.end));
    if (t.end > dataSize)
        return fail(ModelError::BadOffsets, "data_offsets end " + std::to_string(t.end) +
                                                " is past the data section (" +
                                                std::to_string(dataSize) + " bytes)");
    if (t.end - t.begin != bytes)
        return fail(ModelError::BadOffsets, "data_offsets span " + std::to_string(t.end - t.begin) +
                                                " bytes but shape x dtype needs " +
                                                std::to_string(bytes));
    return {};
}

struct FdCloser {
    int fd;
    ~FdCloser()
    {
        if (fd >= 0) close(fd);
    }
};

}  // namespace

ModelStatus SafetensorsFile::open(const std::string& path, SafetensorsFile& out)
{
    out = SafetensorsFile();
    try {
        const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
        if (fd < 0)
            return modelError(ModelError::FileOpen, path, "",
                              std::string("cannot open: ") + std::strerror(errno));
        const FdCloser closer{fd};
        struct stat st {};
        if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))
            return modelError(ModelError::FileOpen, path, "", "not a regular file");
        const auto fileSize = static_cast<std::uint64_t>(st.st_size);
        if (fileSize < 8)
            return modelError(ModelError::FileTruncated, path, "header length",
                              "file has " + std::to_string(fileSize) +
                                  " bytes, fewer than the 8-byte header length");
        void* address = mmap(nullptr, fileSize, PROT_READ, MAP_PRIVATE, fd, 0);
        if (address == MAP_FAILED)
            return modelError(ModelError::FileOpen, path, "",
                              std::string("cannot map: ") + std::strerror(errno));
        SafetensorsFile file;
        file.path_ = path;
        file.mapping_ = std::make_unique<Mapping>(address, fileSize);
        const auto* bytes = static_cast<const unsigned char*>(address);

        std::uint64_t headerLength = 0;
        for (int i = 7; i >= 0; --i) headerLength = (headerLength << 8) | bytes[i];
        if (headerLength > kMaxSafetensorsHeader)
            return modelError(ModelError::HeaderTooLarge, path, "header length",
                              std::to_string(headerLength) + " bytes exceeds the 100 MB limit");
        if (headerLength > fileSize - 8)
            return modelError(ModelError::FileTruncated, path, "header length",
                              "header of " + std::to_string(headerLength) +
                                  " bytes does not fit in the " + std::to_string(fileSize) +
                                  "-byte file");
        const auto* headerBegin = reinterpret_cast<const char*>(bytes + 8);
        const json header = json::parse(headerBegin, headerBegin + headerLength, nullptr, false);
        if (header.is_discarded())
            return modelError(ModelError::HeaderSyntax, path, "header", "not valid JSON");
        if (!header.is_object())
            return modelError(ModelError::HeaderSyntax, path, "header", "not a JSON object");

        const std::uint64_t dataSize = fileSize - 8 - headerLength;
        const unsigned char* data = bytes + 8 + headerLength;
        for (const auto& [name, entry] : header.items()) {
            if (name == "__metadata__") continue;
            TensorInfo t;
            if (ModelStatus s = parseEntry(path, name, entry, dataSize, t); !s.ok()) return s;
            file.tensors_.push_back(std::move(t));
        }

        // No two tensors may share a byte (empty tensors own none).
        std::vector<const TensorInfo*> byStart;
        for (const TensorInfo& t : file.tensors_) {
            if (t.end > t.begin) byStart.push_back(&t);
        }
        std::sort(byStart.begin(), byStart.end(),
                  [](const TensorInfo* a, const TensorInfo* b) { return a->begin < b->begin; });
        for (std::size_t i = 1; i < byStart.size(); ++i) {
            if (byStart[i]->begin < byStart[i - 1]->end)
                return modelError(ModelError::Overlap, path, "tensor '" + byStart[i]->name + "'",
                                  "bytes " + std::to_string(byStart[i]->begin) + ".." +
                                      std::to_string(byStart[i]->end) + " overlap tensor '" +
                                      byStart[i - 1]->name + "' (" +
                                      std::to_string(byStart[i - 1]->begin) + ".." +
                                      std::to_string(byStart[i - 1]->end) + ")");
        }

        for (std::size_t i = 0; i < file.tensors_.size(); ++i) {
            TensorInfo& t = file.tensors_[i];
            file.index_.emplace(t.name, i);
            const unsigned char* src = data + t.begin;
            const auto count = static_cast<std::size_t>(t.elementCount());
            if (t.dtype == "F32") {
                if (reinterpret_cast<std::uintptr_t>(src) % alignof(float) == 0) {
                    t.data = reinterpret_cast<const float*>(src);
                    continue;
                }
                auto buffer = std::make_unique<float[]>(count);
                std::memcpy(buffer.get(), src, count * sizeof(float));
                t.data = buffer.get();
                file.owned_.push_back(std::move(buffer));
            } else if (t.dtype == "F16" || t.dtype == "BF16") {
                auto buffer = std::make_unique<float[]>(count);
                const bool half = t.dtype == "F16";
                for (std::size_t k = 0; k < count; ++k) {
                    const auto bits =
                        static_cast<std::uint16_t>(src[2 * k] | (src[2 * k + 1] << 8));
                    buffer[k] = half ? halfToFloat(bits) : bfloat16ToFloat(bits);
                }
                t.data = buffer.get();
                file.owned_.push_back(std::move(buffer));
            } else {
                continue;
            }
            t.copied = true;
            file.copiedBytes_ += count * sizeof(float);
        }
        out = std::move(file);
        return {};
    } catch (const std::bad_alloc&) {
        return modelError(ModelError::FileOpen, path, "", "out of memory while reading");
    } catch (const std::exception& e) {
        return modelError(ModelError::HeaderSyntax, path, "header", e.what());
    }
}

}  // namespace attn::model
