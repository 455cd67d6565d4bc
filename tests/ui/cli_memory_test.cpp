// SPDX-License-Identifier: GPL-3.0-or-later
// The real attnlab program, run under `ulimit -v`, refuses files whose headers ask for absurd
// sizes with at most 100 MB beyond what it needs to start: sessions asking for 10^12 numbers, a
// 40 GB mask or nested 10^6 deep (attnlab compute); checkpoints with a lying header, a
// 10^12-element tensor, a 100 MB header, a header nested 2 x 10^6 deep or 2^24 layers (attnlab
// model). The baseline
// is measured per command, by bisection, on a small file that the command accepts.
#include <gtest/gtest.h>

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>

#include "io/support/session_limits.h"
#include "support/cli_test_support.h"
#include "support/model_folder.h"
#include "support/session_test_support.h"
#include "ui/readers/session_file.h"

namespace attnlab {
namespace {

#define SKIP_UNDER_ASAN()           \
    if (!test::addressLimitWorks()) \
    GTEST_SKIP() << "AddressSanitizer reserves terabytes of address space: no ulimit -v test"

QByteArray littleEndian64(quint64 n)
{
    QByteArray out(8, '\0');
    for (int i = 0; i < 8; ++i) out[i] = static_cast<char>((n >> (8 * i)) & 0xff);
    return out;
}

QByteArray safetensors(const QByteArray& header, const QByteArray& data)
{
    return littleEndian64(static_cast<quint64>(header.size())) + header + data;
}

TEST(CliMemory, ComputeRefusesSessionsAskingForAbsurdSizesWithin100MB)
{
    SKIP_UNDER_ASAN();
    QTemporaryDir dir;
    const QString good = testing::writeBytes(
        dir.path(), QStringLiteral("good.attnlab.json"),
        sessionToJson(SessionFile{testing::lessonSession("hand-exercise"), {}}));
    const QString out = dir.filePath(QStringLiteral("out.json"));
    const qint64 baseline = test::attnlabAddressBaseline(
        {QStringLiteral("compute"), QStringLiteral("--session"), good, QStringLiteral("-o"), out});
    ASSERT_GT(baseline, 0);
    std::printf("[ baseline ] attnlab compute: %lld MiB of address space\n",
                static_cast<long long>(baseline / 1024));

    struct Case {
        const char* name;
        QByteArray bytes;
        const char* field;
    };
    const Case cases[] = {
        // 10^6 tokens x d_model 10^6 = 10^12 numbers in 9 MB of file, refused by the list-length
        // pass's
        // token count before the parser builds a JSON tree of its 3 x 10^6 values (which alone
        // peaked
        // at about 120 MB above the baseline).
        {"trillion.attnlab.json", testing::sessionWithEmbeddingRows(1'000'000, 1'000'000),
         "target.tokens"},
        // 3 x 10^4 tokens x d_model 10^6 = 3 x 10^10 numbers (240 GB) in 2.2 MB of file: under
        // the list-length pass's bound, refused by the reader at the first short row.
        {"thirty-billion.attnlab.json", testing::sessionWithEmbeddingRows(30'000, 1'000'000),
         "target.embeddings[2] (counted from 1)"},
        // 4 x 10^4 tokens and as many empty mask rows: a 1.6 GB boolean matrix.
        {"mask.attnlab.json", testing::sessionWithMaskRows(40'000), "options.mask[1]"},
        {"deep.attnlab.json", testing::sessionNested(1'000'000), "nested more than"},
    };
    for (const Case& c : cases) {
        const QString path = testing::writeBytes(dir.path(), QLatin1String(c.name), c.bytes);
        const test::CliRun r = test::runAttnlabWithAddressLimit(
            baseline + test::kAddressBudgetKiB,
            {QStringLiteral("compute"), QStringLiteral("--session"), path, QStringLiteral("-o"),
             out});
        EXPECT_EQ(r.code, 3) << c.name << ": " << r.err.toStdString();
        EXPECT_TRUE(r.err.contains(QLatin1String(c.field)))
            << c.name << ": " << r.err.toStdString();
    }
}

TEST(CliMemory, ModelRefusesCheckpointsWithLyingHeadersWithin100MB)
{
    SKIP_UNDER_ASAN();
    QTemporaryDir dir;
    const QString folder = test::modelFolder(dir, "gpt2_tiny", true);
    const QStringList args = {QStringLiteral("model"), QStringLiteral("--model"), folder,
                              QStringLiteral("--text"), QStringLiteral("x")};
    const qint64 baseline = test::attnlabAddressBaseline(args);
    ASSERT_GT(baseline, 0);
    std::printf("[ baseline ] attnlab model: %lld MiB of address space\n",
                static_cast<long long>(baseline / 1024));
    const QString weights = folder + QStringLiteral("/model.safetensors");
    const QByteArray goodWeights = testing::readBytes(weights);
    const QString configPath = folder + QStringLiteral("/config.json");
    const QByteArray goodConfig = testing::readBytes(configPath);

    QByteArray hugeHeader = R"({"__metadata__":{"note":")";
    hugeHeader += QByteArray(100'000'000 - hugeHeader.size() - 3, 'x') + "\"}}";
    const QByteArray deep(2'000'000, '[');
    struct Case {
        const char* name;
        QByteArray weights;
        const char* expected;
    };
    const Case cases[] = {
        {"header length of 10^8 in a small file", littleEndian64(100'000'000) + goodWeights.mid(8),
         "header length"},
        {"a tensor of 10^12 elements",
         safetensors(
             R"({"wte.weight":{"dtype":"F32","shape":[1000000,1000000],"data_offsets":[0,4000000000000]}})",
             "abcd"),
         "past the data section"},
        {"a 100 MB header", safetensors(hugeHeader, ""), "8 MiB limit"},
        {"a header nested 2 x 10^6 deep",
         safetensors(R"({"a":)" + deep + QByteArray(deep.size(), ']') + "}", ""),
         "entry is not a JSON object"},
    };
    for (const Case& c : cases) {
        test::writeFile(weights, c.weights);
        const test::CliRun r =
            test::runAttnlabWithAddressLimit(baseline + test::kAddressBudgetKiB, args);
        EXPECT_EQ(r.code, 3) << c.name << ": " << r.err.toStdString();
        EXPECT_TRUE(r.err.contains(QLatin1String(c.expected)))
            << c.name << ": " << r.err.toStdString();
    }

    // 2^24 layers declared in config.json, two in the checkpoint.
    test::writeFile(weights, goodWeights);
    QJsonObject config = QJsonDocument::fromJson(goodConfig).object();
    config[QStringLiteral("n_layer")] = 1 << 24;
    test::writeFile(configPath, QJsonDocument(config).toJson());
    const test::CliRun r =
        test::runAttnlabWithAddressLimit(baseline + test::kAddressBudgetKiB, args);
    EXPECT_EQ(r.code, 3) << r.err.toStdString();
    EXPECT_TRUE(r.err.contains(QStringLiteral("h.2.ln_1.weight"))) << r.err.toStdString();
}

}  // namespace
}  // namespace attnlab
