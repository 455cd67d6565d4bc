// SPDX-License-Identifier: GPL-3.0-or-later
// attnlab train: the real binary learns a session's projections, deterministically, and
// refuses what it cannot train with the documented exit codes.
#include <gtest/gtest.h>

#include <QFile>
#include <QTemporaryDir>

#include "core/attention.h"
#include "support/cli_test_support.h"
#include "support/session_test_support.h"
#include "ui/readers/session_file.h"

namespace attnlab {
namespace {

using test::runAttnlab;

double finalLoss(const QString& curve)
{
    const QList<QByteArray> lines = testing::readBytes(curve).trimmed().split('\n');
    return lines.isEmpty() ? -1.0 : lines.last().split(',').value(1).toDouble();
}

TEST(CliTrain, PreviousTokenRunIsDeterministicAndTheSharedRunEndsHigher)
{
    QTemporaryDir dir;
    const QString a = dir.filePath(QStringLiteral("a.attnlab.json"));
    const QString b = dir.filePath(QStringLiteral("b.attnlab.json"));
    const QString s = dir.filePath(QStringLiteral("s.attnlab.json"));
    const QStringList common{QStringLiteral("train"),
                             QStringLiteral("--lesson"),
                             QStringLiteral("shared-projections"),
                             QStringLiteral("--task"),
                             QStringLiteral("previous-token"),
                             QStringLiteral("--steps"),
                             QStringLiteral("300")};
    auto run = [&](const QString& out, const QString& curve, bool shared) {
        QStringList args = common;
        args << QStringLiteral("-o") << out << QStringLiteral("--curve") << curve;
        if (shared) args << QStringLiteral("--shared");
        return runAttnlab(args);
    };
    const auto ra = run(a, a + QStringLiteral(".csv"), false);
    ASSERT_EQ(ra.code, 0) << ra.err.toStdString();
    EXPECT_TRUE(ra.out.contains("previous-token, 300 steps of adam")) << ra.out.toStdString();
    ASSERT_EQ(run(b, b + QStringLiteral(".csv"), false).code, 0);
    EXPECT_EQ(testing::readBytes(a), testing::readBytes(b))
        << "the same run twice writes the same session";
    EXPECT_EQ(testing::readBytes(a + QStringLiteral(".csv")),
              testing::readBytes(b + QStringLiteral(".csv")));
    ASSERT_EQ(run(s, s + QStringLiteral(".csv"), true).code, 0);
    const double separate = finalLoss(a + QStringLiteral(".csv"));
    const double shared = finalLoss(s + QStringLiteral(".csv"));
    EXPECT_LT(separate, 0.05);
    EXPECT_GT(shared, 10.0 * separate);
    EXPECT_EQ(testing::readBytes(a + QStringLiteral(".csv")).count('\n'), 302)
        << "header, 300 steps, final";

    // The trained session opens, uses the task's sequence and attends to the token before.
    SessionFile sf;
    FileError error;
    ASSERT_TRUE(readSessionFile(a, sf, error)) << error.message().toStdString();
    EXPECT_FALSE(sf.session.input.sharedProjections);
    attn::AttentionResult r;
    ASSERT_TRUE(attn::computeAttention<double>(sf.session.input, r).ok());
    for (long i = 1; i < r.heads[0].weights.rows(); ++i)
        EXPECT_GT(r.heads[0].weights(i, i - 1), 0.9) << "row " << i;
    ASSERT_TRUE(readSessionFile(s, sf, error));
    EXPECT_TRUE(sf.session.input.sharedProjections);
}

TEST(CliTrain, PatternFromAnotherSessionIsLearnedOnTheSessionsOwnTokens)
{
    QTemporaryDir dir;
    QFile csv(dir.filePath(QStringLiteral("p.csv")));
    ASSERT_TRUE(csv.open(QIODevice::WriteOnly));
    csv.write("0 0 0 1\n0 0 1 0\n0 1 0 0\n1 0 0 0\n");
    csv.close();
    const QString out = dir.filePath(QStringLiteral("out.attnlab.json"));
    const auto r = runAttnlab(
        {QStringLiteral("train"), QStringLiteral("--lesson"), QStringLiteral("hand-exercise"),
         QStringLiteral("--task"), QStringLiteral("pattern:") + csv.fileName(),
         QStringLiteral("--steps"), QStringLiteral("300"), QStringLiteral("-o"), out});
    ASSERT_EQ(r.code, 0) << r.err.toStdString();
    SessionFile sf;
    FileError error;
    ASSERT_TRUE(readSessionFile(out, sf, error));
    EXPECT_EQ(sf.session.targetTokens.size(), 4);
    attn::AttentionResult res;
    ASSERT_TRUE(attn::computeAttention<double>(sf.session.input, res).ok());
    for (long i = 0; i < 4; ++i) EXPECT_GT(res.heads[0].weights(i, 3 - i), 0.8) << "row " << i;

    // That session's P as the pattern of another run: the weights of another session.
    const QString again = dir.filePath(QStringLiteral("again.attnlab.json"));
    const auto r2 = runAttnlab({QStringLiteral("train"), QStringLiteral("--lesson"),
                                QStringLiteral("hand-exercise"), QStringLiteral("--task"),
                                QStringLiteral("pattern:") + out, QStringLiteral("--steps"),
                                QStringLiteral("300"), QStringLiteral("--optimizer"),
                                QStringLiteral("sgd"), QStringLiteral("-o"), again});
    ASSERT_EQ(r2.code, 0) << r2.err.toStdString();
    ASSERT_TRUE(readSessionFile(again, sf, error));
    attn::AttentionResult res2;
    ASSERT_TRUE(attn::computeAttention<double>(sf.session.input, res2).ok());
    EXPECT_LT((res2.heads[0].weights - res.heads[0].weights).cwiseAbs().maxCoeff(), 0.15);
}

TEST(CliTrain, BadTasksAndFilesGetUsageOrInputErrorsAndWriteNothing)
{
    QTemporaryDir dir;
    const QString out = dir.filePath(QStringLiteral("never.attnlab.json"));
    const auto base = [&](const QString& task) {
        return QStringList{QStringLiteral("train"),
                           QStringLiteral("--lesson"),
                           QStringLiteral("hand-exercise"),
                           QStringLiteral("--task"),
                           task,
                           QStringLiteral("--steps"),
                           QStringLiteral("5"),
                           QStringLiteral("-o"),
                           out};
    };
    auto r = runAttnlab(base(QStringLiteral("copy")));
    EXPECT_EQ(r.code, 2);
    EXPECT_TRUE(r.err.contains(QStringLiteral("\"copy\""))) << r.err.toStdString();
    r = runAttnlab(base(QStringLiteral("coref")));
    EXPECT_EQ(r.code, 3);
    EXPECT_TRUE(r.err.contains(QStringLiteral("d_model of at least 6"))) << r.err.toStdString();
    r = runAttnlab(base(QStringLiteral("pattern:") + dir.filePath(QStringLiteral("none.csv"))));
    EXPECT_EQ(r.code, 3);
    QFile bad(dir.filePath(QStringLiteral("bad.csv")));
    ASSERT_TRUE(bad.open(QIODevice::WriteOnly));
    bad.write("1,0,0,0\n0,x,0,0\n");
    bad.close();
    r = runAttnlab(base(QStringLiteral("pattern:") + bad.fileName()));
    EXPECT_EQ(r.code, 3);
    EXPECT_TRUE(r.err.contains(QStringLiteral("line 2"))) << r.err.toStdString();
    QFile neg(dir.filePath(QStringLiteral("neg.csv")));
    ASSERT_TRUE(neg.open(QIODevice::WriteOnly));
    neg.write("1 0 0 0\n0 -1 0 0\n0 0 1 0\n0 0 0 1\n");
    neg.close();
    r = runAttnlab(base(QStringLiteral("pattern:") + neg.fileName()));
    EXPECT_EQ(r.code, 3);
    EXPECT_TRUE(r.err.contains(QStringLiteral("negative"))) << r.err.toStdString();
    QStringList noSteps = base(QStringLiteral("match"));
    noSteps[6] = QStringLiteral("0");
    EXPECT_EQ(runAttnlab(noSteps).code, 2);
    EXPECT_FALSE(QFile::exists(out));
}

}  // namespace
}  // namespace attnlab
