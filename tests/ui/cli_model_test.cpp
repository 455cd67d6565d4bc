// SPDX-License-Identifier: GPL-3.0-or-later
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
#include "core/attention.h"
#include "core/model/forward.h"
#include "core/model/head_edit.h"
#include "core/model/safetensors.h"
#include "core/tokenize/gpt2_tokenizer.h"
#include "support/cli_test_support.h"
#include "support/model_folder.h"
#include "ui/readers/session_file.h"

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
    // Positions from 1: the eleventh token's prediction.
    EXPECT_EQ(predictions[0].toObject()[QStringLiteral("position")].toInt(), 11);
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
    EXPECT_EQ(predictions[0].toObject()[QStringLiteral("position")].toInt(), 4);
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

TEST(CliModel, EditsAndAblationsPrintThePredictionsBeforeAndAfterAndWriteBothRunsAsJson)
{
    QTemporaryDir dir;
    const QString folder = test::modelFolder(dir, "gpt2_tiny", true);
    const QStringList base{QStringLiteral("model"), QStringLiteral("--model"), folder,
                           QStringLiteral("--text"), QStringLiteral("the cat sat.")};
    const QStringList edits{QStringLiteral("--edit"),
                            QStringLiteral("key,layer=1,head=2,index=3,scale=2"),
                            QStringLiteral("--ablate"), QStringLiteral("layer=2,head=1,mean")};
    test::CliRun r = test::runAttnlab(base + edits);
    ASSERT_EQ(r.code, 0) << r.err.toStdString();
    const QString text = QString::fromUtf8(r.out);
    EXPECT_TRUE(text.contains(QStringLiteral("key layer 1 head 2 index 3 x2")))
        << text.toStdString();
    EXPECT_TRUE(text.contains(QStringLiteral("ablate (mean) layer 2 head 1")));
    EXPECT_TRUE(text.contains(QStringLiteral("before, after, change")));

    const QString out = dir.filePath(QStringLiteral("edited.json"));
    r = test::runAttnlab(base + edits + QStringList{QStringLiteral("-o"), out});
    ASSERT_EQ(r.code, 0) << r.err.toStdString();
    QFile f(out);
    ASSERT_TRUE(f.open(QIODevice::ReadOnly));
    const QJsonObject root = QJsonDocument::fromJson(f.readAll()).object();
    const QJsonObject before = root[QStringLiteral("before")].toObject();
    ASSERT_EQ(before[QStringLiteral("layers")].toArray().size(), 2);
    ASSERT_EQ(before[QStringLiteral("predictions")].toArray().size(), 1);

    // The edited run is the core's runEdited on the same ids; the before, its plain forward.
    attn::model::Model model;
    ASSERT_TRUE(attn::model::Model::load(folder.toStdString(), model).ok());
    std::vector<int> ids;
    for (const QJsonValue& v : root[QStringLiteral("ids")].toArray()) ids.push_back(v.toInt());
    attn::model::ForwardResult plain, edited;
    ASSERT_TRUE(attn::model::forward(model, ids, {}, plain).ok());
    const std::vector<attn::model::HeadEdit> e{
        {attn::model::HeadEditKind::Key, 0, 1, 2, 2.0f},
        {attn::model::HeadEditKind::AblateMean, 1, 0, 0, 1.0f}};
    ASSERT_TRUE(attn::model::runEdited(model, plain, e, {}, edited).ok());
    const auto weight = [](const QJsonObject& run, int l, int h, int i, int j) {
        return run[QStringLiteral("layers")]
            .toArray()[l]
            .toObject()[QStringLiteral("heads")]
            .toArray()[h]
            .toObject()[QStringLiteral("weights")]
            .toArray()[i]
            .toArray()[j]
            .toDouble();
    };
    EXPECT_NEAR(weight(root, 0, 1, 5, 2), edited.layers[0].attention[1](5, 2), 1e-6);
    EXPECT_NEAR(weight(before, 0, 1, 5, 2), plain.layers[0].attention[1](5, 2), 1e-6);
    EXPECT_NE(weight(root, 0, 1, 5, 2), weight(before, 0, 1, 5, 2));
    EXPECT_EQ(root[QStringLiteral("predictions")]
                  .toArray()[0]
                  .toObject()[QStringLiteral("top")]
                  .toArray()[0]
                  .toObject()[QStringLiteral("id")]
                  .toInt(),
              edited.predictions[0].top[0].id);

    // Bad edits: exit 2, naming the argument.
    for (const QStringList& bad :
         {QStringList{QStringLiteral("--edit"),
                      QStringLiteral("key,layer=3,head=1,index=1,scale=2")},
          QStringList{QStringLiteral("--edit"),
                      QStringLiteral("key,layer=1,head=1,index=99,scale=2")},
          QStringList{QStringLiteral("--edit"),
                      QStringLiteral("keys,layer=1,head=1,index=1,scale=2")},
          QStringList{QStringLiteral("--edit"), QStringLiteral("key,layer=1,head=1,index=1")},
          QStringList{QStringLiteral("--ablate"), QStringLiteral("layer=1,head=9")},
          QStringList{QStringLiteral("--ablate"), QStringLiteral("layer=1,head=1,median")}}) {
        r = test::runAttnlab(base + bad);
        EXPECT_EQ(r.code, 2) << bad.join(QLatin1Char(' ')).toStdString();
        EXPECT_FALSE(r.err.isEmpty());
    }
}

TEST(CliModel, SessionOutWritesOneHeadAsAWorkbenchSessionWhoseMapIsTheModels)
{
    QTemporaryDir dir;
    const QString folder = test::modelFolder(dir, "gpt2_tiny", true);
    const QString session = dir.filePath(QStringLiteral("head.attnlab.json"));
    const QStringList base{QStringLiteral("model"), QStringLiteral("--model"), folder,
                           QStringLiteral("--text"), QStringLiteral("the cat sat.")};
    test::CliRun r = test::runAttnlab(
        base + QStringList{QStringLiteral("--layer"), QStringLiteral("2"), QStringLiteral("--head"),
                           QStringLiteral("3"), QStringLiteral("--session-out"), session});
    ASSERT_EQ(r.code, 0) << r.err.toStdString();
    EXPECT_TRUE(r.out.isEmpty());  // without -o only the session is written
    SessionFile file;
    FileError error;
    ASSERT_TRUE(readSessionFile(session, file, error)) << error.message().toStdString();
    ASSERT_TRUE(file.session.provenance.has_value());
    EXPECT_EQ(file.session.provenance->layer, 1);  // from 0 in the file
    EXPECT_EQ(file.session.provenance->head, 2);
    EXPECT_EQ(file.session.provenance->sha256.size(), 64);
    EXPECT_EQ(QJsonDocument::fromJson([&] {
                  QFile f(session);
                  f.open(QIODevice::ReadOnly);
                  return f.readAll();
              }())
                  .object()[QStringLiteral("version")]
                  .toInt(),
              2);
    // Its map is the model's map of that head.
    attn::model::Model model;
    ASSERT_TRUE(attn::model::Model::load(folder.toStdString(), model).ok());
    std::vector<int> ids;
    int code = 0;
    const QJsonObject root = runJson(base, code);
    for (const QJsonValue& id : root[QStringLiteral("ids")].toArray()) ids.push_back(id.toInt());
    attn::model::ForwardResult run;
    ASSERT_TRUE(attn::model::forward(model, ids, {}, run).ok());
    attn::AttentionResult workbench;
    ASSERT_TRUE(attn::computeAttention<double>(file.session.input, workbench).ok());
    EXPECT_LE((run.layers[1].attention[2].cast<double>() - workbench.heads[0].weights)
                  .cwiseAbs()
                  .maxCoeff(),
              1e-5);
    // The workbench's exports work on it: its map, and the difference a doubled key makes.
    for (const char* stage : {"weights", "diff"}) {
        const QString png = dir.filePath(QStringLiteral("head-%1.png").arg(QLatin1String(stage)));
        r = test::runAttnlab(
            {QStringLiteral("render"), QStringLiteral("--session"), session,
             QStringLiteral("--stage"), QLatin1String(stage), QStringLiteral("--edit"),
             QStringLiteral("key,head=1,index=2,scale=2"), QStringLiteral("-o"), png});
        EXPECT_EQ(r.code, 0) << stage << ": " << r.err.toStdString();
        EXPECT_FALSE(QImage(png).isNull()) << stage;
    }
    // A session path that is not a session file, and a head outside the model: exit 2.
    r = test::runAttnlab(
        base + QStringList{QStringLiteral("--session-out"), dir.filePath(QStringLiteral("x.txt"))});
    EXPECT_EQ(r.code, 2);
    r = test::runAttnlab(base + QStringList{QStringLiteral("--head"), QStringLiteral("9"),
                                            QStringLiteral("--session-out"), session});
    EXPECT_EQ(r.code, 2);
}

TEST(CliModel, EachTokenHasAReadableDisplayStringBesideItsText)
{
    // The fixture's tokenizer has one token per byte: 它 (E5 AE 83) is three tokens.
    QTemporaryDir dir;
    const QString folder = test::modelFolder(dir, "gpt2_tiny", true);
    int code = 0;
    const QJsonObject root = runJson({QStringLiteral("model"), QStringLiteral("--model"), folder,
                                      QStringLiteral("--text"), QStringLiteral("它 the")},
                                     code);
    ASSERT_EQ(code, 0);
    const QJsonArray tokens = root[QStringLiteral("tokens")].toArray();
    const QJsonArray display = root[QStringLiteral("display")].toArray();
    ASSERT_EQ(display.size(), tokens.size());
    QStringList shown;
    for (const QJsonValue& v : display) shown << v.toString();
    const QString mark = QStringLiteral("\u22EF");
    EXPECT_EQ(shown, (QStringList{QStringLiteral("它"), mark, mark, QStringLiteral("␣"),
                                  QStringLiteral("th"), QStringLiteral("e")}));
    // Each prediction carries its display string too.
    const QJsonArray top = root[QStringLiteral("predictions")]
                               .toArray()[0]
                               .toObject()[QStringLiteral("top")]
                               .toArray();
    ASSERT_FALSE(top.isEmpty());
    for (const QJsonValue& t : top) EXPECT_TRUE(t.toObject().contains(QStringLiteral("display")));
}

}  // namespace
}  // namespace attnlab
