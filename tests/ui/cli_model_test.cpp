// attnlab model: a real checkpoint folder (the tiny GPT-2 and BERT fixtures of
// tests/reference, with a small tokenizer written here) run from the command line. The maps
// must be the core's own forward pass, which tests/core/model checks against PyTorch.
#include <gtest/gtest.h>

#include <QDir>
#include <QFile>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>

#include "../core/model/model_files.h"
#include "core/model/forward.h"
#include "core/model/safetensors.h"
#include "core/tokenize/gpt2_tokenizer.h"
#include "support/cli_test_support.h"
#include "support/model_folder.h"

namespace attnlab {
namespace {

QJsonObject runJson(const QStringList& args, int& code)
{
    const test::CliRun r = test::runAttnlab(args);
    code = r.code;
    EXPECT_EQ(r.code, 0) << r.err.toStdString();
    return QJsonDocument::fromJson(r.out).object();
}

TEST(CliModel, Gpt2WritesEveryLayersAndHeadsAttentionAndTheNextTokenAsTheCoreComputesThem)
{
    QTemporaryDir dir;
    const QString folder = test::modelFolder(dir, "gpt2_tiny", true);
    int code = 0;
    const QJsonObject root = runJson({QStringLiteral("model"), QStringLiteral("--model"), folder,
                                      QStringLiteral("--text"), QStringLiteral("the cat sat.")},
                                     code);
    ASSERT_EQ(code, 0);
    EXPECT_EQ(root[QStringLiteral("model")].toObject()[QStringLiteral("type")].toString(),
              QStringLiteral("gpt2"));
    const QJsonArray tokens = root[QStringLiteral("tokens")].toArray();
    QStringList texts;
    for (const QJsonValue& t : tokens) texts << t.toString();
    EXPECT_EQ(texts, (QStringList{QStringLiteral("th"), QStringLiteral("e"), QStringLiteral(" "),
                                  QStringLiteral("c"), QStringLiteral("a"), QStringLiteral("t"),
                                  QStringLiteral(" "), QStringLiteral("s"), QStringLiteral("a"),
                                  QStringLiteral("t"), QStringLiteral(".")}));

    // The same run in the core, to the float.
    attn::model::Model model;
    ASSERT_TRUE(attn::model::Model::load(folder.toStdString(), model).ok());
    std::vector<int> ids;
    for (const QJsonValue& v : root[QStringLiteral("ids")].toArray()) ids.push_back(v.toInt());
    attn::model::ForwardResult expected;
    ASSERT_TRUE(attn::model::forward(model, ids, {}, expected).ok());
    const QJsonArray layers = root[QStringLiteral("layers")].toArray();
    ASSERT_EQ(layers.size(), 2);
    for (int l = 0; l < 2; ++l) {
        const QJsonArray heads = layers[l].toObject()[QStringLiteral("heads")].toArray();
        ASSERT_EQ(heads.size(), 4);
        for (int h = 0; h < 4; ++h) {
            const QJsonArray rows = heads[h].toObject()[QStringLiteral("weights")].toArray();
            const auto& w =
                expected.layers[static_cast<std::size_t>(l)].attention[static_cast<std::size_t>(h)];
            ASSERT_EQ(rows.size(), 11);
            for (int i = 0; i < 11; ++i)
                for (int j = 0; j < 11; ++j)
                    ASSERT_NEAR(rows[i].toArray()[j].toDouble(), w(i, j), 1e-7);
        }
    }
    const QJsonArray predictions = root[QStringLiteral("predictions")].toArray();
    ASSERT_EQ(predictions.size(), 1);
    EXPECT_EQ(predictions[0].toObject()[QStringLiteral("position")].toInt(), 10);
    const QJsonArray top = predictions[0].toObject()[QStringLiteral("top")].toArray();
    ASSERT_EQ(top.size(), 10);
    EXPECT_EQ(top[0].toObject()[QStringLiteral("id")].toInt(), expected.predictions[0].top[0].id);
    for (int k = 1; k < 10; ++k)
        EXPECT_LE(top[k].toObject()[QStringLiteral("p")].toDouble(),
                  top[k - 1].toObject()[QStringLiteral("p")].toDouble());
}

TEST(CliModel, BertPredictsEachMaskAndKeepsItsSpecialTokens)
{
    QTemporaryDir dir;
    const QString folder = test::modelFolder(dir, "bert_tiny", false);
    int code = 0;
    const QJsonObject root =
        runJson({QStringLiteral("model"), QStringLiteral("--model"), folder,
                 QStringLiteral("--text"), QStringLiteral("The animal [MASK] too tired.")},
                code);
    ASSERT_EQ(code, 0);
    QStringList texts;
    for (const QJsonValue& t : root[QStringLiteral("tokens")].toArray()) texts << t.toString();
    EXPECT_EQ(texts,
              (QStringList{QStringLiteral("[CLS]"), QStringLiteral("the"), QStringLiteral("animal"),
                           QStringLiteral("[MASK]"), QStringLiteral("too"), QStringLiteral("tired"),
                           QStringLiteral("."), QStringLiteral("[SEP]")}));
    const QJsonArray predictions = root[QStringLiteral("predictions")].toArray();
    ASSERT_EQ(predictions.size(), 1);
    EXPECT_EQ(predictions[0].toObject()[QStringLiteral("position")].toInt(), 3);
    EXPECT_EQ(predictions[0].toObject()[QStringLiteral("top")].toArray().size(), 10);
    EXPECT_EQ(root[QStringLiteral("layers")]
                  .toArray()[1]
                  .toObject()[QStringLiteral("heads")]
                  .toArray()
                  .size(),
              3);
}

TEST(CliModel, DrawsOneHeadAndRefusesBadFoldersAndIndexesWithTheirExitCodes)
{
    QTemporaryDir dir;
    const QString folder = test::modelFolder(dir, "gpt2_tiny", true);
    const QString png = dir.filePath(QStringLiteral("head.png"));
    const QStringList base = {QStringLiteral("model"), QStringLiteral("--model"), folder,
                              QStringLiteral("--text"), QStringLiteral("the cat")};
    test::CliRun r = test::runAttnlab(
        base + QStringList{QStringLiteral("--layer"), QStringLiteral("2"), QStringLiteral("--head"),
                           QStringLiteral("4"), QStringLiteral("-o"), png});
    EXPECT_EQ(r.code, 0) << r.err.toStdString();
    EXPECT_FALSE(QImage(png).isNull());
    r = test::runAttnlab(base + QStringList{QStringLiteral("--layer"), QStringLiteral("3")});
    EXPECT_EQ(r.code, 2);
    EXPECT_TRUE(r.err.contains(QStringLiteral("--layer"))) << r.err.toStdString();
    QFile::remove(folder + QStringLiteral("/vocab.json"));
    r = test::runAttnlab(base);
    EXPECT_EQ(r.code, 3);
    EXPECT_TRUE(r.err.contains(QStringLiteral("vocab.json"))) << r.err.toStdString();
    r = test::runAttnlab({QStringLiteral("model"), QStringLiteral("--model"),
                          dir.filePath(QStringLiteral("nothing")), QStringLiteral("--text"),
                          QStringLiteral("x")});
    EXPECT_EQ(r.code, 3);
    EXPECT_TRUE(r.err.contains(QStringLiteral("config.json"))) << r.err.toStdString();
    r = test::runAttnlab({QStringLiteral("model"), QStringLiteral("--text"), QStringLiteral("x")});
    EXPECT_EQ(r.code, 2);
}

}  // namespace
}  // namespace attnlab
