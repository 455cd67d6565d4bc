// Sessions whose numbers ask for more than the file holds are refused before anything of that
// size is allocated (found while fuzzing the reader, issue 13): a matrix or mask is sized from
// its first row and its row count, so every row is checked before it is allocated.
#include "support/session_limits.h"

#include <gtest/gtest.h>

#include <QByteArray>

#include "ui/io/session_file.h"

namespace attnlab {
namespace {

TEST(SessionLimits, LongFirstRowWithEmptyRowsIsRefusedBeforeTheMatrixIsAllocated)
{
    // 10^5 tokens, d_model 10^6: 10^11 doubles (800 GB) if sized from the first row, in a 2.6 MB
    // file whose other rows are empty.
    const QByteArray bytes = testing::sessionWithEmbeddingRows(100'000, 1'000'000);
    SessionFile file;
    FileError error;
    ASSERT_FALSE(parseSessionJson(bytes, QStringLiteral("big.attnlab.json"), file, error));
    EXPECT_EQ(error.field, QStringLiteral("target.embeddings[1]"));
    EXPECT_TRUE(error.problem.contains(QStringLiteral("the first row has 1000000")))
        << error.message().toStdString();
}

TEST(SessionLimits, MaskOfEmptyRowsIsRefusedBeforeTheMaskIsAllocated)
{
    // 2 x 10^5 tokens and as many empty mask rows: a 40 GB boolean matrix if allocated before
    // its rows are checked.
    const QByteArray bytes = testing::sessionWithMaskRows(200'000);
    SessionFile file;
    FileError error;
    ASSERT_FALSE(parseSessionJson(bytes, QStringLiteral("mask.attnlab.json"), file, error));
    EXPECT_EQ(error.field, QStringLiteral("options.mask[0]"));
    EXPECT_TRUE(error.problem.contains(QStringLiteral("200000"))) << error.message().toStdString();
}

TEST(SessionLimits, NestingAMillionDeepIsRefusedByThePrescan)
{
    const QByteArray bytes = testing::sessionNested(1'000'000);
    SessionFile file;
    FileError error;
    ASSERT_FALSE(parseSessionJson(bytes, QStringLiteral("deep.attnlab.json"), file, error));
    EXPECT_TRUE(error.problem.contains(QStringLiteral("nested more than")))
        << error.message().toStdString();
}

}  // namespace
}  // namespace attnlab
