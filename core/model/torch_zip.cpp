// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/model/torch_zip.h"

#include <algorithm>

namespace attn::model::detail {

namespace {

constexpr std::uint32_t kLocalHeader = 0x04034b50;
constexpr std::uint32_t kCentralHeader = 0x02014b50;
constexpr std::uint32_t kEndOfDirectory = 0x06054b50;
constexpr std::uint32_t kZip64Locator = 0x07064b50;
constexpr std::uint32_t kZip64End = 0x06064b50;
constexpr std::uint64_t kEndSize = 22;
constexpr std::uint64_t kMaxComment = 0xffff;

// Little-endian reads; the caller has checked that the bytes are there.
std::uint64_t le(const unsigned char* p, int bytes)
{
    std::uint64_t v = 0;
    for (int i = bytes - 1; i >= 0; --i) v = (v << 8) | p[i];
    return v;
}

attn::Status broken(const std::string& path, const std::string& field, const std::string& detail)
{
    return attn::failure(attn::StatusCode::TorchArchive, path, field, detail);
}

struct Directory {
    std::uint64_t count = 0;
    std::uint64_t offset = 0;
    std::uint64_t size = 0;
};

// The end-of-directory record: the last 22 bytes, or earlier by a comment of up to 64 KiB.
attn::Status findDirectory(const unsigned char* bytes, std::uint64_t size, const std::string& path,
                           Directory& dir)
{
    if (size < kEndSize) return broken(path, "zip", "too short for a zip directory");
    const std::uint64_t lowest = size - kEndSize > kMaxComment ? size - kEndSize - kMaxComment : 0;
    std::uint64_t at = size - kEndSize;
    while (le(bytes + at, 4) != kEndOfDirectory) {
        if (at == lowest) return broken(path, "zip", "no end-of-directory record");
        --at;
    }
    const unsigned char* end = bytes + at;
    dir.count = le(end + 10, 2);
    dir.size = le(end + 12, 4);
    dir.offset = le(end + 16, 4);
    if (dir.count != 0xffff && dir.size != 0xffffffff && dir.offset != 0xffffffff) return {};
    // Zip64: a locator just before the record points to the 56-byte zip64 record.
    if (at < 20 || le(bytes + at - 20, 4) != kZip64Locator)
        return broken(path, "zip", "zip64 sizes without a zip64 locator");
    const std::uint64_t record = le(bytes + at - 20 + 8, 8);
    if (record > size || size - record < 56 || le(bytes + record, 4) != kZip64End)
        return broken(path, "zip", "zip64 locator points outside the file");
    dir.count = le(bytes + record + 32, 8);
    dir.size = le(bytes + record + 40, 8);
    dir.offset = le(bytes + record + 48, 8);
    return {};
}

// The zip64 extra field of a central header holds, in order, those of the uncompressed size,
// the compressed size and the local header's offset that were 0xffffffff.
bool readZip64Extra(const unsigned char* extra, std::uint64_t length, std::uint64_t& plain,
                    std::uint64_t& packed, std::uint64_t& local)
{
    std::uint64_t at = 0;
    while (at + 4 <= length) {
        const std::uint64_t id = le(extra + at, 2);
        const std::uint64_t n = le(extra + at + 2, 2);
        if (at + 4 + n > length) return false;
        if (id == 1) {
            std::uint64_t k = at + 4;
            for (std::uint64_t* v : {&plain, &packed, &local}) {
                if (*v != 0xffffffff) continue;
                if (k + 8 > at + 4 + n) return false;
                *v = le(extra + k, 8);
                k += 8;
            }
            return true;
        }
        at += 4 + n;
    }
    return plain != 0xffffffff && packed != 0xffffffff && local != 0xffffffff;
}

}  // namespace

bool looksLikeZip(const unsigned char* bytes, std::uint64_t size)
{
    return size >= 4 && le(bytes, 4) == kLocalHeader;
}

attn::Status readStoredZip(const unsigned char* bytes, std::uint64_t size, const std::string& path,
                           std::vector<ZipEntry>& entries)
{
    entries.clear();
    Directory dir;
    if (attn::Status s = findDirectory(bytes, size, path, dir); !s.ok()) return s;
    if (dir.offset > size || dir.size > size - dir.offset)
        return broken(path, "zip", "the directory lies outside the file");
    if (dir.count > kMaxZipEntries)
        return attn::failure(attn::StatusCode::HeaderTooLarge, path, "zip",
                             std::to_string(dir.count) + " entries; at most " +
                                 std::to_string(kMaxZipEntries) + " are read");
    // Each central header takes at least 46 bytes: a count beyond that is a lie, not a size.
    if (dir.count > dir.size / 46)
        return broken(path, "zip", "more entries than the directory holds");
    entries.reserve(static_cast<std::size_t>(dir.count));
    std::uint64_t at = dir.offset;
    const std::uint64_t end = dir.offset + dir.size;
    for (std::uint64_t i = 0; i < dir.count; ++i) {
        if (end - at < 46 || le(bytes + at, 4) != kCentralHeader)
            return broken(path, "zip",
                          "entry " + std::to_string(i + 1) + " of the directory is cut");
        const unsigned char* h = bytes + at;
        const std::uint64_t flags = le(h + 8, 2);
        const std::uint64_t method = le(h + 10, 2);
        std::uint64_t packed = le(h + 20, 4);
        std::uint64_t plain = le(h + 24, 4);
        const std::uint64_t nameLength = le(h + 28, 2);
        const std::uint64_t extraLength = le(h + 30, 2);
        const std::uint64_t commentLength = le(h + 32, 2);
        std::uint64_t local = le(h + 42, 4);
        if (end - at - 46 < nameLength + extraLength + commentLength)
            return broken(path, "zip",
                          "entry " + std::to_string(i + 1) + " of the directory is cut");
        ZipEntry e;
        e.name.assign(reinterpret_cast<const char*>(h + 46), static_cast<std::size_t>(nameLength));
        if (!readZip64Extra(h + 46 + nameLength, extraLength, plain, packed, local))
            return broken(path, e.name, "zip64 sizes missing from the entry");
        if (method != 0 || (flags & 1) != 0)
            return attn::failure(
                attn::StatusCode::TorchArchive, path, e.name,
                "is compressed or encrypted; torch.save stores entries as they are");
        if (packed != plain) return broken(path, e.name, "stored size differs from its size");
        if (local > size || size - local < 30 || le(bytes + local, 4) != kLocalHeader)
            return broken(path, e.name, "its local header lies outside the file");
        const std::uint64_t data =
            local + 30 + le(bytes + local + 26, 2) + le(bytes + local + 28, 2);
        if (data > size || plain > size - data)
            return attn::failure(attn::StatusCode::FileTruncated, path, e.name,
                                 std::to_string(plain) + " bytes from offset " +
                                     std::to_string(data) + " pass the end of the file (" +
                                     std::to_string(size) + " bytes)");
        e.dataOffset = data;
        e.size = plain;
        entries.push_back(std::move(e));
        at += 46 + nameLength + extraLength + commentLength;
    }
    return {};
}

}  // namespace attn::model::detail
