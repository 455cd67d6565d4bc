// SPDX-License-Identifier: GPL-3.0-or-later
// attnlab model on an encoder-decoder (tests/reference/fixtures/seq2seq/*_tokenizer: tiny Marian,
// T5 and BART checkpoints with real tokenizer files): the ids its tokenizers give, every
// encoder, decoder and cross map against the float64 PyTorch reference, the predictions per
// target position, greedy translation, figures, edits, and each refusal.
#include <gtest/gtest.h>

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>

#include "support/cli_test_support.h"

namespace attnlab {
namespace {

// The texts make_seq2seq_fixtures.py tokenized for its *_tokenizer cases.
const QString kSource = QStringLiteral("the program is free software");
const QString kTarget = QString::fromUtf8("床前明月光");

QString fixture(const char* name)
{
    return QStringLiteral(ATTNLAB_FIXTURE_DIR "/seq2seq/") + QLatin1String(name);
}

QJsonObject run(const QStringList& args)
{
    const test::CliRun r = test::runAttnlab(args);
    EXPECT_EQ(r.code, 0) << r.err.toStdString();
    return QJsonDocument::fromJson(r.out).object();
}

std::vector<int> idsOf(const QJsonValue& v)
{
    std::vector<int> out;
    for (const QJsonValue& id : v.toArray()) out.push_back(id.toInt());
    return out;
}

// The worst difference between the command's maps ([{"heads": [{"weights"}]}]) and PyTorch's
// ([layer][head][row][column]).
double worstMapDifference(const QJsonArray& got, const QJsonArray& want)
{
    double worst = 0.0;
    EXPECT_EQ(got.size(), want.size());
    for (qsizetype l = 0; l < std::min(got.size(), want.size()); ++l) {
        const QJsonArray heads = got[l].toObject()[QStringLiteral("heads")].toArray();
        EXPECT_EQ(heads.size(), want[l].toArray().size());
        for (qsizetype h = 0; h < heads.size(); ++h) {
            const QJsonArray rows = heads[h].toObject()[QStringLiteral("weights")].toArray();
            const QJsonArray wantRows = want[l].toArray()[h].toArray();
            EXPECT_EQ(rows.size(), wantRows.size());
            for (qsizetype i = 0; i < std::min(rows.size(), wantRows.size()); ++i)
                for (qsizetype j = 0; j < wantRows[i].toArray().size(); ++j)
                    worst = std::max(worst, std::abs(rows[i].toArray()[j].toDouble() -
                                                     wantRows[i].toArray()[j].toDouble()));
        }
    }
    return worst;
}

TEST(CliSeq2Seq, EveryMapOfATypedTargetIsPyTorchsAndThePredictionsFollowEachTargetPosition)
{
    for (const char* name : {"marian_tokenizer", "t5_tokenizer"}) {
        const QJsonObject want =
            test::readJsonFile(fixture(name) + QStringLiteral("/expected.json"));
        const QJsonObject got =
            run({QStringLiteral("model"), QStringLiteral("--model"), fixture(name),
                 QStringLiteral("--text"), kSource, QStringLiteral("--target"), kTarget});
        const QJsonObject model = got[QStringLiteral("model")].toObject();
        EXPECT_EQ(model[QStringLiteral("encoder_layers")].toInt(),
                  want[QStringLiteral("encoder_layers")].toInt());
        EXPECT_EQ(model[QStringLiteral("heads")].toInt(), want[QStringLiteral("heads")].toInt());
        EXPECT_EQ(idsOf(got[QStringLiteral("source")].toObject()[QStringLiteral("ids")]),
                  idsOf(want[QStringLiteral("source_ids")]))
            << name;
        EXPECT_EQ(idsOf(got[QStringLiteral("target")].toObject()[QStringLiteral("ids")]),
                  idsOf(want[QStringLiteral("target_ids")]))
            << name;
        EXPECT_FALSE(got[QStringLiteral("translated")].toBool());
        EXPECT_LT(worstMapDifference(got[QStringLiteral("encoder")].toArray(),
                                     want[QStringLiteral("encoder_attention")].toArray()),
                  1e-4)
            << name;
        EXPECT_LT(worstMapDifference(got[QStringLiteral("decoder")].toArray(),
                                     want[QStringLiteral("decoder_attention")].toArray()),
                  1e-4)
            << name;
        EXPECT_LT(worstMapDifference(got[QStringLiteral("cross")].toArray(),
                                     want[QStringLiteral("cross_attention")].toArray()),
                  1e-4)
            << name;
        const QJsonArray predictions = got[QStringLiteral("predictions")].toArray();
        const QJsonArray top10 = want[QStringLiteral("top10")].toArray();
        ASSERT_EQ(predictions.size(), top10.size()) << name;
        for (qsizetype i = 0; i < predictions.size(); ++i) {
            const QJsonObject p = predictions[i].toObject();
            EXPECT_EQ(p[QStringLiteral("position")].toInt(), i + 1);
            const QJsonArray top = p[QStringLiteral("top")].toArray();
            ASSERT_EQ(top.size(), 10);
            EXPECT_EQ(top[0].toObject()[QStringLiteral("id")].toInt(),
                      top10[i].toArray()[0].toInt())
                << name << " position " << i + 1;
        }
    }
}

TEST(CliSeq2Seq, WithoutATargetTheModelTranslatesGreedily)
{
    const QJsonObject got =
        run({QStringLiteral("model"), QStringLiteral("--model"), fixture("bart_tokenizer"),
             QStringLiteral("--text"), QStringLiteral("Hello world")});
    EXPECT_TRUE(got[QStringLiteral("translated")].toBool());
    const std::vector<int> target =
        idsOf(got[QStringLiteral("target")].toObject()[QStringLiteral("ids")]);
    ASSERT_GE(target.size(), 2u);
    EXPECT_EQ(target.front(), 2);  // BART's decoder_start_token_id, </s>
    // Each prediction's first guess is the next token of the translation: it wrote them.
    const QJsonArray predictions = got[QStringLiteral("predictions")].toArray();
    ASSERT_EQ(static_cast<std::size_t>(predictions.size()), target.size());
    for (std::size_t i = 0; i + 1 < target.size(); ++i)
        EXPECT_EQ(predictions[static_cast<qsizetype>(i)]
                      .toObject()[QStringLiteral("top")]
                      .toArray()[0]
                      .toObject()[QStringLiteral("id")]
                      .toInt(),
                  target[i + 1])
            << i;
    // Cross maps are target rows by source columns (<s> Hello world </s>: 4 source tokens).
    const QJsonArray cross = got[QStringLiteral("cross")].toArray();
    const QJsonArray rows = cross[0]
                                .toObject()[QStringLiteral("heads")]
                                .toArray()[0]
                                .toObject()[QStringLiteral("weights")]
                                .toArray();
    EXPECT_EQ(static_cast<std::size_t>(rows.size()), target.size());
    EXPECT_EQ(rows[0].toArray().size(),
              got[QStringLiteral("source")].toObject()[QStringLiteral("ids")].toArray().size());
}

TEST(CliSeq2Seq, AFigureOfEachKindAndAnEditOfACrossHead)
{
    QTemporaryDir dir;
    for (const QString& kind :
         {QStringLiteral("encoder"), QStringLiteral("decoder"), QStringLiteral("cross")}) {
        const QString png = dir.filePath(kind + QStringLiteral(".png"));
        const test::CliRun r = test::runAttnlab(
            {QStringLiteral("model"), QStringLiteral("--model"), fixture("marian_tokenizer"),
             QStringLiteral("--text"), kSource, QStringLiteral("--target"), kTarget,
             QStringLiteral("-o"), png, QStringLiteral("--kind"), kind, QStringLiteral("--layer"),
             QStringLiteral("2"), QStringLiteral("--head"), QStringLiteral("4")});
        EXPECT_EQ(r.code, 0) << r.err.toStdString();
        const QImage image(png);
        EXPECT_FALSE(image.isNull()) << kind.toStdString();
        EXPECT_GT(image.width(), 400);
    }
    // Switching off every cross head of the last layer changes what the model predicts.
    QStringList args{QStringLiteral("model"),
                     QStringLiteral("--model"),
                     fixture("marian_tokenizer"),
                     QStringLiteral("--text"),
                     kSource,
                     QStringLiteral("--target"),
                     kTarget};
    for (int h = 1; h <= 4; ++h)
        args << QStringLiteral("--ablate") << QStringLiteral("layer=2,head=%1,kind=cross").arg(h);
    const QJsonObject got = run(args);
    ASSERT_TRUE(got.contains(QStringLiteral("before")));
    EXPECT_EQ(got[QStringLiteral("edits")].toArray().size(), 4);
    const QJsonArray after = got[QStringLiteral("predictions")].toArray();
    const QJsonArray before =
        got[QStringLiteral("before")].toObject()[QStringLiteral("predictions")].toArray();
    ASSERT_EQ(after.size(), before.size());
    double moved = 0.0;
    for (qsizetype i = 0; i < after.size(); ++i)
        moved = std::max(moved, std::abs(after[i]
                                             .toObject()[QStringLiteral("top")]
                                             .toArray()[0]
                                             .toObject()[QStringLiteral("p")]
                                             .toDouble() -
                                         before[i]
                                             .toObject()[QStringLiteral("top")]
                                             .toArray()[0]
                                             .toObject()[QStringLiteral("p")]
                                             .toDouble()));
    EXPECT_GT(moved, 1e-4);
}

TEST(CliSeq2Seq, WhatAModelLacksIsRefusedByNameAndNothingIsWritten)
{
    QTemporaryDir dir;
    const QString out = dir.filePath(QStringLiteral("out.json"));
    const auto refused = [&](const QStringList& args, int code, const QString& says) {
        const test::CliRun r = test::runAttnlab(QStringList{QStringLiteral("model")} + args +
                                                QStringList{QStringLiteral("-o"), out});
        EXPECT_EQ(r.code, code) << r.err.toStdString();
        EXPECT_TRUE(r.err.contains(says)) << r.err.toStdString() << " lacks " << says.toStdString();
        EXPECT_FALSE(QFileInfo::exists(out));
    };
    const QString gpt2 = QStringLiteral(ATTNLAB_FIXTURE_DIR "/models/gpt2_tiny");
    refused({QStringLiteral("--model"), gpt2, QStringLiteral("--text"), QStringLiteral("a"),
             QStringLiteral("--target"), QStringLiteral("b")},
            2, QStringLiteral("not an encoder-decoder"));
    refused({QStringLiteral("--model"), gpt2, QStringLiteral("--text"), QStringLiteral("a"),
             QStringLiteral("--ablate"), QStringLiteral("layer=1,head=1,kind=cross")},
            2, QStringLiteral("kind=cross"));
    // A Marian folder without its target.spm.
    const QString partial = dir.filePath(QStringLiteral("partial"));
    QDir().mkpath(partial);
    for (const char* f : {"config.json", "model.safetensors", "vocab.json", "source.spm"})
        QFile::copy(fixture("marian_tokenizer") + QLatin1Char('/') + QLatin1String(f),
                    partial + QLatin1Char('/') + QLatin1String(f));
    refused({QStringLiteral("--model"), partial, QStringLiteral("--text"), kSource}, 3,
            QStringLiteral("target.spm"));
    // 70 words: more tokens than the model's 64 positions.
    refused({QStringLiteral("--model"), fixture("marian_tokenizer"), QStringLiteral("--text"),
             QStringLiteral("free ").repeated(70)},
            3, QStringLiteral("64 positions"));
    refused({QStringLiteral("--model"), fixture("marian_tokenizer"), QStringLiteral("--text"),
             kSource, QStringLiteral("--edit"),
             QStringLiteral("key,layer=1,head=1,index=40,scale=2,kind=cross")},
            2, QStringLiteral("the source has 6 tokens"));
    refused({QStringLiteral("--model"), fixture("marian_tokenizer"), QStringLiteral("--text"),
             kSource, QStringLiteral("--kind"), QStringLiteral("sideways")},
            2, QStringLiteral("--kind must be encoder, decoder or cross"));
}

}  // namespace
}  // namespace attnlab
