// SPDX-License-Identifier: GPL-3.0-or-later
// attnlab render / compute --edit (vector edits without the window) and --stage diff,
// run as the real program (ATTNLAB_BINARY).
#include <gtest/gtest.h>

#include <QFile>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>

#include "support/cli_test_support.h"
#include "support/export_test_support.h"
#include "ui/readers/session_file.h"

namespace attnlab {
namespace {

QString arg(const char* text)
{
    return QString::fromUtf8(text);
}

// One head's stage of `compute`'s JSON as a matrix.
attn::Matrix stageOf(const QByteArray& json, int head, const char* stage)
{
    const QJsonObject root = QJsonDocument::fromJson(json).object();
    const QJsonArray rows = root.value(QStringLiteral("heads"))
                                .toArray()
                                .at(head)
                                .toObject()
                                .value(QLatin1String(stage))
                                .toArray();
    attn::Matrix m(rows.size(), rows.isEmpty() ? 0 : rows.first().toArray().size());
    for (qsizetype i = 0; i < rows.size(); ++i) {
        const QJsonArray r = rows[i].toArray();
        for (qsizetype j = 0; j < r.size(); ++j) m(i, j) = r[j].toDouble();
    }
    return m;
}

test::CliRun computeLesson(const QStringList& extra)
{
    return test::runAttnlab(QStringList{arg("compute"), arg("--lesson"), arg("hand-exercise")} +
                            extra);
}

TEST(CliEdit, ComputeDoublesOneKeyCountingFromOne)
{
    const test::CliRun plain = computeLesson({});
    ASSERT_EQ(plain.code, 0) << plain.err.toStdString();
    const test::CliRun edited = computeLesson({arg("--edit"), arg("key,head=1,index=3,scale=2")});
    ASSERT_EQ(edited.code, 0) << edited.err.toStdString();
    const attn::Matrix k0 = stageOf(plain.out, 0, "K");
    const attn::Matrix k1 = stageOf(edited.out, 0, "K");
    ASSERT_EQ(k0.rows(), 4);
    for (long i = 0; i < k0.rows(); ++i) {
        const double factor = i == 2 ? 2.0 : 1.0;
        for (long j = 0; j < k0.cols(); ++j) EXPECT_DOUBLE_EQ(k1(i, j), factor * k0(i, j));
    }
    // The weights moved: the edit reached the computation, not only K.
    EXPECT_FALSE(stageOf(plain.out, 0, "weights").isApprox(stageOf(edited.out, 0, "weights")));
}

TEST(CliEdit, ComponentAndValueSetOneComponentCountingFromOne)
{
    const test::CliRun r =
        computeLesson({arg("--edit"), arg("query,head=1,index=1,component=2,value=0.5"),
                       arg("--edit"), arg("value,head=1,index=4,scale=0")});
    ASSERT_EQ(r.code, 0) << r.err.toStdString();
    EXPECT_DOUBLE_EQ(stageOf(r.out, 0, "Q")(0, 1), 0.5);
    EXPECT_EQ(stageOf(r.out, 0, "V").row(3).cwiseAbs().maxCoeff(), 0.0);
}

TEST(CliEdit, InvalidEditsExitTwoNamingTheArgument)
{
    const char* const bad[] = {
        "key,head=1,index=3",                              // nothing to change
        "keys,head=1,index=3,scale=2",                     // unknown role
        "key,head=0,index=3,scale=2",                      // heads count from 1
        "key,head=2,index=3,scale=2",                      // the lesson has one head
        "key,head=1,index=5,scale=2",                      // four tokens
        "key,head=1,index=3,scale=two",                    // not a number
        "key,head=1,index=3,scale=inf",                    // not finite
        "key,head=1,index=3,scale=2,component=9,value=1",  // d_k = 3
        "key,head=1,index=3,component=1",                  // a component needs a value
        "key,head=1,index=3,scale=2,colour=red",           // unknown field
        "key,head=1,head=1,index=3,scale=2",               // a field twice
    };
    for (const char* e : bad) {
        for (const char* command : {"compute", "render"}) {
            QStringList args{arg(command), arg("--lesson"), arg("hand-exercise"), arg("--edit"),
                             arg(e)};
            if (QLatin1String(command) == QLatin1String("render"))
                args << arg("-o") << QStringLiteral("/nonexistent/never-written.png");
            const test::CliRun r = test::runAttnlab(args);
            EXPECT_EQ(r.code, 2) << command << " --edit " << e << ": " << r.err.toStdString();
            EXPECT_TRUE(r.err.contains(QStringLiteral("--edit")))
                << e << ": " << r.err.toStdString();
        }
    }
}

TEST(CliEdit, SameVectorTwiceExitsTwo)
{
    const test::CliRun r = computeLesson({arg("--edit"), arg("key,head=1,index=3,scale=2"),
                                          arg("--edit"), arg("key,head=1,index=3,scale=3")});
    EXPECT_EQ(r.code, 2);
    EXPECT_TRUE(r.err.contains(QStringLiteral("--edit"))) << r.err.toStdString();
    EXPECT_TRUE(r.err.contains(QStringLiteral("twice"))) << r.err.toStdString();
}

TEST(CliEdit, EditsApplyOnTopOfTheSessionsEdits)
{
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    SessionFile file;
    file.session = testing::exportSession();  // its key 2 of head 1 is doubled
    const QString path = dir.filePath(QStringLiteral("s.attnlab.json"));
    FileError error;
    ASSERT_TRUE(writeSessionFile(path, file, error)) << error.message().toStdString();
    const test::CliRun r = test::runAttnlab({arg("compute"), arg("--session"), path, arg("--edit"),
                                             arg("key,head=1,index=2,scale=2"), arg("--edit"),
                                             arg("key,head=2,index=1,scale=3")});
    ASSERT_EQ(r.code, 0) << r.err.toStdString();
    SessionFile read;
    ASSERT_TRUE(readSessionFile(path, read, error));
    attn::AttentionInput plain = read.session.input;
    plain.edits.clear();
    attn::AttentionResult base;
    ASSERT_TRUE(attn::computeAttention<double>(plain, base).ok());
    const attn::Matrix k0 = stageOf(r.out, 0, "K");
    const attn::Matrix k1 = stageOf(r.out, 1, "K");
    for (long j = 0; j < k0.cols(); ++j) {
        EXPECT_DOUBLE_EQ(k0(1, j), 4.0 * base.heads[0].K(1, j));  // 2 (session) x 2
        EXPECT_DOUBLE_EQ(k1(0, j), 3.0 * base.heads[1].K(0, j));
        EXPECT_DOUBLE_EQ(k0(0, j), base.heads[0].K(0, j));
    }
}

TEST(CliEdit, DiffWithoutEditsSaysSoInsteadOfDrawingZeros)
{
    QTemporaryDir dir;
    const QString out = dir.filePath(QStringLiteral("d.png"));
    const test::CliRun r = test::runAttnlab({arg("render"), arg("--lesson"), arg("hand-exercise"),
                                             arg("--stage"), arg("diff"), arg("-o"), out});
    EXPECT_EQ(r.code, 2);
    EXPECT_TRUE(r.err.contains(QStringLiteral("no vector edits"))) << r.err.toStdString();
    EXPECT_TRUE(r.err.contains(QStringLiteral("--edit"))) << r.err.toStdString();
    EXPECT_FALSE(QFile::exists(out));
}

TEST(CliEdit, DiffOfAKeyDoubledOnTheCommandLineIsDrawn)
{
    QTemporaryDir dir;
    const QString out = dir.filePath(QStringLiteral("d.png"));
    const test::CliRun r = test::runAttnlab({arg("render"), arg("--lesson"), arg("hand-exercise"),
                                             arg("--edit"), arg("key,head=1,index=3,scale=2"),
                                             arg("--stage"), arg("diff"), arg("-o"), out});
    ASSERT_EQ(r.code, 0) << r.err.toStdString();
    QImage image;
    ASSERT_TRUE(image.load(out));
    EXPECT_GT(image.width(), 100);
}

TEST(CliEdit, AspectIsSquareOrFree)
{
    QTemporaryDir dir;
    const QString out = dir.filePath(QStringLiteral("a.png"));
    for (const char* aspect : {"square", "free"}) {
        const test::CliRun r =
            test::runAttnlab({arg("render"), arg("--lesson"), arg("hand-exercise"), arg("--aspect"),
                              arg(aspect), arg("-o"), out});
        EXPECT_EQ(r.code, 0) << aspect << ": " << r.err.toStdString();
    }
    const test::CliRun r = test::runAttnlab({arg("render"), arg("--lesson"), arg("hand-exercise"),
                                             arg("--aspect"), arg("wide"), arg("-o"), out});
    EXPECT_EQ(r.code, 2);
    EXPECT_TRUE(r.err.contains(QStringLiteral("--aspect"))) << r.err.toStdString();
}

TEST(CliEdit, HelpDescribesEditAndAspect)
{
    for (const char* command : {"render", "compute"}) {
        const test::CliRun r = test::runAttnlab({arg(command), arg("--help")});
        EXPECT_EQ(r.code, 0);
        EXPECT_TRUE(r.out.contains("--edit ROLE,head=H,index=I")) << command;
    }
    EXPECT_TRUE(test::runAttnlab({arg("render"), arg("--help")}).out.contains("--aspect"));
}

}  // namespace
}  // namespace attnlab
