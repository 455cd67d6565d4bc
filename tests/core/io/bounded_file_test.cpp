// SPDX-License-Identifier: GPL-3.0-or-later
// The one reader of files a person names: whatever the path is (a FIFO with no writer, a link to
// /dev/zero, a folder, a file above its cap), it ends at once with the reason, having read
// nothing it was not meant to. Each case runs in a child process limited to 100 MB of address
// space beyond what it holds and killed by an alarm after 10 s, so that a reader that blocked
// or read forever fails the test instead of hanging it.
#include "core/io/bounded_file.h"

#include <gtest/gtest.h>
#include <string>
#include <sys/stat.h>
#include <unistd.h>
#include <variant>

#include "core/model/config.h"
#include "core/model/model.h"
#include "core/model/safetensors.h"
#include "core/tokenize/loaded.h"
#include "model/model_files.h"
#include "support/address_limit.h"

namespace attn::io {
namespace {

using model::test::TempDir;
namespace fs = std::filesystem;

constexpr unsigned long long kBudget = 100 * attn::test::kMiB;

// `body` in a child within the budget and 10 s; its report.
std::string boundedRun(const std::function<std::string()>& body)
{
    if (!attn::test::addressLimitWorks()) return "skip";
    const attn::test::LimitedRun run = attn::test::runWithAddressBudget(kBudget, [&] {
        ::alarm(10);
        return body();
    });
    EXPECT_TRUE(run.exited) << "the child ended by signal " << run.signal
                            << " (14: it blocked or read for 10 s)";
    return run.report;
}

std::string readReport(const std::string& path, std::uint64_t limit)
{
    std::string bytes;
    const ReadStatus s = readBoundedFile(path, limit, bytes);
    return s.ok() ? "ok " + std::to_string(bytes.size()) : describe(s);
}

TEST(BoundedFile, FifoWithNoWriterIsRefusedByNameWithoutBlocking)
{
    TempDir dir;
    const std::string fifo = (dir.path() / "session.attnlab.json").string();
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    std::string bytes = "left over";
    const ReadStatus s = readBoundedFile(fifo, 1 << 20, bytes);
    EXPECT_EQ(s.error, ReadError::NotRegular);
    EXPECT_EQ(s.kind, FileKind::Fifo);
    EXPECT_TRUE(bytes.empty());
    EXPECT_EQ(describe(s), "is a FIFO (named pipe), not a file; it is not read");
}

TEST(BoundedFile, DevZeroAndALinkToItAreRefusedWithin100MB)
{
    TempDir dir;
    const fs::path link = dir.path() / "config.json";
    fs::create_symlink("/dev/zero", link);
    for (const std::string& path : {std::string("/dev/zero"), link.string()}) {
        const std::string report = boundedRun([&] { return readReport(path, 512u << 20); });
        if (report == "skip") GTEST_SKIP() << "no address limit under AddressSanitizer";
        EXPECT_EQ(report, "is a character device, not a file; it is not read") << path;
    }
}

TEST(BoundedFile, FolderMissingFileAndFileAboveTheCapAreNamed)
{
    TempDir dir;
    EXPECT_EQ(readReport(dir.path().string(), 100), "is a folder, not a file; it is not read");
    std::string bytes;
    EXPECT_EQ(readBoundedFile((dir.path() / "gone").string(), 100, bytes).error,
              ReadError::Missing);
    const fs::path big = dir.path() / "big";
    model::test::writeBytes(big, std::string(101, 'x'));
    EXPECT_EQ(readReport(big.string(), 100),
              "is more than 100 bytes; such a file may be at most 100 bytes");
    EXPECT_EQ(readReport(big.string(), 101), "ok 101");
}

TEST(BoundedFile, ASparseFileOfAGibibyteIsRefusedUnreadWithin100MB)
{
    TempDir dir;
    const fs::path big = dir.path() / "big.attnlab.json";
    model::test::writeBytes(big, "{");
    fs::resize_file(big, std::uintmax_t{1} << 30);
    const std::string report = boundedRun([&] { return readReport(big.string(), 512u << 20); });
    if (report == "skip") GTEST_SKIP() << "no address limit under AddressSanitizer";
    EXPECT_EQ(report, "is more than 512 MiB; such a file may be at most 512 MiB");
}

TEST(BoundedFile, AFileThatIsNotRegularIsNotHandedOutForMapping)
{
    TempDir dir;
    const std::string fifo = (dir.path() / "model.safetensors").string();
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    RegularFile file;
    EXPECT_EQ(openRegularFile(fifo, 1 << 20, file).error, ReadError::NotRegular);
    EXPECT_LT(file.fd(), 0);
    const std::string regular = (dir.path() / "ok").string();
    model::test::writeBytes(regular, "12345678");
    ASSERT_TRUE(openRegularFile(regular, 1 << 20, file).ok());
    EXPECT_GE(file.fd(), 0);
    EXPECT_EQ(file.size(), 8u);
}

// The model's readers: config.json, the checkpoint and a tokenizer's file, each as a FIFO
// and as a link to /dev/zero, end with a message naming the file and what it is.
TEST(BoundedFile, ModelFolderFilesThatAreFifosOrDevZeroAreRefusedByName)
{
    if (!attn::test::addressLimitWorks()) GTEST_SKIP() << "no address limit under ASan";
    for (const char* name : {"config.json", "model.safetensors", "vocab.json"}) {
        for (const bool fifo : {true, false}) {
            TempDir dir;
            const fs::path folder = dir.copyOf("gpt2_tiny");
            const fs::path file = folder / name;
            std::error_code ignored;
            fs::remove(file, ignored);
            if (fifo) {
                ASSERT_EQ(::mkfifo(file.c_str(), 0600), 0);
            } else {
                fs::create_symlink("/dev/zero", file);
            }
            const std::string report = boundedRun([&] {
                std::string bytes;
                if (file.filename() == "vocab.json") {
                    const auto e = tok::readWholeFile(file, bytes);
                    return e ? attn::describe(*e) : std::string("read");
                }
                model::Model m;
                const attn::Status s = model::Model::load(folder.string(), m);
                return s.ok() ? std::string("opened") : attn::describe(s);
            });
            const std::string kind = fifo ? "a FIFO (named pipe)" : "a character device";
            EXPECT_NE(report.find(file.string()), std::string::npos) << report;
            EXPECT_NE(report.find("is " + kind + ", not a file"), std::string::npos)
                << name << ": " << report;
        }
    }
}

}  // namespace
}  // namespace attn::io
