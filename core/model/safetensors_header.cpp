// SPDX-License-Identifier: GPL-3.0-or-later
// The safetensors header: its length, its JSON streamed through a SAX handler into the tensor
// list, each entry checked against the data that follows.
#include "core/model/safetensors_header.h"

#include <nlohmann/json.hpp>
#include <string>

namespace attn::model {
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

}  // namespace

namespace detail {

attn::Status readSafetensorsHeader(const unsigned char* bytes, std::uint64_t fileSize,
                                   const std::string& path, std::vector<TensorInfo>& tensors,
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

}  // namespace detail
}  // namespace attn::model
