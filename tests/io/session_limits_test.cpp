// SPDX-License-Identifier: GPL-3.0-or-later
// Sessions whose numbers ask for more than the file holds are refused before anything of that
// size is allocated (a file of a few bytes can declare gigabytes): a matrix or mask is sized
// from its first row and its row count, so every row is checked before it is allocated.
#include "io/support/session_limits.h"

#include <gtest/gtest.h>

#include <QByteArray>

#include "core/attention_input.h"
#include "ui/readers/session.h"
#include "ui/readers/session_file.h"

namespace attnlab {
namespace {

TEST(SessionLimits, LongFirstRowWithEmptyRowsIsRefusedBeforeTheMatrixIsAllocated)
{
    // 3 x 10^4 tokens, d_model 10^6: 3 x 10^10 doubles (240 GB) if sized from the first row, in
    // a 2.2 MB file whose other rows are empty.
    const QByteArray bytes = testing::sessionWithEmbeddingRows(30'000, 1'000'000);
    SessionFile file;
    FileError error;
    ASSERT_FALSE(parseSessionJson(bytes, QStringLiteral("big.attnlab.json"), file, error));
    EXPECT_EQ(error.field, QStringLiteral("target.embeddings[2]"));
    EXPECT_TRUE(error.problem.contains(QStringLiteral("the first row has 1000000")))
        << error.message().toStdString();
}

TEST(SessionLimits, MillionTokensAreRefusedByTheListLengthPassBeforeTheJsonTreeIsBuilt)
{
    // 10^6 tokens, d_model 10^6: 10^12 numbers asked for in a 9 MB file. The list-length pass
    // counts the tokens, so the refusal names them rather than a row found after parsing.
    const QByteArray bytes = testing::sessionWithEmbeddingRows(1'000'000, 1'000'000);
    SessionFile file;
    FileError error;
    ASSERT_FALSE(parseSessionJson(bytes, QStringLiteral("huge.attnlab.json"), file, error));
    EXPECT_EQ(error.field, QStringLiteral("target.tokens"));
    EXPECT_TRUE(error.problem.contains(QStringLiteral("1000000 tokens")))
        << error.message().toStdString();
}

TEST(SessionLimits, TokenCountJustUnderTheBudgetIsLeftToTheReader)
{
    // 40,000 tokens: 6.0 GB of float weights, just inside the 6 GiB budget, so the list-length pass
    // lets it through and the reader names the empty second row.
    const QByteArray bytes = testing::sessionWithEmbeddingRows(40'000, 3);
    SessionFile file;
    FileError error;
    ASSERT_FALSE(parseSessionJson(bytes, QStringLiteral("long.attnlab.json"), file, error));
    EXPECT_EQ(error.field, QStringLiteral("target.embeddings[2]")) << error.message().toStdString();
}

TEST(SessionLimits, TooLongForEveryStageButNotForTheWeightsIsReadAndMarked)
{
    // 17,000 tokens: every stage in double would need 6.7 GiB, the weights alone in float
    // 1.1 GiB. The reader accepts it and says so; a session that fits every stage is unmarked.
    Session s = defaultSession();
    s.dModel = 1;
    s.targetTokens = QStringList(17000, QStringLiteral("t"));
    s.input.X = attn::Matrix::Constant(17000, 1, 0.25);
    s.input.edits.clear();
    s.sourceTokens.clear();
    s.input.Y.resize(0, 1);
    randomiseProjections(s, 1, 1, 1, 3);
    ASSERT_EQ(attn::validate(s.input, attn::Limits{}).code, attn::StatusCode::TooLarge);
    SessionFile file;
    FileError error;
    ASSERT_TRUE(parseSessionJson(sessionToJson(SessionFile{s, {}}), QStringLiteral("long.json"),
                                 file, error))
        << error.message().toStdString();
    EXPECT_TRUE(file.onlyWeightsFit);
    EXPECT_EQ(file.session.input.queryCount(), 17000);
    ASSERT_TRUE(parseSessionJson(sessionToJson(SessionFile{defaultSession(), {}}),
                                 QStringLiteral("small.json"), file, error));
    EXPECT_FALSE(file.onlyWeightsFit);
}

TEST(SessionLimits, MaskOfEmptyRowsIsRefusedBeforeTheMaskIsAllocated)
{
    // 4 x 10^4 tokens and as many empty mask rows: a 1.6 GB boolean matrix if allocated before
    // its rows are checked (more tokens are refused by the list-length pass's token count).
    const QByteArray bytes = testing::sessionWithMaskRows(40'000);
    SessionFile file;
    FileError error;
    ASSERT_FALSE(parseSessionJson(bytes, QStringLiteral("mask.attnlab.json"), file, error));
    EXPECT_EQ(error.field, QStringLiteral("options.mask[1]"));
    EXPECT_TRUE(error.problem.contains(QStringLiteral("40000"))) << error.message().toStdString();
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
