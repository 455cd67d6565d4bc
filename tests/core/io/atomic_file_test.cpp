// SPDX-License-Identifier: GPL-3.0-or-later
// The one writer: a regular file is replaced whole, and nothing else is ever replaced by one. A
// character device (or a link to one) is written in place and stays a device; a link to a file
// stays a link while the file it names is replaced; a FIFO nobody reads, a folder are refused
// and stay as they were. No temporary file is left behind either way.
#include "core/io/atomic_file.h"

#include <gtest/gtest.h>
#include <string>
#include <sys/stat.h>
#include <unistd.h>

#include "model/model_files.h"
#include "support/as_nobody.h"

namespace attn::io {
namespace {

using model::test::TempDir;
namespace fs = std::filesystem;

WriteStatus write(const fs::path& path, const std::string& bytes)
{
    return writeFileAtomically(path.string(), bytes.data(), bytes.size());
}

std::size_t entries(const fs::path& dir)
{
    std::size_t n = 0;
    for ([[maybe_unused]] const auto& e : fs::directory_iterator(dir)) ++n;
    return n;
}

TEST(AtomicFile, ARegularFileIsReplacedWholeAndKeepsItsMode)
{
    TempDir dir;
    const fs::path out = dir.path() / "out.json";
    model::test::writeBytes(out, "old and longer than the new");
    fs::permissions(out, fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read);
    ASSERT_TRUE(write(out, "new").ok());
    EXPECT_EQ(model::test::readBytes(out), "new");
    EXPECT_EQ(fs::status(out).permissions() & fs::perms::mask,
              fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read);
    EXPECT_EQ(entries(dir.path()), 1u) << "a temporary file was left";
}

TEST(AtomicFile, DevNullIsWrittenInPlaceAndStaysACharacterDevice)
{
    const WriteStatus s = write("/dev/null", "bytes for nobody");
    EXPECT_TRUE(s.ok()) << describe(s);
    EXPECT_EQ(s.kind, FileKind::CharDevice);
    EXPECT_EQ(fs::status("/dev/null").type(), fs::file_type::character);
}

TEST(AtomicFile, ALinkToADeviceStaysALinkAndTheDeviceADevice)
{
    TempDir dir;
    const fs::path link = dir.path() / "out.png";
    fs::create_symlink("/dev/null", link);
    const WriteStatus s = write(link, "png bytes");
    EXPECT_TRUE(s.ok()) << describe(s);
    EXPECT_EQ(s.target, "/dev/null");
    EXPECT_TRUE(fs::is_symlink(link));
    EXPECT_EQ(fs::read_symlink(link), "/dev/null");
    EXPECT_EQ(fs::status("/dev/null").type(), fs::file_type::character);
    EXPECT_EQ(entries(dir.path()), 1u);
}

TEST(AtomicFile, ALinkToAFileStaysALinkWhileTheFileIsReplaced)
{
    TempDir dir;
    fs::create_directories(dir.path() / "real");
    const fs::path target = dir.path() / "real" / "out.csv";
    model::test::writeBytes(target, "old");
    const fs::path link = dir.path() / "out.csv";
    fs::create_symlink("real/out.csv", link);
    const fs::path second = dir.path() / "again.csv";
    fs::create_symlink("out.csv", second);  // a chain of two links
    ASSERT_TRUE(write(second, "new").ok());
    EXPECT_TRUE(fs::is_symlink(link));
    EXPECT_TRUE(fs::is_symlink(second));
    EXPECT_EQ(model::test::readBytes(target), "new");
    EXPECT_EQ(entries(dir.path() / "real"), 1u) << "the temporary file goes beside the target";
    // A link to nothing yet: the file it names is created, the link stays.
    const fs::path dangling = dir.path() / "later.json";
    fs::create_symlink("real/later.json", dangling);
    ASSERT_TRUE(write(dangling, "{}").ok());
    EXPECT_TRUE(fs::is_symlink(dangling));
    EXPECT_EQ(model::test::readBytes(dir.path() / "real" / "later.json"), "{}");
}

TEST(AtomicFile, AFifoNobodyReadsAndAFolderAreRefusedAndStayAsTheyWere)
{
    TempDir dir;
    const fs::path fifo = dir.path() / "out.json";
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    WriteStatus s = write(fifo, "bytes");
    EXPECT_EQ(s.error, WriteError::NoReader);
    EXPECT_EQ(fs::status(fifo).type(), fs::file_type::fifo);
    s = write(dir.path(), "bytes");
    EXPECT_EQ(s.error, WriteError::NotWritable);
    EXPECT_EQ(describe(s), "is a folder; nothing was written to it");
    EXPECT_EQ(entries(dir.path()), 1u);
}

TEST(AtomicFile, AFailedWriteLeavesTheOldFileAndNoTemporaryFile)
{
    TempDir dir;
    const fs::path out = dir.path() / "missing-folder" / "out.json";
    const WriteStatus s = write(out, "bytes");
    EXPECT_EQ(s.error, WriteError::NoFolder);
    EXPECT_EQ(describe(s),
              "the folder " + (dir.path() / "missing-folder").string() + " does not exist");
    EXPECT_EQ(entries(dir.path()), 0u);
}

TEST(AtomicFile, AnEmptyPathIsRefusedBeforeAnythingIsLookedAt)
{
    const WriteStatus s = write("", "bytes");
    EXPECT_EQ(s.error, WriteError::EmptyPath);
    EXPECT_EQ(describe(s), "no file name was given");
    EXPECT_EQ(checkWritable("").error, WriteError::EmptyPath);
}

// As `cp` would not, the writer does not replace a file its user could not open for writing,
// though the folder would let it rename a new file over it: a read-only file, another user's
// file in a shared folder.
TEST(AtomicFile, AFileTheUserMayNotWriteIsNotReplacedThoughItsFolderIsWritable)
{
    TempDir dir;
    fs::permissions(dir.path(), fs::perms::all);  // a shared folder: anyone may add files
    const fs::path readOnly = dir.path() / "read-only.json";
    model::test::writeBytes(readOnly, "kept");
    fs::permissions(readOnly,
                    fs::perms::owner_read | fs::perms::group_read | fs::perms::others_read);
    const fs::path others = dir.path() / "others.json";
    model::test::writeBytes(others, "theirs");
    fs::permissions(others, fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read |
                                fs::perms::others_read);
    if (::geteuid() == 0) {
        // Root owns both; as nobody, neither may be written.
        ASSERT_EQ(::chown(readOnly.c_str(), test::kNobody, test::kNobody), 0);
    }
    const int code = test::runAsNobody([&] {
        int failures = 0;
        for (const fs::path& p : {readOnly, others}) {
            if (::geteuid() != 0 && p == others) continue;  // one user owns both then
            const WriteStatus s = write(p, "replaced");
            const WriteStatus c = checkWritable(p.string());
            if (s.error != WriteError::NoPermission || c.error != WriteError::NoPermission ||
                describe(s).find("permission denied") == std::string::npos)
                ++failures;
        }
        const WriteStatus fresh = write(dir.path() / "new.json", "mine");
        return failures + (fresh.ok() ? 0 : 10);
    });
    EXPECT_EQ(code, 0);
    EXPECT_EQ(model::test::readBytes(readOnly), "kept");
    EXPECT_EQ(model::test::readBytes(others), "theirs");
}

TEST(AtomicFile, AFolderTheUserMayNotWriteInIsNamed)
{
    TempDir dir;
    const fs::path locked = dir.path() / "locked";
    fs::create_directories(locked);
    fs::permissions(locked, fs::perms::owner_read | fs::perms::owner_exec | fs::perms::group_read |
                                fs::perms::group_exec | fs::perms::others_read |
                                fs::perms::others_exec);
    const int code = test::runAsNobody([&] {
        const WriteStatus s = write(locked / "out.json", "bytes");
        return s.error == WriteError::NoPermission && s.other == locked.string() ? 0 : 1;
    });
    EXPECT_EQ(code, 0);
    EXPECT_FALSE(fs::exists(locked / "out.json"));
}

}  // namespace
}  // namespace attn::io
