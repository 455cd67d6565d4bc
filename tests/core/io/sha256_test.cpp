// SPDX-License-Identifier: GPL-3.0-or-later
// SHA-256 against the digests Python's hashlib gives for the same bytes, at the lengths where
// the padding changes (55, 56 and 64 bytes) and for bytes handed over in uneven pieces.
#include "core/io/sha256.h"

#include <gtest/gtest.h>
#include <string>

#include "model/model_files.h"

namespace attn::io {
namespace {

std::string allBytes()
{
    std::string s;
    for (int r = 0; r < 3; ++r)
        for (int b = 0; b < 256; ++b) s += static_cast<char>(b);
    return s;
}

TEST(Sha256, DigestsEqualHashlibsAtEveryPaddingBoundary)
{
    EXPECT_EQ(sha256Hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    EXPECT_EQ(sha256Hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    EXPECT_EQ(sha256Hex(std::string(55, 'a')),
              "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318");
    EXPECT_EQ(sha256Hex(std::string(56, 'a')),
              "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a");
    EXPECT_EQ(sha256Hex(std::string(64, 'a')),
              "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb");
    EXPECT_EQ(sha256Hex(allBytes()),
              "f3a25aa93aa2fbba28d79260535bbd6a5eb0fc1c24a8b0f04e12b484c1dfe363");
}

TEST(Sha256, PiecesOfAnySizeGiveTheDigestOfTheWhole)
{
    const std::string million(1000000, 'a');
    Sha256 s;
    std::size_t at = 0, piece = 1;
    while (at < million.size()) {
        const std::size_t n = std::min(piece, million.size() - at);
        s.add(million.data() + at, n);
        at += n;
        piece = piece * 3 + 7;
    }
    EXPECT_EQ(s.hex(), "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST(Sha256, AFileIsHashedThroughTheBoundedReader)
{
    model::test::TempDir dir;
    const auto path = dir.path() / "bytes";
    model::test::writeBytes(path, allBytes());
    std::string digest;
    ASSERT_TRUE(sha256OfFile(path.string(), 1 << 20, digest).ok());
    EXPECT_EQ(digest, "f3a25aa93aa2fbba28d79260535bbd6a5eb0fc1c24a8b0f04e12b484c1dfe363");
    const ReadStatus fifo = sha256OfFile("/dev/zero", 1 << 20, digest);
    EXPECT_EQ(fifo.error, ReadError::NotRegular);
    EXPECT_TRUE(digest.empty());
}

}  // namespace
}  // namespace attn::io
