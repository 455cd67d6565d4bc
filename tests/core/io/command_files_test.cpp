// SPDX-License-Identifier: GPL-3.0-or-later
// One command never overwrites what it reads, nor writes one file twice under two names: files
// are told apart by device and inode (a symlink, a hard link, "dir/../name" name the same
// file), and without an open CommandFiles (the window) nothing of this applies.
#include "core/io/command_files.h"

#include <gtest/gtest.h>
#include <string>

#include "core/io/bounded_file.h"
#include "model/model_files.h"

namespace attn::io {
namespace {

using model::test::readBytes;
using model::test::TempDir;
using model::test::writeBytes;
namespace fs = std::filesystem;

WriteStatus writeText(const fs::path& path, const std::string& bytes)
{
    return writeFileAtomically(path.string(), bytes.data(), bytes.size());
}

TEST(CommandFiles, AnOutputThatIsTheInputItReadIsRefusedAndTheInputKept)
{
    TempDir dir;
    const fs::path session = dir.path() / "s.attnlab.json";
    writeBytes(session, "the session");
    CommandFiles files;
    std::string bytes;
    ASSERT_TRUE(readBoundedFile(session.string(), 1 << 20, bytes).ok());
    const WriteStatus s = writeText(session, "the output");
    EXPECT_EQ(s.error, WriteError::SameAsInput) << describe(s);
    EXPECT_EQ(s.other, session.string());
    EXPECT_EQ(readBytes(session), "the session");
    EXPECT_NE(describe(s).find("same file as the input"), std::string::npos) << describe(s);
}

TEST(CommandFiles, ALinkAHardLinkAndADotDotPathAreTheSameFile)
{
    TempDir dir;
    fs::create_directories(dir.path() / "sub");
    const fs::path input = dir.path() / "in.txt";
    writeBytes(input, "input");
    fs::create_symlink(input, dir.path() / "link.txt");
    fs::create_hard_link(input, dir.path() / "hard.txt");
    CommandFiles files;
    files.addInput(input.string());
    for (const fs::path& other :
         {dir.path() / "link.txt", dir.path() / "hard.txt", dir.path() / "sub" / ".." / "in.txt"}) {
        EXPECT_EQ(files.addOutput(other.string()).error, WriteError::SameAsInput) << other;
        EXPECT_EQ(writeText(other, "x").error, WriteError::SameAsInput) << other;
    }
    EXPECT_EQ(readBytes(input), "input");
}

TEST(CommandFiles, TwoOutputsOfOneFileAreRefusedBeforeAndWhenWritten)
{
    TempDir dir;
    const fs::path out = dir.path() / "t.attnlab.json";
    CommandFiles files;
    ASSERT_TRUE(files.addOutput(out.string()).ok());
    const WriteStatus twice = files.addOutput((dir.path() / "." / "t.attnlab.json").string());
    EXPECT_EQ(twice.error, WriteError::SameAsOutput) << describe(twice);
    ASSERT_TRUE(writeText(out, "the session").ok());
    EXPECT_EQ(writeText(out, "step,loss\n").error, WriteError::SameAsOutput);
    EXPECT_EQ(readBytes(out), "the session");
}

TEST(CommandFiles, DevicesMayBeWrittenTwiceAndTheWindowMaySaveOverWhatItOpened)
{
    {
        CommandFiles files;
        EXPECT_TRUE(files.addOutput("/dev/null").ok());
        EXPECT_TRUE(files.addOutput("/dev/null").ok());
    }
    TempDir dir;
    const fs::path session = dir.path() / "s.attnlab.json";
    writeBytes(session, "old");
    std::string bytes;
    ASSERT_TRUE(readBoundedFile(session.string(), 1 << 20, bytes).ok());
    EXPECT_TRUE(writeText(session, "saved").ok());  // no CommandFiles: Save over the opened file
    EXPECT_EQ(readBytes(session), "saved");
}

TEST(CommandFiles, AFolderInputsFilesCannotBeOutputs)
{
    TempDir dir;
    const fs::path model = dir.path() / "model";
    fs::create_directories(model);
    writeBytes(model / "config.json", "{}");
    CommandFiles files;
    files.addInputFolder(model.string());
    EXPECT_EQ(files.addOutput((model / "config.json").string()).error, WriteError::SameAsInput);
    EXPECT_TRUE(files.addOutput((model / "new.json").string()).ok());
}

}  // namespace
}  // namespace attn::io
