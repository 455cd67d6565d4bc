// SPDX-License-Identifier: GPL-3.0-or-later
// The session reader on its own (attnlab_readers, no window): every bad file of
// io/support/bad_sessions.h is refused with its field and problem named and `out` untouched,
// every lesson's session reads and writes back byte for byte, and files that are missing,
// folders, FIFOs, devices or too large are named. The sanitizer step of .ci/run runs these under
// ASan + UBSan.
#include <algorithm>
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <QDir>
#include <QFile>
#include <QTemporaryDir>

#include "io/support/bad_sessions.h"
#include "io/support/sessions.h"
#include "ui/readers/session_file.h"
#include "ui/readers/session_format.h"

namespace attnlab {
namespace {

using testing::BadSessionFile;

class BadSessionBytes : public ::testing::TestWithParam<BadSessionFile> {};

TEST_P(BadSessionBytes, ReaderNamesTheFieldAndTheProblemAndLeavesTheOutputUntouched)
{
    const BadSessionFile& bad = GetParam();
    SessionFile out;
    out.session.targetTokens = {QStringLiteral("kept")};
    FileError error;
    ASSERT_FALSE(parseSessionJson(bad.bytes(), QStringLiteral("bad.attnlab.json"), out, error));
    const QString message = error.message();
    EXPECT_TRUE(message.startsWith(QStringLiteral("bad.attnlab.json"))) << message.toStdString();
    if (*bad.field) {
        EXPECT_TRUE(error.field.startsWith(QLatin1String(bad.field))) << message.toStdString();
    }
    EXPECT_TRUE(message.contains(QLatin1String(bad.problem))) << message.toStdString();
    // A path into a list says how it counts.
    EXPECT_EQ(error.field.contains(QLatin1Char('[')),
              message.contains(QStringLiteral(" (counted from 1): ")))
        << message.toStdString();
    EXPECT_EQ(out.session.targetTokens, QStringList{QStringLiteral("kept")});
}

INSTANTIATE_TEST_SUITE_P(BadSession, BadSessionBytes,
                         ::testing::ValuesIn(testing::badSessionFiles()),
                         [](const ::testing::TestParamInfo<BadSessionFile>& param) {
                             return std::string(param.param.name);
                         });

TEST(SessionRead, PathsCountListElementsFromOne)
{
    const std::vector<BadSessionFile> bad = testing::badSessionFiles();
    const auto numericMask = std::find_if(bad.begin(), bad.end(), [](const BadSessionFile& b) {
        return std::string(b.name) == "numeric_mask";
    });
    ASSERT_NE(numericMask, bad.end());
    SessionFile out;
    FileError error;
    ASSERT_FALSE(parseSessionJson(numericMask->bytes(), QStringLiteral("m.json"), out, error));
    EXPECT_EQ(error.message(),
              QStringLiteral("m.json: options.mask[1][1] (counted from 1): should be true or "
                             "false."));
    // The core's statuses keep heads and edits from 0; the file's paths name them from 1.
    EXPECT_EQ(fileFieldOf(attn::headFailure(attn::StatusCode::ShapeMismatch, 1, "W_K")),
              QStringLiteral("projections.W_K[2]"));
    attn::Status edit{attn::StatusCode::EditScaleTooLarge, "scale"};
    edit.edit = 2;
    EXPECT_EQ(fileFieldOf(edit), QStringLiteral("edits[3].scale"));
}

TEST(SessionRead, EveryLessonSessionReadsAndWritesBackByteForByte)
{
    const QDir lessons(QStringLiteral(ATTNLAB_SOURCE_DIR "/resources/lessons"));
    const QStringList files =
        lessons.entryList({QStringLiteral("*.attnlab.json")}, QDir::Files, QDir::Name);
    ASSERT_GE(files.size(), 10);
    for (const QString& name : files) {
        SessionFile file;
        FileError error;
        ASSERT_TRUE(readSessionFile(lessons.filePath(name), file, error))
            << error.message().toStdString();
        const QByteArray written = sessionToJson(file);
        SessionFile again;
        ASSERT_TRUE(parseSessionJson(written, name, again, error)) << error.message().toStdString();
        EXPECT_EQ(sessionToJson(again), written) << name.toStdString();
    }
}

TEST(SessionRead, WriteThenReadGivesTheSameSessionAndLeavesNoTemporaryFile)
{
    QTemporaryDir dir;
    SessionFile file{defaultSession(), {}};
    const QString path = dir.filePath(QStringLiteral("s.attnlab.json"));
    FileError error;
    ASSERT_TRUE(writeSessionFile(path, file, error)) << error.message().toStdString();
    EXPECT_EQ(QDir(dir.path()).entryList(QDir::Files),
              QStringList{QStringLiteral("s.attnlab.json")});
    SessionFile back;
    ASSERT_TRUE(readSessionFile(path, back, error)) << error.message().toStdString();
    EXPECT_EQ(sessionToJson(back), testing::readBytes(path));
}

TEST(SessionRead, MissingFileAndFolderAndOversizedFileGiveMessages)
{
    QTemporaryDir dir;
    SessionFile out;
    FileError error;
    const QString missing = dir.filePath(QStringLiteral("gone.attnlab.json"));
    EXPECT_FALSE(readSessionFile(missing, out, error));
    EXPECT_TRUE(error.message().contains(missing));
    EXPECT_FALSE(readSessionFile(dir.path(), out, error));
    EXPECT_TRUE(error.message().contains(QStringLiteral("folder")));
    const QString big = dir.filePath(QStringLiteral("big.attnlab.json"));
    QFile f(big);
    ASSERT_TRUE(f.open(QIODevice::WriteOnly));
    ASSERT_TRUE(f.resize(kMaxSessionFileBytes + 1));  // sparse: no real disk use
    f.close();
    EXPECT_FALSE(readSessionFile(big, out, error));
    EXPECT_TRUE(error.message().contains(QStringLiteral("at most 512 MiB")))
        << error.message().toStdString();
}

TEST(SessionRead, AFifoAndDevZeroAreRefusedByNameWithoutBeingRead)
{
    QTemporaryDir dir;
    const QString fifo = dir.filePath(QStringLiteral("pipe.attnlab.json"));
    ASSERT_EQ(::mkfifo(QFile::encodeName(fifo).constData(), 0600), 0);
    const QString zero = dir.filePath(QStringLiteral("zero.attnlab.json"));
    ASSERT_TRUE(QFile::link(QStringLiteral("/dev/zero"), zero));
    SessionFile out;
    FileError error;
    EXPECT_FALSE(readSessionFile(fifo, out, error));
    EXPECT_EQ(error.message(), fifo + QStringLiteral(": it is a FIFO (named pipe), not a file; it "
                                                     "was not read."));
    EXPECT_FALSE(readSessionFile(zero, out, error));
    EXPECT_EQ(error.message(), zero + QStringLiteral(": it is a character device, not a file; it "
                                                     "was not read."));
}

}  // namespace
}  // namespace attnlab
