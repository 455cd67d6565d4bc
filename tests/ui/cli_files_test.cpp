// SPDX-License-Identifier: GPL-3.0-or-later
// What the command line reads and writes, as an adversarial user met it: an output that is an
// input of the same command, two outputs of one file, a folder of someone else's files, a file
// or a device named as the model folder, a corpus that is a FIFO or a device, a JSON too large
// to write, arguments that are not UTF-8 or are empty. Each is refused with the file and the
// reason, before the command works, and nothing is overwritten.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>

#include "support/cli_test_support.h"
#include "support/model_folder.h"

namespace attnlab {
namespace {

QByteArray fileBytes(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

QString lessonCopy(const QTemporaryDir& dir)
{
    const QString path = dir.path() + QStringLiteral("/s.attnlab.json");
    EXPECT_TRUE(QFile::copy(
        QStringLiteral(ATTNLAB_SOURCE_DIR "/resources/lessons/hand-exercise.attnlab.json"), path));
    return path;
}

QStringList trainModel(const QString& out)
{
    return {QStringLiteral("train-model"), QStringLiteral("--task"),  QStringLiteral("induction"),
            QStringLiteral("--layers"),    QStringLiteral("1"),       QStringLiteral("--d-model"),
            QStringLiteral("8"),           QStringLiteral("--heads"), QStringLiteral("1"),
            QStringLiteral("--context"),   QStringLiteral("16"),      QStringLiteral("--steps"),
            QStringLiteral("100000"),      QStringLiteral("-o"),      out};
}

TEST(CliFiles, AnOutputThatIsTheSessionItReadsIsRefusedAndTheSessionKept)
{
    QTemporaryDir dir;
    const QString session = lessonCopy(dir);
    const QByteArray before = fileBytes(session);
    const test::CliRun run =
        test::runAttnlab({QStringLiteral("compute"), QStringLiteral("--session"), session,
                          QStringLiteral("-o"), dir.path() + QStringLiteral("/./s.attnlab.json")});
    EXPECT_EQ(run.code, 4);
    EXPECT_TRUE(run.err.contains(QStringLiteral("same file as the input")))
        << run.err.toStdString();
    EXPECT_EQ(fileBytes(session), before);
}

TEST(CliFiles, TwoOutputsOfOneFileAreRefusedBeforeTraining)
{
    QTemporaryDir dir;
    const QString out = dir.path() + QStringLiteral("/t.attnlab.json");
    const test::CliRun run = test::runAttnlab(
        {QStringLiteral("train"), QStringLiteral("--lesson"), QStringLiteral("hand-exercise"),
         QStringLiteral("--task"), QStringLiteral("previous-token"), QStringLiteral("--steps"),
         QStringLiteral("10"), QStringLiteral("-o"), out, QStringLiteral("--curve"), out});
    EXPECT_EQ(run.code, 4);
    EXPECT_TRUE(run.err.contains(QStringLiteral("same file as the output")))
        << run.err.toStdString();
    EXPECT_FALSE(QFile::exists(out));
}

TEST(CliFiles, AModelFolderThatCannotBeWrittenIsRefusedBeforeTheFirstStep)
{
    QTemporaryDir dir;
    const QString mine = dir.path() + QStringLiteral("/mine");
    ASSERT_TRUE(QDir().mkpath(mine));
    test::writeFile(mine + QStringLiteral("/config.json"), "my own");
    const QString file = dir.path() + QStringLiteral("/afile");
    test::writeFile(file, "a file");
    for (const QString& out : {mine, file, QStringLiteral("/dev/null")}) {
        const test::CliRun run = test::runAttnlab(trainModel(out));
        EXPECT_EQ(run.code, 4) << out.toStdString();
        EXPECT_FALSE(run.err.contains(QStringLiteral("step 1"))) << "refused after training";
        EXPECT_TRUE(run.err.contains(out)) << run.err.toStdString();
    }
    EXPECT_EQ(fileBytes(mine + QStringLiteral("/config.json")), "my own");
    EXPECT_EQ(fileBytes(file), "a file");
    const test::CliRun curve = test::runAttnlab(
        trainModel(dir.path() + QStringLiteral("/m")) +
        QStringList{QStringLiteral("--curve"), dir.path() + QStringLiteral("/m/training.json")});
    EXPECT_EQ(curve.code, 4);
    EXPECT_TRUE(curve.err.contains(QStringLiteral("same file as the output")))
        << curve.err.toStdString();
}

TEST(CliFiles, RetrainingIntoAFolderItWroteReplacesItAndKeepsTheCorpusReadFromIt)
{
    QTemporaryDir dir;
    const QString out = dir.path() + QStringLiteral("/m");
    const QByteArray text = QByteArray("the cat sat on the mat. ").repeated(20);
    const auto args = [&out](const QString& corpus) {
        return QStringList{
            QStringLiteral("train-model"), QStringLiteral("--corpus"), corpus,
            QStringLiteral("--layers"),    QStringLiteral("1"),        QStringLiteral("--d-model"),
            QStringLiteral("8"),           QStringLiteral("--heads"),  QStringLiteral("1"),
            QStringLiteral("--context"),   QStringLiteral("8"),        QStringLiteral("--steps"),
            QStringLiteral("2"),           QStringLiteral("-o"),       out};
    };
    test::writeFile(dir.path() + QStringLiteral("/corpus.txt"), text);
    const test::CliRun first = test::runAttnlab(args(dir.path() + QStringLiteral("/corpus.txt")));
    ASSERT_EQ(first.code, 0) << first.err.toStdString();
    const QByteArray weights = fileBytes(out + QStringLiteral("/model.safetensors"));
    // The corpus put beside the model, as the built-in models keep theirs. The folder's
    // training.json is read to see that AttnLab wrote it, not as an input of the command: the
    // same run again replaces the folder.
    const QString corpus = out + QStringLiteral("/corpus.txt");
    ASSERT_TRUE(QFile::rename(dir.path() + QStringLiteral("/corpus.txt"), corpus));
    const test::CliRun again = test::runAttnlab(args(corpus));
    ASSERT_EQ(again.code, 0) << again.err.toStdString();
    EXPECT_EQ(fileBytes(out + QStringLiteral("/model.safetensors")), weights);
    EXPECT_EQ(fileBytes(corpus), text);
    // The corpus is an input all the same: a curve may not take its place.
    const test::CliRun clash =
        test::runAttnlab(args(corpus) + QStringList{QStringLiteral("--curve"), corpus});
    EXPECT_EQ(clash.code, 4);
    EXPECT_TRUE(clash.err.contains(QStringLiteral("same file as the input")))
        << clash.err.toStdString();
    EXPECT_EQ(fileBytes(corpus), text);
}

TEST(CliFiles, ACorpusThatIsAFifoOrADeviceIsRefusedAtOnce)
{
    QTemporaryDir dir;
    const QString fifo = dir.path() + QStringLiteral("/corpus.txt");
    ASSERT_EQ(::mkfifo(QFile::encodeName(fifo).constData(), 0600), 0);
    for (const QString& corpus : {fifo, QStringLiteral("/dev/zero")}) {
        QStringList args = trainModel(dir.path() + QStringLiteral("/m"));
        args[1] = QStringLiteral("--corpus");
        args[2] = corpus;
        const test::CliRun run = test::runAttnlab(args);
        EXPECT_EQ(run.code, 3) << corpus.toStdString();
        EXPECT_TRUE(run.err.contains(corpus)) << run.err.toStdString();
        EXPECT_TRUE(run.err.contains(QStringLiteral("not a file"))) << run.err.toStdString();
    }
}

TEST(CliFiles, AnInductionContextTooShortForItsProbeIsRefusedWithTheRange)
{
    QTemporaryDir dir;
    QStringList args = trainModel(dir.path() + QStringLiteral("/m"));
    args[10] = QStringLiteral("8");
    const test::CliRun run = test::runAttnlab(args);
    EXPECT_EQ(run.code, 2);
    EXPECT_TRUE(run.err.contains(QStringLiteral("at least 16"))) << run.err.toStdString();
    args[10] = QStringLiteral("4096");
    const test::CliRun past = test::runAttnlab(args);
    EXPECT_EQ(past.code, 2);
    EXPECT_TRUE(past.err.contains(QStringLiteral("from 2 to 1024"))) << past.err.toStdString();
}

TEST(CliFiles, AModelJsonLargerThanTheLimitIsRefusedWithItsSize)
{
    QTemporaryDir dir;
    const QString folder = test::modelFolder(dir, "gpt2_tiny", true);
    const QString out = dir.path() + QStringLiteral("/out.json");
    test::CliRun run = test::runAttnlab({QStringLiteral("model"), QStringLiteral("--model"), folder,
                                         QStringLiteral("--text"), QStringLiteral("the theory"),
                                         QStringLiteral("--max-output"), QStringLiteral("4K"),
                                         QStringLiteral("-o"), out});
    EXPECT_EQ(run.code, 4);
    EXPECT_TRUE(run.err.contains(QStringLiteral("more than the limit"))) << run.err.toStdString();
    EXPECT_FALSE(QFile::exists(out));
    run = test::runAttnlab({QStringLiteral("model"), QStringLiteral("--model"), folder,
                            QStringLiteral("--text"), QStringLiteral("the theory"),
                            QStringLiteral("-o"), folder + QStringLiteral("/config.json")});
    EXPECT_EQ(run.code, 4);
    EXPECT_TRUE(run.err.contains(QStringLiteral("same file as the input")))
        << run.err.toStdString();
}

TEST(CliFiles, ArgumentsThatAreNotUtf8OrEmptyAreRefused)
{
    const test::CliRun bytes = test::runAttnlabScript(
        QStringLiteral("exec \"$0\" model --model x --text \"a$(printf '\\377')b\""));
    EXPECT_EQ(bytes.code, 2);
    EXPECT_TRUE(bytes.err.contains(QStringLiteral("not valid UTF-8 at byte 2")))
        << bytes.err.toStdString();
    const test::CliRun empty =
        test::runAttnlab({QStringLiteral("compute"), QStringLiteral("--lesson"),
                          QStringLiteral("hand-exercise"), QStringLiteral("-o"), QString()});
    EXPECT_EQ(empty.code, 2);
    EXPECT_TRUE(empty.err.contains(QStringLiteral("-o is given an empty value")))
        << empty.err.toStdString();
    QTemporaryDir dir;
    const test::CliRun model = test::runAttnlab(trainModel(QString()));
    EXPECT_EQ(model.code, 2);
    EXPECT_TRUE(model.err.contains(QStringLiteral("empty file name"))) << model.err.toStdString();
}

TEST(CliFiles, HeadScoresNeedAnMThatMeansSomethingAndSayTheModelsPositions)
{
    QTemporaryDir dir;
    const QString folder = test::modelFolder(dir, "gpt2_tiny", true);
    test::CliRun run = test::runAttnlab({QStringLiteral("heads"), QStringLiteral("--model"), folder,
                                         QStringLiteral("--m"), QStringLiteral("1")});
    EXPECT_EQ(run.code, 2);
    EXPECT_TRUE(run.err.contains(QStringLiteral("from 3"))) << run.err.toStdString();
    run = test::runAttnlab({QStringLiteral("heads"), QStringLiteral("--model"), folder,
                            QStringLiteral("--m"), QStringLiteral("17")});
    EXPECT_EQ(run.code, 3);
    EXPECT_TRUE(run.err.contains(QStringLiteral("2m = 34 tokens are more than the model's 32")))
        << run.err.toStdString();
}

// "abcXYZ def" on the induction model (a..z) was read as a b c d e f without a word; the Tang
// model dropped "Q" and left orphan bytes of 🤖. What is left out is now named on stderr and
// listed in the JSON.
TEST(CliFiles, CharactersTheVocabularyLacksAreNamedOnStderrAndInTheJson)
{
    QTemporaryDir dir;
    const QString out = dir.path() + QStringLiteral("/run.json");
    const test::CliRun run = test::runAttnlab(
        {QStringLiteral("model"), QStringLiteral("--model"), QStringLiteral("builtin:induction"),
         QStringLiteral("--text"), QStringLiteral("abcXYZ def"), QStringLiteral("-o"), out});
    ASSERT_EQ(run.code, 0) << run.err.toStdString();
    EXPECT_TRUE(run.err.contains(QStringLiteral("left out: \"X\" (byte 4)")))
        << run.err.toStdString();
    const QByteArray json = fileBytes(out);
    EXPECT_TRUE(
        json.contains("\"dropped\":[{\"text\":\"X\",\"byte\":4,\"bytes\":1,"
                      "\"fate\":\"omitted\"}"))
        << json.left(400).toStdString();
    const test::CliRun tang = test::runAttnlab(
        {QStringLiteral("model"), QStringLiteral("--model"), QStringLiteral("builtin:tang"),
         QStringLiteral("--text"), QStringLiteral("白日Q依山🤖尽")});
    ASSERT_EQ(tang.code, 0) << tang.err.toStdString();
    EXPECT_TRUE(tang.err.contains(QStringLiteral("\"Q\"")) &&
                tang.err.contains(QStringLiteral("🤖")))
        << tang.err.toStdString();
    // The five characters the poems have, and no byte of the emoji left over as a token.
    EXPECT_EQ(
        QJsonDocument::fromJson(tang.out).object().value(QStringLiteral("ids")).toArray().size(),
        5);
}

}  // namespace
}  // namespace attnlab
