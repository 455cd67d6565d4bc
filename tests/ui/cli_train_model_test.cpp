// SPDX-License-Identifier: GPL-3.0-or-later
// attnlab train-model and attnlab heads on the command line: a short run writes a folder that
// attnlab model and attnlab heads open, and bad requests get a message naming the problem
// without writing anything.
#include <gtest/gtest.h>

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>

#include "support/cli_test_support.h"

namespace attnlab {
namespace {

QStringList shortRun(const QString& out)
{
    return {QStringLiteral("train-model"), QStringLiteral("--task"),
            QStringLiteral("induction"),   QStringLiteral("--layers"),
            QStringLiteral("1"),           QStringLiteral("--heads"),
            QStringLiteral("2"),           QStringLiteral("--d-model"),
            QStringLiteral("16"),          QStringLiteral("--context"),
            QStringLiteral("32"),          QStringLiteral("--steps"),
            QStringLiteral("20"),          QStringLiteral("--batch"),
            QStringLiteral("4"),           QStringLiteral("--attention-only"),
            QStringLiteral("-o"),          out};
}

TEST(CliTrainModel, AShortRunWritesAFolderThatModelAndHeadsOpen)
{
    QTemporaryDir dir;
    const QString out = dir.path() + QStringLiteral("/m");
    const test::CliRun run = test::runAttnlab(shortRun(out));
    ASSERT_EQ(run.code, 0) << run.err.toStdString();
    EXPECT_TRUE(run.out.contains("20 steps")) << run.out.toStdString();
    for (const char* f :
         {"config.json", "model.safetensors", "vocab.json", "merges.txt", "training.json"})
        EXPECT_TRUE(QFile::exists(out + QLatin1Char('/') + QLatin1String(f))) << f;
    QFile record(out + QStringLiteral("/training.json"));
    ASSERT_TRUE(record.open(QIODevice::ReadOnly));
    const QJsonObject j = QJsonDocument::fromJson(record.readAll()).object();
    EXPECT_EQ(j.value(QStringLiteral("loss")).toArray().size(), 20);
    EXPECT_TRUE(j.value(QStringLiteral("command"))
                    .toString()
                    .startsWith(QStringLiteral("attnlab train-model --task induction")));

    const test::CliRun model =
        test::runAttnlab({QStringLiteral("model"), QStringLiteral("--model"), out,
                          QStringLiteral("--text"), QStringLiteral("abcabc")});
    EXPECT_EQ(model.code, 0) << model.err.toStdString();
    const test::CliRun heads = test::runAttnlab(
        {QStringLiteral("heads"), QStringLiteral("--model"), out, QStringLiteral("--m"),
         QStringLiteral("8"), QStringLiteral("-o"), dir.path() + QStringLiteral("/scores.json")});
    ASSERT_EQ(heads.code, 0) << heads.err.toStdString();
    QFile scores(dir.path() + QStringLiteral("/scores.json"));
    ASSERT_TRUE(scores.open(QIODevice::ReadOnly));
    const QJsonArray layers = QJsonDocument::fromJson(scores.readAll())
                                  .object()
                                  .value(QStringLiteral("layers"))
                                  .toArray();
    ASSERT_EQ(layers.size(), 1);
    const QJsonArray h = layers[0].toObject().value(QStringLiteral("heads")).toArray();
    ASSERT_EQ(h.size(), 2);
    for (const char* key : {"previous_token", "duplicate_token", "induction", "first_token"})
        EXPECT_TRUE(h[0].toObject().contains(QLatin1String(key))) << key;
}

TEST(CliTrainModel, BadRequestsAreRefusedWithTheReasonAndWriteNothing)
{
    QTemporaryDir dir;
    const QString out = dir.path() + QStringLiteral("/m");
    QStringList noTask = shortRun(out);
    noTask.removeAt(1);
    noTask.removeAt(1);
    test::CliRun run = test::runAttnlab(noTask);
    EXPECT_EQ(run.code, 2);
    EXPECT_TRUE(run.err.contains(QStringLiteral("--task induction"))) << run.err.toStdString();

    QStringList badHeads = shortRun(out);
    badHeads[6] = QStringLiteral("3");  // 16 channels in 3 heads
    run = test::runAttnlab(badHeads);
    EXPECT_EQ(run.code, 2);
    EXPECT_TRUE(run.err.contains(QStringLiteral("multiple"))) << run.err.toStdString();

    const QString corpus = dir.path() + QStringLiteral("/broken.txt");
    QFile f(corpus);
    ASSERT_TRUE(f.open(QIODevice::WriteOnly));
    f.write(QByteArray(100, 'a') + "\xC3");
    f.close();
    QStringList broken = shortRun(out);
    broken[1] = QStringLiteral("--corpus");
    broken[2] = corpus;
    run = test::runAttnlab(broken);
    EXPECT_EQ(run.code, 3);
    EXPECT_TRUE(run.err.contains(QStringLiteral("UTF-8"))) << run.err.toStdString();
    EXPECT_TRUE(run.err.contains(QStringLiteral("broken.txt"))) << run.err.toStdString();
    EXPECT_FALSE(QDir(out).exists()) << "nothing is written for a refused request";

    run = test::runAttnlab({QStringLiteral("heads"), QStringLiteral("--model"),
                            QStringLiteral("builtin:nonexistent")});
    EXPECT_EQ(run.code, 3);
    EXPECT_TRUE(run.err.contains(QStringLiteral("nonexistent"))) << run.err.toStdString();
}

}  // namespace
}  // namespace attnlab
