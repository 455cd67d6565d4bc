// SPDX-License-Identifier: GPL-3.0-or-later
// A Llama-family model in the model window and on the command line: a tiny Qwen3 (4 query
// heads sharing 2 key/value heads, rotary positions, q/k norms) with Qwen3's own tokenizer.
// The window shows one map per query head, grouped under the key/value head they share, the
// maps are the core's, a key edit acts on the whole group, and the window says in a sentence
// each what grouped heads and rotary positions are.
#include <gtest/gtest.h>

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QTemporaryDir>
#include <QTest>

#include "core/model/forward.h"
#include "support/cli_test_support.h"
#include "support/decoder_folder.h"
#include "ui/model/model_document.h"
#include "ui/model/model_grid_view.h"
#include "ui/model/model_window.h"

namespace attnlab {
namespace {

std::unique_ptr<ModelWindow> decoderWindow(QStringList& warnings)
{
    auto w = std::make_unique<ModelWindow>();
    ModelWindowDialogs d;
    d.openFolder = [](const QString&) { return QString(); };
    d.savePath = [](const QString&) { return QString(); };
    d.warn = [&warnings](const QString& title, const QString& text) {
        warnings << title + QStringLiteral(": ") + text;
    };
    w->setDialogs(d);
    w->resize(1366, 768);
    w->show();
    return w;
}

bool decoderSettled(ModelDocument* doc)
{
    return QTest::qWaitFor([doc] { return doc->idle(); }, 20000);
}

TEST(ModelDecoder, Qwen3HeadsShowAsTheCoreComputesThem_GroupedByKeyValueHead)
{
    QTemporaryDir dir;
    const QString folder = test::qwen3Folder(dir);
    QStringList warnings;
    auto w = decoderWindow(warnings);
    ASSERT_TRUE(w->openFolder(folder)) << warnings.join(QLatin1Char('\n')).toStdString();
    ModelDocument* doc = w->document();
    w->setText(QStringLiteral("床前明月光，疑是地上霜。"));
    ASSERT_TRUE(decoderSettled(doc));
    const auto snap = doc->snapshot();
    ASSERT_TRUE(snap);
    EXPECT_EQ(snap->layers(), 2);
    EXPECT_EQ(snap->heads(), 4) << "one map per query head";
    EXPECT_EQ(snap->groupSize, 2);
    EXPECT_TRUE(w->windowTitle().contains(QStringLiteral("2 key/value heads")))
        << w->windowTitle().toStdString();

    attn::model::Model model;
    ASSERT_TRUE(attn::model::Model::load(folder.toStdString(), model).ok());
    attn::model::ForwardResult expected;
    ASSERT_TRUE(attn::model::forward(model, snap->result.ids, {}, expected).ok());
    for (std::size_t l = 0; l < 2; ++l)
        for (std::size_t h = 0; h < 4; ++h)
            EXPECT_LT((snap->result.layers[l].attention[h] - expected.layers[l].attention[h])
                          .cwiseAbs()
                          .maxCoeff(),
                      1e-6f);

    // Heads 1-2 and 3-4 share a key/value head: the gap between the groups is wider than the
    // gap inside one.
    ModelGridView* grid = w->grid();
    const double inside = grid->cellRect(0, 1).left() - grid->cellRect(0, 0).right();
    const double between = grid->cellRect(0, 2).left() - grid->cellRect(0, 1).right();
    EXPECT_GT(between, inside * 2);

    const auto* note = w->findChild<QLabel*>(QStringLiteral("architectureNote"));
    ASSERT_NE(note, nullptr);
    EXPECT_TRUE(note->isVisible());
    EXPECT_TRUE(note->text().contains(QStringLiteral("4 query heads share 2 key/value heads")))
        << note->text().toStdString();
    EXPECT_TRUE(note->text().contains(QStringLiteral("Rotary positions")));
}

TEST(ModelDecoder, KeyEditOfOneHead_MovesBothHeadsOfItsGroup)
{
    QTemporaryDir dir;
    QStringList warnings;
    auto w = decoderWindow(warnings);
    ASSERT_TRUE(w->openFolder(test::qwen3Folder(dir)));
    ModelDocument* doc = w->document();
    w->setText(QStringLiteral("the cat sat on the mat"));
    ASSERT_TRUE(decoderSettled(doc));
    ASSERT_TRUE(doc->scaleVector(attn::model::HeadEditKind::Key, 1, 2, 1, 2.0f));
    ASSERT_TRUE(decoderSettled(doc));
    const auto snap = doc->snapshot();
    ASSERT_TRUE(snap && snap->edited());
    EXPECT_GT(snap->change[1][2], 1e-4f);
    EXPECT_GT(snap->change[1][3], 1e-4f) << "head 4 reads the same keys as head 3";
    // The other group is recomputed from the same inputs (a float rounding apart at most).
    EXPECT_LT(snap->change[1][0], 1e-6f);
    EXPECT_LT(snap->change[1][1], 1e-6f);
}

TEST(ModelDecoder, CommandLineModel_ListsKeyValueHeadsAndAMapPerQueryHead)
{
    QTemporaryDir dir;
    const QString out = dir.filePath(QStringLiteral("run.json"));
    const test::CliRun run = test::runAttnlab(
        {QStringLiteral("model"), QStringLiteral("--model"), test::qwen3Folder(dir),
         QStringLiteral("--text"), QStringLiteral("Hello, world"), QStringLiteral("-o"), out});
    ASSERT_EQ(run.code, 0) << run.err.toStdString();
    QFile file(out);
    ASSERT_TRUE(file.open(QIODevice::ReadOnly));
    const QJsonObject root = QJsonDocument::fromJson(file.readAll()).object();
    const QJsonObject m = root[QStringLiteral("model")].toObject();
    EXPECT_EQ(m[QStringLiteral("type")].toString(), QStringLiteral("qwen3"));
    EXPECT_EQ(m[QStringLiteral("heads")].toInt(), 4);
    EXPECT_EQ(m[QStringLiteral("kv_heads")].toInt(), 2);
    const QJsonArray layers = root[QStringLiteral("layers")].toArray();
    ASSERT_EQ(layers.size(), 2);
    EXPECT_EQ(layers[0].toObject()[QStringLiteral("heads")].toArray().size(), 4);
    // Qwen3's tokenizer: "Hello", ",", " world" (no BOS: Qwen adds none).
    EXPECT_EQ(root[QStringLiteral("ids")].toArray().size(), 3);
}

}  // namespace
}  // namespace attnlab
