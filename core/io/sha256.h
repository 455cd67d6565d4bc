// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// SHA-256 (FIPS 180-4), for the digests that tie a model folder's files together
// (training.json records one per file) and that check the built-in models' cached copies.
// The core has no crypto library to lean on and needs nothing but this one function.

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "core/io/bounded_file.h"

namespace attn::io {

class Sha256 {
public:
    Sha256();
    void add(const void* data, std::size_t size);
    void add(std::string_view bytes) { add(bytes.data(), bytes.size()); }
    // The digest as 64 lower-case hex digits; the object is spent afterwards.
    [[nodiscard]] std::string hex();

private:
    void block(const unsigned char* p);
    std::array<std::uint32_t, 8> h_{};
    std::array<unsigned char, 64> pending_{};
    std::size_t pendingSize_ = 0;
    std::uint64_t total_ = 0;
};

// The digest of some bytes, 64 lower-case hex digits.
std::string sha256Hex(std::string_view bytes);

// The digest of the regular file at `path`, read in pieces through the bounded reader (at most
// `limit` bytes); `out` is left empty unless the status is Ok.
ReadStatus sha256OfFile(const std::string& path, std::uint64_t limit, std::string& out);

}  // namespace attn::io
