// SPDX-License-Identifier: GPL-3.0-or-later
// attnlab generate on the built-in Tang model (a real folder with its tokenizer): greedy writes
// each step's most probable token, the JSON holds what the issue names and every head's map of
// the final text, a seed gives the same text, an end-of-text id of the checkpoint's
// generation_config.json stops it and is kept, edits change what it writes, a figure is drawn,
// and every bad request is refused by name.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <QDir>
#include <QFile>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>

#include "support/cli_test_support.h"
#include "support/model_folder.h"

namespace attnlab {
namespace {

const QString kPrompt = QString::fromUtf8("床前明月光");

QStringList generateArgs(const QString& model, int count, const QStringList& more = {})
{
    return QStringList{QStringLiteral("generate"),
                       QStringLiteral("--model"),
                       model,
                       QStringLiteral("--text"),
                       kPrompt,
                       QStringLiteral("--max-new-tokens"),
                       QString::number(count)} +
           more;
}

QJsonObject generated(const QStringList& args)
{
    const test::CliRun r = test::runAttnlab(args);
    EXPECT_EQ(r.code, 0) << r.err.toStdString();
    return QJsonDocument::fromJson(r.out).object();
}

QString textOf(const QJsonObject& j)
{
    return j[QStringLiteral("text")].toString();
}

// A copy of the Tang model in `dir` with `generationConfig` as its generation_config.json.
QString tangCopy(const QTemporaryDir& dir, const QByteArray& generationConfig)
{
    const QString src = QStringLiteral(ATTNLAB_SOURCE_DIR "/resources/models/tang");
    for (const QString& name : QDir(src).entryList(QDir::Files))
        EXPECT_TRUE(QFile::copy(src + QLatin1Char('/') + name, dir.filePath(name)));
    QFile config(dir.filePath(QStringLiteral("generation_config.json")));
    EXPECT_TRUE(config.open(QIODevice::WriteOnly));
    config.write(generationConfig);
    return dir.path();
}

TEST(CliGenerate, GreedyWritesEachStepsMostProbableTokenAndEveryMapOfTheFinalText)
{
    const QJsonObject j = generated(generateArgs(QStringLiteral("builtin:tang"), 12));
    const QJsonArray ids = j[QStringLiteral("ids")].toArray();
    const QJsonArray steps = j[QStringLiteral("steps")].toArray();
    ASSERT_EQ(ids.size(), 12);
    ASSERT_EQ(steps.size(), 12);
    QString joined;
    for (qsizetype i = 0; i < steps.size(); ++i) {
        const QJsonObject step = steps[i].toObject();
        const QJsonObject best = step[QStringLiteral("top")].toArray()[0].toObject();
        EXPECT_EQ(step[QStringLiteral("id")].toInt(), ids[i].toInt());
        EXPECT_EQ(best[QStringLiteral("id")].toInt(), ids[i].toInt()) << "step " << i;
        EXPECT_DOUBLE_EQ(best[QStringLiteral("p")].toDouble(),
                         step[QStringLiteral("p")].toDouble());
        joined += j[QStringLiteral("tokens")].toArray()[i].toString();
    }
    EXPECT_EQ(textOf(j), joined);  // one character a token in the Tang model
    EXPECT_EQ(j[QStringLiteral("stopped")].toString(), QStringLiteral("max_new_tokens"));
    EXPECT_EQ(j[QStringLiteral("prompt")].toObject()[QStringLiteral("ids")].toArray().size(), 5);
    const QJsonArray layers = j[QStringLiteral("layers")].toArray();
    ASSERT_EQ(layers.size(),
              j[QStringLiteral("model")].toObject()[QStringLiteral("layers")].toInt());
    for (const QJsonValue& layer : layers)
        for (const QJsonValue& head : layer.toObject()[QStringLiteral("heads")].toArray()) {
            const QJsonArray rows = head.toObject()[QStringLiteral("weights")].toArray();
            ASSERT_EQ(rows.size(), 17);
            for (const QJsonValue& row : rows) {
                double sum = 0.0;
                for (const QJsonValue& w : row.toArray()) sum += w.toDouble();
                EXPECT_NEAR(sum, 1.0, 1e-5);
            }
        }
}

TEST(CliGenerate, ASeedGivesTheSameTextAndTemperatureDraws)
{
    const QStringList sampled = {QStringLiteral("--temperature"), QStringLiteral("1.5"),
                                 QStringLiteral("--top-k"),       QStringLiteral("40"),
                                 QStringLiteral("--top-p"),       QStringLiteral("0.95")};
    const auto withSeed = [&](const char* seed) {
        return generated(
            generateArgs(QStringLiteral("builtin:tang"), 16,
                         sampled + QStringList{QStringLiteral("--seed"), QLatin1String(seed)}));
    };
    const QJsonObject a = withSeed("7"), b = withSeed("7"), c = withSeed("8");
    EXPECT_EQ(textOf(a), textOf(b));
    EXPECT_NE(textOf(a), textOf(c));
    const QJsonObject greedy = generated(generateArgs(QStringLiteral("builtin:tang"), 16));
    EXPECT_NE(textOf(a), textOf(greedy));
    EXPECT_DOUBLE_EQ(
        a[QStringLiteral("sampling")].toObject()[QStringLiteral("temperature")].toDouble(), 1.5);
}

TEST(CliGenerate, TheCheckpointsEndOfTextIdStopsItAndIsKept)
{
    const QJsonObject free = generated(generateArgs(QStringLiteral("builtin:tang"), 8));
    const int third = free[QStringLiteral("ids")].toArray()[2].toInt();
    QTemporaryDir dir;
    const QString folder = tangCopy(
        dir, QStringLiteral("{\"eos_token_id\": %1, \"num_beams\": 4}").arg(third).toUtf8());
    const QJsonObject stopped = generated(generateArgs(folder, 8));
    const QJsonArray ids = stopped[QStringLiteral("ids")].toArray();
    ASSERT_GE(ids.size(), 1);
    EXPECT_EQ(ids.last().toInt(), third);
    EXPECT_LE(ids.size(), 3);
    EXPECT_EQ(stopped[QStringLiteral("stopped")].toString(), QStringLiteral("eos"));
    // Shown, not applied: greedy stays the argmax.
    EXPECT_EQ(stopped[QStringLiteral("generation_config")]
                  .toObject()[QStringLiteral("num_beams")]
                  .toInt(),
              4);
}

TEST(CliGenerate, TheGenerationConfigIsNeverOverwrittenAndASpecialFileIsRefused)
{
    QTemporaryDir dir;
    const QByteArray config = "{\"num_beams\": 2}";
    const QString folder = tangCopy(dir, config);
    const QString own = dir.filePath(QStringLiteral("generation_config.json"));
    const test::CliRun same =
        test::runAttnlab(generateArgs(folder, 2, {QStringLiteral("-o"), own}));
    EXPECT_EQ(same.code, 4) << same.err.toStdString();
    QFile kept(own);
    ASSERT_TRUE(kept.open(QIODevice::ReadOnly));
    EXPECT_EQ(kept.readAll(), config);
    kept.close();
    // A FIFO (or a device) in its place is named, and nothing blocks on it.
    ASSERT_TRUE(QFile::remove(own));
    ASSERT_EQ(::mkfifo(QFile::encodeName(own).constData(), 0600), 0);
    const test::CliRun fifo = test::runAttnlab(generateArgs(folder, 2));
    EXPECT_EQ(fifo.code, 3) << fifo.err.toStdString();
    EXPECT_TRUE(fifo.err.contains(QLatin1String("generation_config.json")))
        << fifo.err.toStdString();
}

TEST(CliGenerate, AnAblationAppliesAtEveryToken)
{
    const QJsonObject plain = generated(generateArgs(QStringLiteral("builtin:tang"), 6));
    QStringList ablate;
    for (int l = 1; l <= 3; ++l)
        for (int h = 1; h <= 4; ++h)
            ablate << QStringLiteral("--ablate")
                   << QStringLiteral("layer=%1,head=%2").arg(l).arg(h);
    const QJsonObject ablated = generated(generateArgs(QStringLiteral("builtin:tang"), 6, ablate));
    const QJsonArray a = plain[QStringLiteral("steps")].toArray();
    const QJsonArray b = ablated[QStringLiteral("steps")].toArray();
    ASSERT_EQ(a.size(), b.size());
    EXPECT_NE(a[0].toObject()[QStringLiteral("p")].toDouble(),
              b[0].toObject()[QStringLiteral("p")].toDouble());
}

TEST(CliGenerate, AFigureOfOneHeadOfTheFinalTextIsDrawn)
{
    QTemporaryDir dir;
    const QString png = dir.filePath(QStringLiteral("head.png"));
    const test::CliRun r = test::runAttnlab(
        generateArgs(QStringLiteral("builtin:tang"), 4,
                     {QStringLiteral("-o"), png, QStringLiteral("--layer"), QStringLiteral("2"),
                      QStringLiteral("--head"), QStringLiteral("3")}));
    ASSERT_EQ(r.code, 0) << r.err.toStdString();
    const QImage image(png);
    EXPECT_GT(image.width(), 100);
}

TEST(CliGenerate, BadRequestsAreRefusedByName)
{
    const struct {
        QStringList more;
        int count;
        const char* named;
    } cases[] = {
        {{}, 0, "--max-new-tokens"},
        {{QStringLiteral("--temperature"), QStringLiteral("-1")}, 2, "--temperature"},
        {{QStringLiteral("--temperature"), QStringLiteral("nan")}, 2, "--temperature"},
        {{QStringLiteral("--top-p"), QStringLiteral("0")}, 2, "--top-p"},
        {{QStringLiteral("--top-p"), QStringLiteral("1.5")}, 2, "--top-p"},
        {{QStringLiteral("--top-k"), QStringLiteral("-3")}, 2, "--top-k"},
        {{QStringLiteral("--layer"), QStringLiteral("9")}, 2, "--layer 9"},
    };
    for (const auto& c : cases) {
        const test::CliRun r =
            test::runAttnlab(generateArgs(QStringLiteral("builtin:tang"), c.count, c.more));
        EXPECT_EQ(r.code, 2) << c.named;
        EXPECT_TRUE(r.err.contains(QLatin1String(c.named))) << r.err.toStdString();
    }
    // A model that does not write: BERT.
    QTemporaryDir dir;
    const test::CliRun bert =
        test::runAttnlab(generateArgs(test::modelFolder(dir, "bert_tiny", false), 2));
    EXPECT_EQ(bert.code, 3) << bert.err.toStdString();
    EXPECT_TRUE(bert.err.contains(QLatin1String("does not write"))) << bert.err.toStdString();
}

}  // namespace
}  // namespace attnlab
