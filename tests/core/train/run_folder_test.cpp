// SPDX-License-Identifier: GPL-3.0-or-later
// A trained model's folder is written whole and only where AttnLab may: a new or empty folder,
// or one AttnLab wrote (replaced, the user's other files kept). Someone else's folder is
// refused untouched. Its training.json records each other file's SHA-256, and a folder whose
// files no longer match (weights from another run beside the old vocabulary, a config edited
// to the same size) is refused by name when it is opened.
#include <filesystem>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <string>

#include "core/io/sha256.h"
#include "core/model/model.h"
#include "core/model/model_folder.h"
#include "core/train/gpt2_export.h"
#include "core/train/gpt2_run.h"
#include "model/model_files.h"

namespace attn::gpt2 {
namespace {

namespace fs = std::filesystem;
using model::test::readBytes;
using model::test::TempDir;
using model::test::writeBytes;

std::unique_ptr<ModelRun> trained(std::uint64_t seed)
{
    RunSpec s;
    s.layers = 1;
    s.heads = 2;
    s.channels = 8;
    s.context = 16;
    s.steps = 2;
    s.batch = 2;
    s.seed = seed;
    s.probeCount = 8;
    s.detectCount = 2;
    std::unique_ptr<ModelRun> run;
    EXPECT_TRUE(ModelRun::create(s, run).ok());
    while (run && !run->finished()) EXPECT_TRUE(run->step().ok());
    return run;
}

TEST(RunFolder, TrainingJsonRecordsEveryOtherFilesDigestAndWhoWroteIt)
{
    TempDir dir;
    const fs::path out = dir.path() / "m";
    ASSERT_TRUE(trained(1)->write(out.string(), "attnlab train-model --test", 1.0).ok());
    const nlohmann::json j = nlohmann::json::parse(readBytes(out / "training.json"));
    EXPECT_EQ(j["written_by"], "attnlab train-model");
    for (const char* f : {"config.json", "model.safetensors", "vocab.json", "merges.txt"})
        EXPECT_EQ(j["files"][f], io::sha256Hex(readBytes(out / f))) << f;
    EXPECT_FALSE(j["files"].contains("training.json"));
    model::Model m;
    EXPECT_TRUE(model::Model::load(out.string(), m).ok());
}

TEST(RunFolder, AFolderWhoseFilesDoNotBelongTogetherIsRefusedByName)
{
    TempDir dir;
    const fs::path a = dir.path() / "a", b = dir.path() / "b";
    ASSERT_TRUE(trained(1)->write(a.string(), "attnlab train-model --test", 1.0).ok());
    ASSERT_TRUE(trained(2)->write(b.string(), "attnlab train-model --test", 1.0).ok());
    // What a copy interrupted half-way leaves: b's weights beside a's record.
    fs::copy_file(b / "model.safetensors", a / "model.safetensors",
                  fs::copy_options::overwrite_existing);
    model::Model m;
    Status s = model::Model::load(a.string(), m);
    EXPECT_EQ(s.code, StatusCode::FolderMismatch) << describe(s);
    EXPECT_EQ(s.file, (a / "model.safetensors").string());
    EXPECT_NE(s.detail.find("training.json records"), std::string::npos) << s.detail;
    // A config edited by hand, to the same size.
    std::string config = readBytes(b / "config.json");
    const std::size_t at = config.find("1e-05");
    ASSERT_NE(at, std::string::npos);
    config.replace(at, 5, "2e-05");
    writeBytes(b / "config.json", config);
    s = model::Model::load(b.string(), m);
    EXPECT_EQ(s.code, StatusCode::FolderMismatch);
    EXPECT_EQ(s.file, (b / "config.json").string());
}

TEST(RunFolder, SomeoneElsesFolderIsRefusedBeforeTheRunAndLeftAsItWas)
{
    TempDir dir;
    const fs::path mine = dir.path() / "mine";
    fs::create_directories(mine);
    writeBytes(mine / "config.json", "{\"my\": \"own\"}");
    Status s = checkModelFolder(mine.string());
    EXPECT_EQ(s.code, StatusCode::FileOpen);
    EXPECT_NE(s.detail.find("did not make"), std::string::npos) << s.detail;
    s = trained(1)->write(mine.string(), "attnlab train-model --test", 1.0);
    EXPECT_EQ(s.code, StatusCode::FileOpen);
    EXPECT_EQ(readBytes(mine / "config.json"), "{\"my\": \"own\"}");
    const fs::path file = dir.path() / "afile";
    writeBytes(file, "x");
    EXPECT_NE(checkModelFolder(file.string()).detail.find("is a file"), std::string::npos);
    EXPECT_NE(checkModelFolder("/dev/null").detail.find("character device"), std::string::npos);
}

TEST(RunFolder, AFolderAttnlabWroteIsReplacedWholeAndTheUsersFilesStay)
{
    TempDir dir;
    const fs::path out = dir.path() / "m";
    ASSERT_TRUE(trained(1)->write(out.string(), "attnlab train-model --test", 1.0).ok());
    writeBytes(out / "corpus.txt", "the user's corpus");
    ASSERT_TRUE(checkModelFolder(out.string()).ok());
    ASSERT_TRUE(trained(2)->write(out.string(), "attnlab train-model --test", 1.0).ok());
    EXPECT_EQ(readBytes(out / "corpus.txt"), "the user's corpus");
    model::Model m;
    EXPECT_TRUE(model::Model::load(out.string(), m).ok());
    std::size_t n = 0;
    for ([[maybe_unused]] const auto& e : fs::directory_iterator(dir.path())) ++n;
    EXPECT_EQ(n, 1u) << "no temporary folder is left";
}

}  // namespace
}  // namespace attn::gpt2
