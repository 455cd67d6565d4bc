// SPDX-License-Identifier: GPL-3.0-or-later
// attnlab train-model --task dates and attnlab align on the command line: a short run writes a
// Marian folder that attnlab model, generate and align open, align agrees with the run's own last
// measure, and bad requests get a message naming the problem without writing anything.
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

QStringList shortDatesRun(const QString& out)
{
    return {QStringLiteral("train-model"),
            QStringLiteral("--task"),
            QStringLiteral("dates"),
            QStringLiteral("--layers"),
            QStringLiteral("1"),
            QStringLiteral("--decoder-layers"),
            QStringLiteral("1"),
            QStringLiteral("--heads"),
            QStringLiteral("2"),
            QStringLiteral("--d-model"),
            QStringLiteral("16"),
            QStringLiteral("--steps"),
            QStringLiteral("4"),
            QStringLiteral("--batch"),
            QStringLiteral("8"),
            QStringLiteral("-o"),
            out};
}

TEST(CliTrainDates, AShortRunWritesAMarianFolderThatModelGenerateAndAlignOpen)
{
    QTemporaryDir dir;
    const QString out = dir.path() + QStringLiteral("/dates");
    QStringList args = shortDatesRun(out);
    args << QStringLiteral("--curve") << dir.path() + QStringLiteral("/curve.csv");
    const test::CliRun run = test::runAttnlab(args);
    ASSERT_EQ(run.code, 0) << run.err.toStdString();
    EXPECT_TRUE(run.out.contains("4 steps")) << run.out.toStdString();
    for (const char* f :
         {"config.json", "model.safetensors", "source.spm", "target.spm", "vocab.json",
          "tokenizer_config.json", "generation_config.json", "training.json"})
        EXPECT_TRUE(QFile::exists(out + QLatin1Char('/') + QLatin1String(f))) << f;
    const QJsonObject record = test::readJsonFile(out + QStringLiteral("/training.json"));
    EXPECT_EQ(record.value(QStringLiteral("task")).toString(), QStringLiteral("dates"));
    EXPECT_EQ(record.value(QStringLiteral("loss")).toArray().size(), 4);
    const QJsonArray measures = record.value(QStringLiteral("measures")).toArray();
    ASSERT_FALSE(measures.isEmpty());
    EXPECT_EQ(measures.first().toObject().value(QStringLiteral("step")).toInt(), 0);
    const QJsonObject last = measures.last().toObject();
    EXPECT_EQ(last.value(QStringLiteral("step")).toInt(), 4);
    QFile curve(dir.path() + QStringLiteral("/curve.csv"));
    ASSERT_TRUE(curve.open(QIODevice::ReadOnly));
    EXPECT_EQ(curve.readAll().count('\n'), 5);

    const test::CliRun model =
        test::runAttnlab({QStringLiteral("model"), QStringLiteral("--model"), out,
                          QStringLiteral("--text"), QStringLiteral("2026年12月4日"),
                          QStringLiteral("--target"), QStringLiteral("December 4, 2026")});
    EXPECT_EQ(model.code, 0) << model.err.toStdString();
    const test::CliRun generate = test::runAttnlab(
        {QStringLiteral("generate"), QStringLiteral("--model"), out, QStringLiteral("--text"),
         QStringLiteral("2026/12/4"), QStringLiteral("--max-new-tokens"), QStringLiteral("3")});
    EXPECT_EQ(generate.code, 0) << generate.err.toStdString();

    // align, on the same 200 held-out dates as the run's measure, through core/model.
    const QString scores = dir.path() + QStringLiteral("/scores.json");
    const test::CliRun align = test::runAttnlab(
        {QStringLiteral("align"), QStringLiteral("--model"), out, QStringLiteral("-o"), scores});
    ASSERT_EQ(align.code, 0) << align.err.toStdString();
    EXPECT_TRUE(align.out.contains("layer head  alignment"));
    const QJsonObject j = test::readJsonFile(scores);
    const QJsonArray layers = j.value(QStringLiteral("layers")).toArray();
    ASSERT_EQ(layers.size(), 1);
    EXPECT_EQ(layers[0].toObject().value(QStringLiteral("heads")).toArray().size(), 2);
    const QJsonArray recorded = last.value(QStringLiteral("alignment")).toArray();
    for (int h = 0; h < 2; ++h)
        EXPECT_NEAR(layers[0]
                        .toObject()
                        .value(QStringLiteral("heads"))
                        .toArray()[h]
                        .toObject()
                        .value(QStringLiteral("alignment"))
                        .toDouble(),
                    recorded[0].toArray()[h].toDouble(), 0.02)
            << "head " << h + 1;
    EXPECT_EQ(j.value(QStringLiteral("count")).toInt(), 200);
}

TEST(CliTrainDates, BadRequestsAreRefusedWithTheReasonAndWriteNothing)
{
    QTemporaryDir dir;
    const QString out = dir.path() + QStringLiteral("/dates");
    QStringList bad = shortDatesRun(out);
    bad[8] = QStringLiteral("3");  // 16 channels in 3 heads
    test::CliRun run = test::runAttnlab(bad);
    EXPECT_EQ(run.code, 2);
    EXPECT_TRUE(run.err.contains(QStringLiteral("3 heads"))) << run.err.toStdString();
    bad = shortDatesRun(out);
    bad[10] = QStringLiteral("100000");
    run = test::runAttnlab(bad);
    EXPECT_EQ(run.code, 2);
    EXPECT_TRUE(run.err.contains(QStringLiteral("from 8 to 512"))) << run.err.toStdString();
    EXPECT_FALSE(QDir(out).exists());

    // A folder AttnLab did not make is not overwritten.
    ASSERT_TRUE(QDir().mkpath(out));
    QFile mine(out + QStringLiteral("/notes.txt"));
    ASSERT_TRUE(mine.open(QIODevice::WriteOnly));
    mine.write("mine");
    mine.close();
    run = test::runAttnlab(shortDatesRun(out));
    EXPECT_EQ(run.code, 4);
    EXPECT_TRUE(run.err.contains(QStringLiteral("notes.txt"))) << run.err.toStdString();
    EXPECT_FALSE(QFile::exists(out + QStringLiteral("/config.json")));

    run = test::runAttnlab(
        {QStringLiteral("align"), QStringLiteral("--model"), QStringLiteral("builtin:induction")});
    EXPECT_EQ(run.code, 3);
    EXPECT_TRUE(run.err.contains(QStringLiteral("dates"))) << run.err.toStdString();
    run = test::runAttnlab({QStringLiteral("align"), QStringLiteral("--model"), out,
                            QStringLiteral("--count"), QStringLiteral("99999")});
    EXPECT_EQ(run.code, 2);
    EXPECT_TRUE(run.err.contains(QStringLiteral("7300"))) << run.err.toStdString();
}

}  // namespace
}  // namespace attnlab
