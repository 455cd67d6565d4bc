// SPDX-License-Identifier: GPL-3.0-or-later
// attnlab model's errors, as the person at the terminal reads them: the option that caused one
// named as it was typed, layers, heads and positions counted from 1, the tensor and the stage
// of a value that is not finite, and the exit status of a usage error for an edit's overflow.
#include <cstring>
#include <gtest/gtest.h>
#include <limits>

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>

#include "support/cli_test_support.h"
#include "support/model_folder.h"

namespace attnlab {
namespace {

QStringList modelArgs(const QString& folder)
{
    return {QStringLiteral("model"), QStringLiteral("--model"), folder, QStringLiteral("--text"),
            QStringLiteral("the cat sat.")};
}

TEST(CliModelErrors, AnEditThatOverflowsIsAUsageErrorNamingItsOption)
{
    QTemporaryDir dir;
    const QString folder = test::modelFolder(dir, "gpt2_tiny", true);
    // A query and a key of one position scaled by 3e38 each: their product is beyond any float.
    const QString query = QStringLiteral("query,layer=1,head=2,index=3,scale=3e38");
    const test::CliRun r = test::runAttnlab(
        modelArgs(folder) + QStringList{QStringLiteral("--edit"), query, QStringLiteral("--edit"),
                                        QStringLiteral("key,layer=1,head=2,index=3,scale=3e38")});
    EXPECT_EQ(r.code, 2) << r.err.toStdString();
    EXPECT_TRUE(r.err.contains(QStringLiteral("--edit ") + query)) << r.err.toStdString();
    EXPECT_TRUE(r.err.contains(QStringLiteral("layer 1 head 2"))) << r.err.toStdString();
    EXPECT_FALSE(r.err.contains(QStringLiteral("-1"))) << r.err.toStdString();
}

TEST(CliModelErrors, OutOfRangeEditsAndAblationsNameTheirOwnOption)
{
    QTemporaryDir dir;
    const QString folder = test::modelFolder(dir, "gpt2_tiny", true);
    const QString edit = QStringLiteral("key,layer=1,head=1,index=1,scale=2");
    struct Case {
        QStringList args;
        QString says;
    };
    const Case cases[] = {
        {{QStringLiteral("--edit"), QStringLiteral("key,layer=3,head=1,index=1,scale=2")},
         QStringLiteral("--edit key,layer=3,head=1,index=1,scale=2: the model has 2 layers")},
        {{QStringLiteral("--edit"), edit, QStringLiteral("--ablate"),
          QStringLiteral("layer=1,head=9")},
         QStringLiteral("--ablate layer=1,head=9: the model has 4 heads")},
        {{QStringLiteral("--edit"), QStringLiteral("value,layer=1,head=1,index=99,scale=2")},
         QStringLiteral("--edit value,layer=1,head=1,index=99,scale=2: the text has")},
        {{QStringLiteral("--ablate"), QStringLiteral("layer=2,head=1"), QStringLiteral("--ablate"),
          QStringLiteral("layer=2,head=1,mean")},
         QStringLiteral("--ablate layer=2,head=1,mean: the same as --ablate layer=2,head=1")},
    };
    for (const Case& c : cases) {
        const test::CliRun r = test::runAttnlab(modelArgs(folder) + c.args);
        EXPECT_EQ(r.code, 2) << c.args.join(QLatin1Char(' ')).toStdString();
        EXPECT_TRUE(r.err.contains(c.says)) << r.err.toStdString();
        EXPECT_FALSE(r.err.contains(QStringLiteral("edits["))) << r.err.toStdString();
    }
}

TEST(CliModelErrors, AScaleBeyondAFloatIsRefusedAsWrittenNeverAsInfinity)
{
    QTemporaryDir dir;
    const QString folder = test::modelFolder(dir, "gpt2_tiny", true);
    const test::CliRun r = test::runAttnlab(
        modelArgs(folder) + QStringList{QStringLiteral("--edit"),
                                        QStringLiteral("key,layer=1,head=1,index=1,scale=1e308")});
    EXPECT_EQ(r.code, 2);
    EXPECT_TRUE(r.err.contains(QStringLiteral("scale=1e308 is beyond the range of a float")))
        << r.err.toStdString();
    EXPECT_FALSE(r.err.contains(QStringLiteral("inf"))) << r.err.toStdString();
}

TEST(CliModelErrors, WeightsThatAreNotFiniteNameTheTensorLayerHeadAndStageFromOne)
{
    QTemporaryDir dir;
    const QString folder = test::modelFolder(dir, "gpt2_tiny", true);
    // A NaN as the first weight of layer 2's query, key and value projection.
    QFile f(folder + QStringLiteral("/model.safetensors"));
    ASSERT_TRUE(f.open(QIODevice::ReadWrite));
    QByteArray bytes = f.readAll();
    quint64 length = 0;
    std::memcpy(&length, bytes.constData(), sizeof length);
    const QJsonObject header =
        QJsonDocument::fromJson(bytes.mid(8, static_cast<qsizetype>(length))).object();
    const QJsonObject tensor = header[QStringLiteral("h.1.attn.c_attn.weight")].toObject();
    ASSERT_EQ(tensor[QStringLiteral("dtype")].toString(), QStringLiteral("F32"));
    const qint64 at = 8 + static_cast<qint64>(length) +
                      tensor[QStringLiteral("data_offsets")].toArray()[0].toInteger();
    const float nan = std::numeric_limits<float>::quiet_NaN();
    ASSERT_TRUE(f.seek(at));
    ASSERT_EQ(f.write(reinterpret_cast<const char*>(&nan), sizeof nan), 4);
    f.close();

    const test::CliRun r = test::runAttnlab(modelArgs(folder));
    EXPECT_EQ(r.code, 3);
    EXPECT_TRUE(r.err.contains(QStringLiteral("layer 2 head 1, the query vectors Q")))
        << r.err.toStdString();
    EXPECT_TRUE(r.err.contains(QStringLiteral("the weights caused it: h.1.attn.c_attn.weight")))
        << r.err.toStdString();
    EXPECT_FALSE(r.err.contains(QStringLiteral("layer 0"))) << r.err.toStdString();
    EXPECT_FALSE(r.err.contains(QStringLiteral("-1"))) << r.err.toStdString();
}

}  // namespace
}  // namespace attnlab
