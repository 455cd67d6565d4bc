// SPDX-License-Identifier: GPL-3.0-or-later
// attnlab generate on an encoder-decoder (tests/reference/fixtures/seq2seq/*_tokenizer: tiny
// BART, Marian and T5 with real tokenizer files): TEXT is the source, the target starts at
// decoder_start_token_id, greedy writes what attnlab model's greedy translation writes, the
// JSON holds the source, the target and every map of the three calls, a cross-attention head
// is drawn, edits of cross heads apply at every token, and what the model lacks is refused.
#include <gtest/gtest.h>

#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>

#include "support/cli_test_support.h"

namespace attnlab {
namespace {

const QString kSeq2SeqSource = QStringLiteral("the program is free software");

QString seq2seqFolder(const char* name)
{
    return QStringLiteral(ATTNLAB_FIXTURE_DIR "/seq2seq/") + QLatin1String(name);
}

QJsonObject succeeded(const QStringList& args)
{
    const test::CliRun r = test::runAttnlab(args);
    EXPECT_EQ(r.code, 0) << r.err.toStdString();
    return QJsonDocument::fromJson(r.out).object();
}

QStringList writeArgs(const char* name, int count, const QStringList& more = {})
{
    return QStringList{QStringLiteral("generate"),
                       QStringLiteral("--model"),
                       seq2seqFolder(name),
                       QStringLiteral("--text"),
                       kSeq2SeqSource,
                       QStringLiteral("--max-new-tokens"),
                       QString::number(count)} +
           more;
}

std::vector<int> intsOf(const QJsonValue& v)
{
    std::vector<int> out;
    for (const QJsonValue& id : v.toArray()) out.push_back(id.toInt());
    return out;
}

int firstGuess(const QJsonValue& prediction)
{
    return prediction.toObject()[QStringLiteral("top")]
        .toArray()[0]
        .toObject()[QStringLiteral("id")]
        .toInt();
}

TEST(CliGenerateSeq2Seq, GreedyWritesTheGreedyTranslationFromTheStartToken)
{
    for (const char* name : {"bart_tokenizer", "marian_tokenizer", "t5_tokenizer"}) {
        SCOPED_TRACE(name);
        const QJsonObject model =
            succeeded({QStringLiteral("model"), QStringLiteral("--model"), seq2seqFolder(name),
                       QStringLiteral("--text"), kSeq2SeqSource});
        ASSERT_TRUE(model[QStringLiteral("translated")].toBool());
        // attnlab model's translation: its target after the start token, then the last guess.
        const std::vector<int> input =
            intsOf(model[QStringLiteral("target")].toObject()[QStringLiteral("ids")]);
        std::vector<int> translation(input.begin() + 1, input.end());
        translation.push_back(firstGuess(model[QStringLiteral("predictions")].toArray().last()));

        const QJsonObject got = succeeded(writeArgs(name, 6));
        const std::vector<int> written = intsOf(got[QStringLiteral("ids")]);
        ASSERT_FALSE(written.empty());
        ASSERT_LE(written.size(), translation.size());
        EXPECT_TRUE(std::equal(written.begin(), written.end(), translation.begin()));
        const std::vector<int> target =
            intsOf(got[QStringLiteral("target")].toObject()[QStringLiteral("ids")]);
        EXPECT_EQ(target.front(), input.front());  // decoder_start_token_id
        EXPECT_TRUE(std::equal(written.begin(), written.end(), target.begin() + 1));
        EXPECT_EQ(intsOf(got[QStringLiteral("source")].toObject()[QStringLiteral("ids")]),
                  intsOf(model[QStringLiteral("source")].toObject()[QStringLiteral("ids")]));
        // Each step's own most probable token is the one greedy wrote.
        const QJsonArray steps = got[QStringLiteral("steps")].toArray();
        ASSERT_EQ(static_cast<std::size_t>(steps.size()), written.size());
        for (qsizetype i = 0; i < steps.size(); ++i)
            EXPECT_EQ(firstGuess(steps[i]), written[static_cast<std::size_t>(i)]);
        // Every map of the final text: cross rows are the target's, columns the source's.
        const long m = static_cast<long>(
            got[QStringLiteral("source")].toObject()[QStringLiteral("ids")].toArray().size());
        const QJsonArray cross = got[QStringLiteral("cross")].toArray();
        ASSERT_FALSE(cross.isEmpty());
        const QJsonArray rows = cross[0]
                                    .toObject()[QStringLiteral("heads")]
                                    .toArray()[0]
                                    .toObject()[QStringLiteral("weights")]
                                    .toArray();
        EXPECT_EQ(static_cast<std::size_t>(rows.size()), target.size());
        EXPECT_EQ(rows[0].toArray().size(), m);
        EXPECT_EQ(got[QStringLiteral("decoder")].toArray().size(), cross.size());
        EXPECT_FALSE(got[QStringLiteral("encoder")].toArray().isEmpty());
    }
}

TEST(CliGenerateSeq2Seq, ACrossEditAppliesAtEveryTokenAndAHeadIsDrawn)
{
    const QJsonObject plain = succeeded(writeArgs("marian_tokenizer", 5));
    const QJsonObject edited =
        succeeded(writeArgs("marian_tokenizer", 5,
                            {QStringLiteral("--edit"),
                             QStringLiteral("key,layer=1,head=1,index=2,scale=6,kind=cross")}));
    // The edited key's column of that head weighs differently in every written row.
    const auto column = [](const QJsonObject& j, int row) {
        return j[QStringLiteral("cross")]
            .toArray()[0]
            .toObject()[QStringLiteral("heads")]
            .toArray()[0]
            .toObject()[QStringLiteral("weights")]
            .toArray()[row]
            .toArray()[1]
            .toDouble();
    };
    const int rows = static_cast<int>(
        plain[QStringLiteral("target")].toObject()[QStringLiteral("ids")].toArray().size());
    for (int i = 0; i < rows; ++i) EXPECT_GT(std::abs(column(plain, i) - column(edited, i)), 1e-4);

    QTemporaryDir dir;
    const QString png = dir.filePath(QStringLiteral("cross.png"));
    const test::CliRun r = test::runAttnlab(
        writeArgs("t5_tokenizer", 4,
                  {QStringLiteral("-o"), png, QStringLiteral("--layer"), QStringLiteral("2"),
                   QStringLiteral("--head"), QStringLiteral("3")}));
    EXPECT_EQ(r.code, 0) << r.err.toStdString();
    EXPECT_FALSE(QImage(png).isNull());
}

TEST(CliGenerateSeq2Seq, WhatTheModelLacksIsRefusedByName)
{
    test::CliRun r = test::runAttnlab(
        writeArgs("marian_tokenizer", 3, {QStringLiteral("--layer"), QStringLiteral("9")}));
    EXPECT_EQ(r.code, 2);
    EXPECT_TRUE(r.err.contains(QLatin1String("--layer 9"))) << r.err.toStdString();
    r = test::runAttnlab(
        writeArgs("marian_tokenizer", 3,
                  {QStringLiteral("--edit"),
                   QStringLiteral("key,layer=1,head=1,index=40,scale=2,kind=cross")}));
    EXPECT_EQ(r.code, 2);
    EXPECT_TRUE(r.err.contains(QLatin1String("--edit key,layer=1,head=1,index=40")))
        << r.err.toStdString();
}

}  // namespace
}  // namespace attnlab
