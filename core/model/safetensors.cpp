// SPDX-License-Identifier: GPL-3.0-or-later
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

#include "core/io/bounded_file.h"

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

using nlohmann::json;

// What one header entry said, gathered while the header streams past.
struct Entry {
    bool haveDtype = false, dtypeIsString = false;
    bool haveShape = false, shapeIsArray = false, shapeValid = true;
    bool haveOffsets = false, offsetsValid = false;
    std::string dtype;
    std::vector<std::int64_t> shape;
    std::uint64_t offsets[2] = {0, 0};
    int offsetCount = 0;
};

// Most dimensions a tensor may have (PyTorch allows 64; real checkpoints use 1 to 4).
constexpr std::size_t kMaxRank = 64;
// Mapped, not read, so only the address space bounds it: 1 TiB is far above any checkpoint
// this program can run.
constexpr std::uint64_t kMaxCheckpointBytes = std::uint64_t{1} << 40;

// Checks one entry (everything but overlaps) in the order the fields matter.
attn::Status checkEntry(const std::string& file, const std::string& name, const Entry& e,
                        std::uint64_t dataSize, TensorInfo& t)
{
    auto fail = [&](attn::StatusCode code, const std::string& detail) {
        return attn::failure(code, file, "tensor '" + name + "'", detail);
    };
    if (!e.haveDtype || !e.dtypeIsString)
        return fail(attn::StatusCode::HeaderField, "missing or non-string \"dtype\"");
    t.name = name;
    t.dtype = e.dtype;
    const std::size_t elementSize = dtypeSize(t.dtype);
    if (elementSize == 0)
        return fail(attn::StatusCode::UnknownDtype,
                    "unknown dtype \"" + t.dtype +
                        "\" (known: F64, F32, F16, BF16, I64, I32, "
                        "I16, I8, U64, U32, U16, U8, BOOL, F8_E4M3, "
                        "F8_E5M2; read as float: F32, F16, BF16)");
    if (!e.haveShape || !e.shapeIsArray)
        return fail(attn::StatusCode::HeaderField, "missing or non-array \"shape\"");
    if (!e.shapeValid)
        return fail(attn::StatusCode::HeaderField,
                    "\"shape\" holds a value that is not a size (or more than " +
                        std::to_string(kMaxRank) + " of them)");
    std::uint64_t bytes = elementSize;
    for (const std::int64_t dim : e.shape) {
        if (__builtin_mul_overflow(bytes, static_cast<std::uint64_t>(dim), &bytes))
            return fail(attn::StatusCode::BadOffsets, "shape's byte size overflows 64 bits");
    }
    t.shape = e.shape;
    if (!e.haveOffsets || !e.offsetsValid || e.offsetCount != 2)
        return fail(attn::StatusCode::HeaderField, "\"data_offsets\" is not two byte offsets");
    t.begin = e.offsets[0];
    t.end = e.offsets[1];
    if (t.begin > t.end)
        return fail(attn::StatusCode::BadOffsets, "data_offsets begin " + std::to_string(t.begin) +
                                                      " > end " + std::to_string(t.end));
    if (t.end > dataSize)
        return fail(attn::StatusCode::BadOffsets, "data_offsets end " + std::to_string(t.end) +
                                                      " is past the data section (" +
                                                      std::to_string(dataSize) + " bytes)");
    if (t.end - t.begin != bytes)
        return fail(attn::StatusCode::BadOffsets,
                    "data_offsets span " + std::to_string(t.end - t.begin) +
                        " bytes but shape x dtype needs " + std::to_string(bytes));
    return {};
}

// A SAX handler for nlohmann::json::sax_parse that builds the tensor list as the header
// streams past, never a JSON tree: what reading a header costs is its tensors (a few hundred
// bytes each) however the header is nested or padded. The top level is an object of entries
// {"dtype", "shape", "data_offsets"}; "__metadata__" and fields an entry does not need are
// skipped, whatever they hold. A name given twice is refused (a tree would keep only one).
class HeaderReader {
public:
    HeaderReader(const std::string& file, std::uint64_t dataSize, std::vector<TensorInfo>& tensors,
                 std::unordered_map<std::string, std::size_t>& index)
        : file_(file), dataSize_(dataSize), tensors_(tensors), index_(index)
    {
    }

    [[nodiscard]] const attn::Status& status() const { return status_; }
    [[nodiscard]] bool sawObject() const { return sawObject_; }

    bool null() { return scalar(Kind::Other); }
    bool boolean(bool) { return scalar(Kind::Other); }
    bool number_integer(json::number_integer_t v)
    {
        return scalar(v >= 0 ? Kind::Count : Kind::Other, static_cast<std::uint64_t>(v));
    }
    bool number_unsigned(json::number_unsigned_t v) { return scalar(Kind::Count, v); }
    bool number_float(json::number_float_t, const json::string_t&) { return scalar(Kind::Other); }
    bool string(json::string_t& v)
    {
        if (skip_ == 0 && level_ == 2 && field_ == Field::Dtype) {
            entry_.dtypeIsString = true;
            entry_.dtype = std::move(v);
        }
        return scalar(Kind::Other);
    }
    bool binary(json::binary_t&) { return scalar(Kind::Other); }

    bool start_object(std::size_t) { return open(true); }
    bool start_array(std::size_t) { return open(false); }
    bool end_object() { return close(); }
    bool end_array() { return close(); }

    bool key(json::string_t& k)
    {
        if (skip_ > 0) return true;
        if (level_ == 1) {
            name_ = std::move(k);
            if (name_ != "__metadata__" && index_.count(name_) != 0)
                return refuse(attn::StatusCode::HeaderField, "tensor '" + name_ + "'",
                              "appears twice in the header");
            return true;
        }
        // level_ == 2: a field of an entry.
        field_ = k == "dtype"          ? Field::Dtype
                 : k == "shape"        ? Field::Shape
                 : k == "data_offsets" ? Field::Offsets
                                       : Field::Other;
        bool* seen = field_ == Field::Dtype     ? &entry_.haveDtype
                     : field_ == Field::Shape   ? &entry_.haveShape
                     : field_ == Field::Offsets ? &entry_.haveOffsets
                                                : nullptr;
        if (seen != nullptr) {
            if (*seen)
                return refuse(attn::StatusCode::HeaderField, "tensor '" + name_ + "'",
                              "field \"" + k + "\" appears twice");
            *seen = true;
        }
        return true;
    }

    bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&)
    {
        if (status_.ok())
            status_ =
                attn::failure(attn::StatusCode::HeaderSyntax, file_, "header", "not valid JSON");
        return false;
    }

private:
    enum class Kind { Count, Other };
    enum class Field { Dtype, Shape, Offsets, Other };

    bool refuse(attn::StatusCode code, const std::string& field, const std::string& detail)
    {
        status_ = attn::failure(code, file_, field, detail);
        return false;
    }

    // A number, string, bool or null at the current place.
    bool scalar(Kind kind, std::uint64_t value = 0)
    {
        if (skip_ > 0) return true;
        switch (level_) {
        case 0: return refuse(attn::StatusCode::HeaderSyntax, "header", "not a JSON object");
        case 1:
            if (name_ == "__metadata__") return true;
            return refuse(attn::StatusCode::HeaderField, "tensor '" + name_ + "'",
                          "entry is not a JSON object");
        case 2:
            if (field_ == Field::Shape) entry_.shapeIsArray = false;
            if (field_ == Field::Offsets) entry_.offsetsValid = false;
            return true;  // a dtype was taken by string(); other fields are ignored
        default:          // 3: inside "shape" or "data_offsets"
            if (field_ == Field::Shape) {
                if (kind != Kind::Count || value > static_cast<std::uint64_t>(INT64_MAX) ||
                    entry_.shape.size() >= kMaxRank)
                    entry_.shapeValid = false;
                else
                    entry_.shape.push_back(static_cast<std::int64_t>(value));
            } else if (field_ == Field::Offsets) {
                if (kind != Kind::Count || entry_.offsetCount >= 2)
                    entry_.offsetsValid = false;
                else
                    entry_.offsets[entry_.offsetCount] = value;
                ++entry_.offsetCount;
            }
            return true;
        }
    }

    bool open(bool object)
    {
        if (skip_ > 0) {
            ++skip_;
            return true;
        }
        switch (level_) {
        case 0:
            if (!object)
                return refuse(attn::StatusCode::HeaderSyntax, "header", "not a JSON object");
            sawObject_ = true;
            level_ = 1;
            return true;
        case 1:
            if (name_ == "__metadata__") {
                skip_ = 1;
                return true;
            }
            if (!object)
                return refuse(attn::StatusCode::HeaderField, "tensor '" + name_ + "'",
                              "entry is not a JSON object");
            entry_ = Entry();
            level_ = 2;
            return true;
        case 2:
            if (field_ == Field::Shape && !object) {
                entry_.shapeIsArray = true;
                level_ = 3;
                return true;
            }
            if (field_ == Field::Offsets && !object) {
                entry_.offsetsValid = true;
                level_ = 3;
                return true;
            }
            if (field_ == Field::Shape) entry_.shapeIsArray = false;
            if (field_ == Field::Offsets) entry_.offsetsValid = false;
            skip_ = 1;
            return true;
        default:  // a list or object inside "shape" or "data_offsets"
            if (field_ == Field::Shape) entry_.shapeValid = false;
            if (field_ == Field::Offsets) entry_.offsetsValid = false;
            skip_ = 1;
            return true;
        }
    }

    bool close()
    {
        if (skip_ > 0) {
            --skip_;
            return true;
        }
        switch (level_) {
        case 3: level_ = 2; return true;
        case 2: {
            level_ = 1;
            TensorInfo t;
            if (attn::Status s = checkEntry(file_, name_, entry_, dataSize_, t); !s.ok()) {
                status_ = std::move(s);
                return false;
            }
            index_.emplace(name_, tensors_.size());
            tensors_.push_back(std::move(t));
            return true;
        }
        default: level_ = 0; return true;
        }
    }

    const std::string& file_;
    std::uint64_t dataSize_;
    std::vector<TensorInfo>& tensors_;
    std::unordered_map<std::string, std::size_t>& index_;
    attn::Status status_;
    bool sawObject_ = false;
    int level_ = 0;         // 0 outside, 1 in the header object, 2 in an entry, 3 in its list
    std::size_t skip_ = 0;  // depth inside a value being skipped
    std::string name_;
    Field field_ = Field::Other;
    Entry entry_;
};

// parse()'s first step: the 8-byte length, then the JSON header's tensor entries (into
// `tensors` and `index`, in the header's order), checked against the bytes that follow it.
attn::Status readHeader(const unsigned char* bytes, std::uint64_t fileSize, const std::string& path,
                        std::vector<TensorInfo>& tensors,
                        std::unordered_map<std::string, std::size_t>& index,
                        std::uint64_t& headerLength)
{
    if (fileSize < 8)
        return attn::failure(
            attn::StatusCode::FileTruncated, path, "header length",
            "file has " + std::to_string(fileSize) + " bytes, fewer than the 8-byte header length");
    headerLength = 0;
    for (int i = 7; i >= 0; --i) headerLength = (headerLength << 8) | bytes[i];
    if (headerLength > kMaxSafetensorsHeader)
        return attn::failure(attn::StatusCode::HeaderTooLarge, path, "header length",
                             std::to_string(headerLength) + " bytes exceeds the " +
                                 std::to_string(kMaxSafetensorsHeader >> 20) + " MiB limit");
    if (headerLength > fileSize - 8)
        return attn::failure(attn::StatusCode::FileTruncated, path, "header length",
                             "header of " + std::to_string(headerLength) +
                                 " bytes does not fit in the " + std::to_string(fileSize) +
                                 "-byte file");
    const auto* headerBegin = reinterpret_cast<const char*>(bytes + 8);
    const std::uint64_t dataSize = fileSize - 8 - headerLength;
    // Syntax first (no tree is built), so that a broken file is called broken rather than
    // refused for whatever its first entry happens to be cut into.
    if (!json::accept(headerBegin, headerBegin + headerLength))
        return attn::failure(attn::StatusCode::HeaderSyntax, path, "header", "not valid JSON");
    HeaderReader reader(path, dataSize, tensors, index);
    const bool parsed = json::sax_parse(headerBegin, headerBegin + headerLength, &reader);
    if (!reader.status().ok()) return reader.status();
    if (!parsed)
        return attn::failure(attn::StatusCode::HeaderSyntax, path, "header", "not valid JSON");
    if (!reader.sawObject())
        return attn::failure(attn::StatusCode::HeaderSyntax, path, "header", "not a JSON object");
    return {};
}

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
        if (attn::Status s =
                readHeader(bytes, fileSize, path, file.tensors_, file.index_, headerLength);
            !s.ok())
            return s;
        // Listed by name, whatever the header's order, so that tensors() is the same for every
        // writer of the same tensors.
        std::sort(file.tensors_.begin(), file.tensors_.end(),
                  [](const TensorInfo& a, const TensorInfo& b) { return a.name < b.name; });
        file.index_.clear();
        if (attn::Status s = checkNoOverlap(file.tensors_, path); !s.ok()) return s;
        const unsigned char* data = bytes + 8 + headerLength;
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
