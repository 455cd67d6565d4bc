// SPDX-License-Identifier: GPL-3.0-or-later
// A model folder is written whole or not at all, into a new folder that then takes the old
// one's place: a folder of someone else's files is refused untouched, a folder AttnLab made is
// replaced while the user's own files in it stay, and no temporary folder is left behind.
#include "core/io/folder_file.h"

#include <gtest/gtest.h>
#include <string>
#include <sys/stat.h>

#include "core/io/command_files.h"
#include "model/model_files.h"

namespace attn::io {
namespace {

using model::test::readBytes;
using model::test::TempDir;
using model::test::writeBytes;
namespace fs = std::filesystem;

const std::vector<FolderFile> kFiles{{"config.json", "{\"new\": 1}"},
                                     {"model.safetensors", "new weights"}};

std::vector<std::string> fileNames()
{
    return {"config.json", "model.safetensors"};
}

std::size_t entriesIn(const fs::path& dir)
{
    std::size_t n = 0;
    for ([[maybe_unused]] const auto& e : fs::directory_iterator(dir)) ++n;
    return n;
}

TEST(FolderFile, ANewFolderGetsEveryFileAndNothingIsLeftBeside)
{
    TempDir dir;
    const fs::path out = dir.path() / "model";
    const WriteStatus s = writeFolderAtomically(out.string(), kFiles, {});
    ASSERT_TRUE(s.ok()) << describe(s);
    EXPECT_EQ(readBytes(out / "config.json"), "{\"new\": 1}");
    EXPECT_EQ(readBytes(out / "model.safetensors"), "new weights");
    EXPECT_EQ(entriesIn(dir.path()), 1u);
}

TEST(FolderFile, AFolderOfSomeoneElsesFilesIsRefusedAndUntouched)
{
    TempDir dir;
    const fs::path out = dir.path() / "mine";
    fs::create_directories(out);
    writeBytes(out / "config.json", "my own config");
    EXPECT_EQ(checkFolderWritable(out.string(), fileNames(), {}).error, WriteError::NotOurs);
    const WriteStatus s = writeFolderAtomically(out.string(), kFiles, {});
    EXPECT_EQ(s.error, WriteError::NotOurs);
    EXPECT_EQ(s.other, "config.json");
    EXPECT_EQ(readBytes(out / "config.json"), "my own config");
    EXPECT_EQ(entriesIn(out), 1u);
    EXPECT_EQ(entriesIn(dir.path()), 1u);
    EXPECT_TRUE(writeFolderAtomically((dir.path() / "empty").string(), kFiles, {}).ok());
}

TEST(FolderFile, AFolderItMayReplaceIsReplacedWholeAndTheUsersOwnFilesStay)
{
    TempDir dir;
    const fs::path out = dir.path() / "model";
    fs::create_directories(out);
    writeBytes(out / "config.json", "old config");
    writeBytes(out / "vocab.json", "old vocabulary, no longer written");
    writeBytes(out / "corpus.txt", "the user's corpus");
    FolderPolicy policy;
    policy.mayReplace = true;
    const WriteStatus s = writeFolderAtomically(out.string(), kFiles, policy);
    ASSERT_TRUE(s.ok()) << describe(s);
    EXPECT_EQ(readBytes(out / "config.json"), "{\"new\": 1}");
    EXPECT_EQ(readBytes(out / "corpus.txt"), "the user's corpus");
    // vocab.json is not among the files written: it is the user's now, and kept.
    EXPECT_EQ(readBytes(out / "vocab.json"), "old vocabulary, no longer written");
    EXPECT_EQ(entriesIn(dir.path()), 1u);
}

TEST(FolderFile, ALinkPlantedInAFolderIsNeitherFollowedNorKept)
{
    TempDir dir;
    const fs::path victim = dir.path() / "victim.txt";
    writeBytes(victim, "not to be overwritten");
    const fs::path out = dir.path() / "cache";
    fs::create_directories(out / "sub");
    fs::create_symlink(victim, out / "config.json");
    FolderPolicy keep;
    keep.mayReplace = true;
    fs::create_symlink(victim, out / "planted");
    EXPECT_EQ(writeFolderAtomically(out.string(), kFiles, keep).error, WriteError::NotOurs);
    FolderPolicy discard = keep;
    discard.keepOthers = false;
    ASSERT_TRUE(writeFolderAtomically(out.string(), kFiles, discard).ok());
    EXPECT_EQ(readBytes(victim), "not to be overwritten");
    EXPECT_FALSE(fs::is_symlink(out / "config.json"));
    EXPECT_EQ(readBytes(out / "config.json"), "{\"new\": 1}");
    EXPECT_EQ(entriesIn(out), 2u);
    EXPECT_EQ(entriesIn(dir.path()), 2u);  // victim.txt and cache
}

TEST(FolderFile, AProgramsOwnFolderReplacedByALinkIsReplacedAndWhatItNamesUntouched)
{
    TempDir dir;
    const fs::path victim = dir.path() / "documents";
    fs::create_directories(victim);
    writeBytes(victim / "config.json", "the user's");
    const fs::path cache = dir.path() / "cache";
    fs::create_directory_symlink(victim, cache);
    FolderPolicy own;
    own.mayReplace = true;
    own.keepOthers = false;
    own.followLinks = false;
    const WriteStatus s = writeFolderAtomically(cache.string(), kFiles, own);
    ASSERT_TRUE(s.ok()) << describe(s);
    EXPECT_FALSE(fs::is_symlink(cache));
    EXPECT_EQ(readBytes(cache / "config.json"), "{\"new\": 1}");
    EXPECT_EQ(readBytes(victim / "config.json"), "the user's");
    EXPECT_EQ(entriesIn(victim), 1u);
    EXPECT_EQ(entriesIn(dir.path()), 2u);
}

TEST(FolderFile, AFileADeviceAndAnEmptyNameAreRefusedBeforeWriting)
{
    TempDir dir;
    const fs::path file = dir.path() / "afile";
    writeBytes(file, "a file");
    WriteStatus s = checkFolderWritable(file.string(), fileNames(), {});
    EXPECT_EQ(s.error, WriteError::NotWritable);
    EXPECT_EQ(s.kind, FileKind::Regular);
    EXPECT_EQ(describe(s), "is a file; nothing was written to it");
    s = checkFolderWritable("/dev/null", fileNames(), {});
    EXPECT_EQ(s.error, WriteError::NotWritable);
    EXPECT_EQ(s.kind, FileKind::CharDevice);
    EXPECT_EQ(checkFolderWritable("", fileNames(), {}).error, WriteError::EmptyPath);
    EXPECT_EQ(checkFolderWritable((dir.path() / "no" / "such").string(), fileNames(), {}).error,
              WriteError::NoFolder);
    EXPECT_EQ(readBytes(file), "a file");
}

TEST(FolderFile, AnInputOfTheCommandInsideTheFolderIsNotReplaced)
{
    TempDir dir;
    const fs::path out = dir.path() / "model";
    fs::create_directories(out);
    writeBytes(out / "config.json", "read by the command");
    CommandFiles files;
    files.addInput((out / "config.json").string());
    FolderPolicy policy;
    policy.mayReplace = true;
    const WriteStatus s = writeFolderAtomically(out.string(), kFiles, policy);
    EXPECT_EQ(s.error, WriteError::SameAsInput);
    EXPECT_EQ(readBytes(out / "config.json"), "read by the command");
}

TEST(FolderFile, AnOutputFileInsideAnOutputFolderIsRefusedBeforeWriting)
{
    TempDir dir;
    const fs::path out = dir.path() / "new-model";
    CommandFiles files;
    ASSERT_TRUE(files.addOutput((dir.path() / "curve.csv").string()).ok());
    ASSERT_TRUE(files.addOutputFolder(out.string(), fileNames(), {}).ok());
    const WriteStatus s = files.addOutput((out / "config.json").string());
    EXPECT_EQ(s.error, WriteError::SameAsOutput) << "a file of the folder, not made yet";
    EXPECT_EQ(files.addOutputFolder(dir.path().string() + "/./new-model", fileNames(), {}).error,
              WriteError::SameAsOutput);
}

TEST(FolderFile, MissingFoldersAboveAreMadeOnlyWhereTheyMayBeAndOnlyWhenWritten)
{
    TempDir dir;
    FolderPolicy parents;
    parents.makeParents = true;
    const fs::path deep = dir.path() / "runs" / "today" / "model";
    EXPECT_EQ(checkFolderWritable(deep.string(), fileNames(), {}).error, WriteError::NoFolder);
    ASSERT_TRUE(checkFolderWritable(deep.string(), fileNames(), parents).ok());
    EXPECT_FALSE(fs::exists(dir.path() / "runs")) << "checking makes nothing";
    ASSERT_TRUE(writeFolderAtomically(deep.string(), kFiles, parents).ok());
    EXPECT_EQ(readBytes(deep / "config.json"), "{\"new\": 1}");
    writeBytes(dir.path() / "afile", "x");
    const WriteStatus s = checkFolderWritable((dir.path() / "afile" / "sub" / "model").string(),
                                              fileNames(), parents);
    EXPECT_EQ(s.error, WriteError::NoFolder);
}

}  // namespace
}  // namespace attn::io
