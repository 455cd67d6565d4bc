// SPDX-License-Identifier: GPL-3.0-or-later
// attnlab render / compute / lessons, run as the real program (ATTNLAB_BINARY).
#include <gtest/gtest.h>

#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QXmlStreamReader>

#include "support/cli_test_support.h"
#include "support/export_test_support.h"
#include "ui/export/numbers_export.h"
#include "ui/readers/session_file.h"

namespace attnlab {
namespace {

class Cli : public ::testing::Test {
protected:
    void SetUp() override
    {
        ASSERT_TRUE(dir.isValid());
        file.session = testing::exportSession();
        session = dir.filePath(QStringLiteral("s.attnlab.json"));
        FileError error;
        ASSERT_TRUE(writeSessionFile(session, file, error)) << error.message().toStdString();
    }
    QString path(const char* name) const { return dir.filePath(QLatin1String(name)); }

    QTemporaryDir dir;
    SessionFile file;
    QString session;
};

TEST(CliUsage, HelpAndVersionSucceed)
{
    const test::CliRun help = test::runAttnlab({QStringLiteral("--help")});
    EXPECT_EQ(help.code, 0);
    EXPECT_TRUE(help.out.contains("attnlab render"));
    EXPECT_TRUE(help.out.contains("attnlab compute"));
    const test::CliRun renderHelp =
        test::runAttnlab({QStringLiteral("render"), QStringLiteral("--help")});
    EXPECT_EQ(renderHelp.code, 0);
    EXPECT_TRUE(renderHelp.out.contains("--stage"));
    const test::CliRun version = test::runAttnlab({QStringLiteral("--version")});
    EXPECT_EQ(version.code, 0);
    EXPECT_TRUE(version.out.startsWith("attnlab "));
}

TEST(CliUsage, HelpNamesNoBenchmark)
{
    // The benchmarks are attnlab-bench, a developer's tool: the installed program offers none.
    const test::CliRun help = test::runAttnlab({QStringLiteral("--help")});
    EXPECT_EQ(help.code, 0);
    const QString text = QString::fromUtf8(help.out);
    EXPECT_TRUE(text.contains(QStringLiteral("attnlab model")));
    // "bench" as a word of its own ("bench-ui", "attnlab-bench"), not inside "workbench".
    const QRegularExpression bench(QStringLiteral("(^|[^a-z])bench"),
                                   QRegularExpression::CaseInsensitiveOption);
    EXPECT_FALSE(text.contains(bench)) << text.toStdString();
}

TEST(CliUsage, OutputThatCannotBeWrittenExitsFourEvenForHelpAndLessons)
{
    // /dev/full takes nothing: every command that prints must say so and exit 4.
    for (const QStringList& args :
         {QStringList{QStringLiteral("--help")}, QStringList{QStringLiteral("--version")},
          QStringList{QStringLiteral("lessons")},
          QStringList{QStringLiteral("render"), QStringLiteral("--help")}}) {
        QProcess p;
        p.setStandardOutputFile(QStringLiteral("/dev/full"));
        p.start(QStringLiteral(ATTNLAB_BINARY), args);
        ASSERT_TRUE(p.waitForFinished(30000));
        EXPECT_EQ(p.exitCode(), 4) << args.join(QLatin1Char(' ')).toStdString();
        const QString err = QString::fromUtf8(p.readAllStandardError());
        EXPECT_TRUE(err.contains(QStringLiteral("standard output"))) << err.toStdString();
        // No warning about XDG_RUNTIME_DIR on a headless command.
        EXPECT_FALSE(err.contains(QStringLiteral("XDG_RUNTIME_DIR"))) << err.toStdString();
    }
}

TEST(CliUsage, VersionEndsWithANewline)
{
    const test::CliRun version = test::runAttnlab({QStringLiteral("--version")});
    EXPECT_TRUE(version.out.endsWith('\n'));
    EXPECT_FALSE(version.err.contains(QStringLiteral("XDG_RUNTIME_DIR")));
}

TEST(CliUsage, LessonsListsTheBuiltInLessons)
{
    const test::CliRun r = test::runAttnlab({QStringLiteral("lessons")});
    EXPECT_EQ(r.code, 0);
    EXPECT_TRUE(r.out.startsWith("hand-exercise "));  // lessons_test.cpp checks them all
}

TEST(CliUsage, WrongUsageExitsTwoWithUsageOnStderr)
{
    const QStringList cases[] = {
        {QStringLiteral("render"), QStringLiteral("-o"), QStringLiteral("x.png")},
        {QStringLiteral("compute")},
        {QStringLiteral("compute"), QStringLiteral("--frobnicate")},
        {QStringLiteral("render"), QStringLiteral("--lesson"), QStringLiteral("a"),
         QStringLiteral("--stage"), QStringLiteral("softmax"), QStringLiteral("-o"),
         QStringLiteral("x.png")},
        {QStringLiteral("render"), QStringLiteral("--lesson"), QStringLiteral("a"),
         QStringLiteral("-o"), QStringLiteral("x.bmp")},
        {QStringLiteral("render"), QStringLiteral("--lesson"), QStringLiteral("a"),
         QStringLiteral("--scale"), QStringLiteral("0"), QStringLiteral("-o"),
         QStringLiteral("x.png")},
        {QStringLiteral("compute"), QStringLiteral("--lesson"), QStringLiteral("a"),
         QStringLiteral("-o"), QStringLiteral("x.txt")},
    };
    for (const QStringList& args : cases) {
        const test::CliRun r = test::runAttnlab(args);
        EXPECT_EQ(r.code, 2) << args.join(QLatin1Char(' ')).toStdString();
        EXPECT_TRUE(r.err.contains(QStringLiteral("Usage:"))) << r.err.toStdString();
    }
}

TEST(CliUsage, UnknownLessonExitsThree)
{
    const test::CliRun r = test::runAttnlab(
        {QStringLiteral("compute"), QStringLiteral("--lesson"), QStringLiteral("dk-collapse")});
    EXPECT_EQ(r.code, 3);
    EXPECT_TRUE(r.err.contains(QStringLiteral("no lesson named dk-collapse")));
}

TEST_F(Cli, MissingOrBadSessionFileExitsThreeNamingTheFile)
{
    const QString missing = path("missing.attnlab.json");
    test::CliRun r =
        test::runAttnlab({QStringLiteral("compute"), QStringLiteral("--session"), missing});
    EXPECT_EQ(r.code, 3);
    EXPECT_TRUE(r.err.contains(missing)) << r.err.toStdString();
    const QString bad = path("bad.attnlab.json");
    QFile f(bad);
    ASSERT_TRUE(f.open(QIODevice::WriteOnly));
    f.write("{\"format\": ");
    f.close();
    r = test::runAttnlab({QStringLiteral("render"), QStringLiteral("--session"), bad,
                          QStringLiteral("-o"), path("x.png")});
    EXPECT_EQ(r.code, 3);
    EXPECT_TRUE(r.err.contains(bad)) << r.err.toStdString();
}

TEST_F(Cli, UnwritableOutputExitsFour)
{
    const QString out = path("no/such/folder/x.png");
    test::CliRun r = test::runAttnlab({QStringLiteral("render"), QStringLiteral("--session"),
                                       session, QStringLiteral("-o"), out});
    EXPECT_EQ(r.code, 4) << r.err.toStdString();
    r = test::runAttnlab({QStringLiteral("compute"), QStringLiteral("--session"), session,
                          QStringLiteral("-o"), path("no/such/folder/x.json")});
    EXPECT_EQ(r.code, 4) << r.err.toStdString();
}

TEST_F(Cli, HeadBeyondTheSessionIsWrongUsage)
{
    const test::CliRun r = test::runAttnlab({QStringLiteral("render"), QStringLiteral("--session"),
                                             session, QStringLiteral("--head"), QStringLiteral("3"),
                                             QStringLiteral("-o"), path("x.png")});
    EXPECT_EQ(r.code, 2) << r.err.toStdString();
}

TEST_F(Cli, RenderPngHasTheRequestedPixelSize)
{
    const QString out = path("w.png");
    const test::CliRun r = test::runAttnlab(
        {QStringLiteral("render"), QStringLiteral("--session"), session, QStringLiteral("-o"), out,
         QStringLiteral("--width"), QStringLiteral("500"), QStringLiteral("--height"),
         QStringLiteral("400"), QStringLiteral("--scale"), QStringLiteral("3")});
    ASSERT_EQ(r.code, 0) << r.err.toStdString();
    QImage image;
    ASSERT_TRUE(image.load(out));
    EXPECT_EQ(image.width(), 1500);
    EXPECT_EQ(image.height(), 1200);
}

TEST_F(Cli, RenderSvgIsVectorsWithTokenText)
{
    const QString out = path("p.svg");
    const test::CliRun r = test::runAttnlab(
        {QStringLiteral("render"), QStringLiteral("--session"), session, QStringLiteral("--stage"),
         QStringLiteral("pipeline"), QStringLiteral("-o"), out});
    ASSERT_EQ(r.code, 0) << r.err.toStdString();
    QFile f(out);
    ASSERT_TRUE(f.open(QIODevice::ReadOnly));
    QXmlStreamReader xml(&f);
    QStringList texts;
    int shapes = 0, images = 0;
    while (!xml.atEnd()) {
        if (xml.readNext() != QXmlStreamReader::StartElement) continue;
        if (xml.name() == QLatin1String("text"))
            texts << xml.readElementText(QXmlStreamReader::IncludeChildElements).trimmed();
        else if (xml.name() == QLatin1String("rect") || xml.name() == QLatin1String("path"))
            ++shapes;
        else if (xml.name() == QLatin1String("image"))
            ++images;
    }
    EXPECT_FALSE(xml.hasError()) << xml.errorString().toStdString();
    EXPECT_EQ(images, 0);
    EXPECT_GT(shapes, 9 * 18);
    for (const QString& token : file.session.targetTokens)
        EXPECT_TRUE(texts.contains(token)) << token.toStdString();
}

TEST_F(Cli, TokensWithControlCharactersAndHugeTokensGiveValidShortLabels)
{
    // A control character is not allowed in XML 1.0; a 1 MB token would be drawn whole.
    SessionFile odd = file;
    odd.session.targetTokens[0] =
        QStringLiteral("a") + QChar(0) + QStringLiteral("b") + QChar(0x1f) + QChar(0x7f);
    odd.session.targetTokens[1] = QString(1 << 20, QLatin1Char('x'));
    const QString in = path("odd.attnlab.json");
    FileError error;
    ASSERT_TRUE(writeSessionFile(in, odd, error)) << error.message().toStdString();
    for (const char* stage : {"weights", "pipeline"}) {
        const QString out = path("odd.svg");
        const test::CliRun r = test::runAttnlab(
            {QStringLiteral("render"), QStringLiteral("--session"), in, QStringLiteral("--stage"),
             QLatin1String(stage), QStringLiteral("-o"), out});
        ASSERT_EQ(r.code, 0) << r.err.toStdString();
        QFile f(out);
        ASSERT_TRUE(f.open(QIODevice::ReadOnly));
        EXPECT_LT(f.size(), 1 << 20) << "the huge token (1 MiB) was drawn whole";
        QXmlStreamReader xml(&f);
        QStringList texts;
        while (!xml.atEnd()) {
            if (xml.readNext() == QXmlStreamReader::StartElement &&
                xml.name() == QLatin1String("text"))
                texts << xml.readElementText(QXmlStreamReader::IncludeChildElements).trimmed();
        }
        EXPECT_FALSE(xml.hasError()) << stage << ": " << xml.errorString().toStdString();
        // The control characters are named (Unicode's control pictures), the huge one shortened.
        const QString named = QStringLiteral("a") + QChar(0x2400) + QStringLiteral("b") +
                              QChar(0x241f) + QChar(0x2421);
        EXPECT_TRUE(texts.contains(named)) << stage;
        bool shortened = false;
        for (const QString& t : texts)
            shortened = shortened || (t.startsWith(QStringLiteral("xxxx")) &&
                                      t.endsWith(QChar(0x2026)) && t.size() < 64);
        EXPECT_TRUE(shortened) << stage;
    }
}

TEST_F(Cli, RenderPdfAndEveryStageSucceed)
{
    const QString pdf = path("d.pdf");
    test::CliRun r = test::runAttnlab({QStringLiteral("render"), QStringLiteral("--session"),
                                       session, QStringLiteral("--stage"), QStringLiteral("diff"),
                                       QStringLiteral("-o"), pdf});
    ASSERT_EQ(r.code, 0) << r.err.toStdString();
    QFile f(pdf);
    ASSERT_TRUE(f.open(QIODevice::ReadOnly));
    EXPECT_TRUE(f.read(5).startsWith("%PDF"));
    for (const char* stage :
         {"X", "Q", "K", "V", "scores", "scaled", "mask", "weights", "output", "combined"}) {
        r = test::runAttnlab({QStringLiteral("render"), QStringLiteral("--session"), session,
                              QStringLiteral("--stage"), QLatin1String(stage),
                              QStringLiteral("--head"), QStringLiteral("all"),
                              QStringLiteral("--range"), QStringLiteral("-1,1"),
                              QStringLiteral("-o"), path("s.png")});
        EXPECT_EQ(r.code, 0) << stage << r.err.toStdString();
    }
}

TEST_F(Cli, ComputeJsonEqualsTheCoreBitForBit)
{
    const test::CliRun r =
        test::runAttnlab({QStringLiteral("compute"), QStringLiteral("--session"), session});
    ASSERT_EQ(r.code, 0) << r.err.toStdString();
    QJsonParseError err;
    const QJsonObject root = QJsonDocument::fromJson(r.out, &err).object();
    ASSERT_EQ(err.error, QJsonParseError::NoError);
    // The same input as the program read: the file (written bit-exact) read back.
    SessionFile read;
    FileError ferr;
    ASSERT_TRUE(readSessionFile(session, read, ferr));
    attn::AttentionResult expected;
    ASSERT_TRUE(attn::computeAttention<double>(read.session.input, expected).ok());
    const QJsonArray heads = root.value(QStringLiteral("heads")).toArray();
    ASSERT_EQ(heads.size(), static_cast<qsizetype>(expected.heads.size()));
    QString why;
    for (qsizetype h = 0; h < heads.size(); ++h) {
        const attn::HeadResult& hr = expected.heads[static_cast<std::size_t>(h)];
        const QJsonObject o = heads[h].toObject();
        for (const auto& [key, m] :
             {std::pair{"Q", &hr.Q}, std::pair{"K", &hr.K}, std::pair{"V", &hr.V},
              std::pair{"scores", &hr.scores}, std::pair{"scaled", &hr.scaled},
              std::pair{"weights", &hr.weights}, std::pair{"output", &hr.output}})
            EXPECT_TRUE(testing::equalsJsonRows(o.value(QLatin1String(key)), *m, why))
                << key << ": " << why.toStdString();
        EXPECT_TRUE(o.value(QStringLiteral("mask")).toArray()[0].toArray()[0].isBool());
    }
    EXPECT_TRUE(testing::equalsJsonRows(root.value(QStringLiteral("output")), expected.output, why))
        << why.toStdString();
}

TEST_F(Cli, ComputeWritesJsonAndLongCsvFiles)
{
    test::CliRun r = test::runAttnlab({QStringLiteral("compute"), QStringLiteral("--session"),
                                       session, QStringLiteral("-o"), path("n.json")});
    ASSERT_EQ(r.code, 0) << r.err.toStdString();
    EXPECT_TRUE(QFile::exists(path("n.json")));
    r = test::runAttnlab({QStringLiteral("compute"), QStringLiteral("--session"), session,
                          QStringLiteral("-o"), path("n.csv")});
    ASSERT_EQ(r.code, 0) << r.err.toStdString();
    QFile f(path("n.csv"));
    ASSERT_TRUE(f.open(QIODevice::ReadOnly));
    EXPECT_EQ(f.readLine().trimmed(), QByteArray("head,stage,row,col,row_token,col_token,value"));
}

// A session of n tokens with d_model = d_k = d_v = 1, written to `file`.
bool writeTokens(const QString& file, int n)
{
    SessionFile f;
    Session& s = f.session;
    s.dModel = 1;
    for (int i = 0; i < n; ++i) s.targetTokens << QStringLiteral("t%1").arg(i);
    s.input.X = attn::Matrix::Constant(n, 1, 0.5);
    randomiseProjections(s, 1, 1, 1, 3);
    FileError error;
    const bool ok = writeSessionFile(file, f, error);
    EXPECT_TRUE(ok) << error.message().toStdString();
    return ok;
}

TEST_F(Cli, ComputeOfAHugeSessionIsRefusedBeforeItStartsSayingWhatItWouldNeed)
{
    // n = 9,000 tokens (d = 1): about 5 GB of JSON, refused before the core runs.
    const QString in = path("big.attnlab.json");
    ASSERT_TRUE(writeTokens(in, 9000));
    const QString out = path("big.json");
    test::CliRun r = test::runAttnlab(
        {QStringLiteral("compute"), QStringLiteral("--session"), in, QStringLiteral("-o"), out});
    EXPECT_EQ(r.code, 4) << r.err.toStdString();
    EXPECT_TRUE(r.err.contains(QStringLiteral("This would write about"))) << r.err.toStdString();
    EXPECT_TRUE(r.err.contains(QStringLiteral("--max-output"))) << r.err.toStdString();
    EXPECT_FALSE(QFileInfo::exists(out));
    // A limit that is not a size is wrong usage.
    r = test::runAttnlab({QStringLiteral("compute"), QStringLiteral("--session"), in,
                          QStringLiteral("--max-output"), QStringLiteral("lots")});
    EXPECT_EQ(r.code, 2);
    // The estimate is near the truth for a session that fits (within a factor of 2).
    const QString small = path("small.json");
    r = test::runAttnlab({QStringLiteral("compute"), QStringLiteral("--session"), session,
                          QStringLiteral("-o"), small});
    ASSERT_EQ(r.code, 0);
    const double ratio =
        static_cast<double>(QFileInfo(small).size()) /
        static_cast<double>(estimateNumbersBytes(file.session.input, NumbersFormat::Json));
    EXPECT_GT(ratio, 0.3);
    EXPECT_LT(ratio, 2.0);
}

TEST_F(Cli, RenderAndComputeOfASessionOnlyTheLongPathCanHoldPointToTheWindow)
{
    // 17,000 tokens: every stage in double needs 6.7 GiB, the weights alone 1.1 GiB in float.
    const QString in = path("long.attnlab.json");
    ASSERT_TRUE(writeTokens(in, 17000));
    for (const char* command : {"compute", "render"}) {
        const QString out = path(std::string(command) == "render" ? "long.png" : "long.json");
        const test::CliRun r = test::runAttnlab(
            {QLatin1String(command), QStringLiteral("--session"), in, QStringLiteral("-o"), out});
        EXPECT_EQ(r.code, 3) << command << ": " << r.err.toStdString();
        EXPECT_TRUE(r.err.contains(QStringLiteral("MiB"))) << r.err.toStdString();
        EXPECT_TRUE(r.err.contains(QStringLiteral("Open it in the window"))) << r.err.toStdString();
        EXPECT_FALSE(QFileInfo::exists(out)) << command;
    }
}

}  // namespace
}  // namespace attnlab
