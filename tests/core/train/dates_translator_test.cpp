// SPDX-License-Identifier: GPL-3.0-or-later
// The dates translator's data and measures (core/train/dates_translator.h, dates_measure.h,
// dates_run.h): the vocabulary libsentencepiece trains, pairs encoded with one field per piece,
// the folder's tokenizers giving the same ids through core/tokenize's Marian loader, the
// alignment measure on maps made by hand, and a short run repeated bit for bit.

#include <filesystem>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/tokenize/seq2seq_tokenizer.h"
#include "core/train/dates_run.h"
#include "core/train/gpt2_export.h"

namespace attn::dates {
namespace {

const Vocabulary& vocabulary()
{
    static const Vocabulary v = [] {
        Vocabulary out;
        EXPECT_TRUE(trainVocabulary(out).ok());
        return out;
    }();
    return v;
}

PairEncoder encoder()
{
    PairEncoder e;
    EXPECT_TRUE(PairEncoder::make(vocabulary(), e).ok());
    return e;
}

TEST(DatesTranslator, TheTargetIsCharactersWithWholeMonthNamesEachCarryingItsField)
{
    const Vocabulary& v = vocabulary();
    EXPECT_EQ(v.pieces.front(), "</s>");
    EXPECT_EQ(v.pieces.back(), "<pad>");
    EXPECT_EQ(v.pad, static_cast<int>(v.pieces.size()) - 1);
    EncodedPair e;
    ASSERT_TRUE(encoder().encode(datePair({2026, 12, 4}, DateForm::Chinese), e).ok());
    // 二〇二六年十二月四日 + </s>: one piece per character.
    EXPECT_EQ(e.source.size(), 11U);
    std::vector<std::string> pieces;
    for (int id : e.labels) pieces.push_back(v.pieces[static_cast<std::size_t>(id)]);
    const std::vector<std::string> expected{"December", "▁", "4", ",", "▁",
                                            "2",        "0", "2", "6", "</s>"};
    EXPECT_EQ(pieces, expected);
    using F = DateField;
    const std::vector<F> fields{F::Month, F::None, F::Day,  F::None, F::None,
                                F::Year,  F::Year, F::Year, F::Year, F::None};
    EXPECT_EQ(e.labelFields, fields);
    EXPECT_EQ(e.sourceFields.front(), F::Year);
    EXPECT_EQ(e.sourceFields[6], F::Month);  // 二 of 十二
    EXPECT_EQ(encoder().targetText(e.labels), "December 4, 2026");
    Vocabulary again;
    ASSERT_TRUE(trainVocabulary(again).ok());
    EXPECT_EQ(again.sourceSpm, v.sourceSpm);
    EXPECT_EQ(again.targetSpm, v.targetSpm);
}

TEST(DatesTranslator, TheFoldersTokenizersGiveTheSameIdsThroughTheMarianLoader)
{
    const Vocabulary& v = vocabulary();
    const std::string folder =
        (std::filesystem::temp_directory_path() / "attnlab-dates-tokenizer-test").string();
    std::filesystem::remove_all(folder);
    ASSERT_TRUE(gpt2::writeModelFolder(folder, {{"source.spm", v.sourceSpm},
                                                {"target.spm", v.targetSpm},
                                                {"vocab.json", vocabularyJson(v)}})
                    .ok());
    auto loaded = tok::loadSeq2SeqTokenizers(folder, "marian", static_cast<long>(v.pieces.size()));
    ASSERT_TRUE(std::holds_alternative<tok::Seq2SeqTokenizers>(loaded));
    const auto& tokenizers = std::get<tok::Seq2SeqTokenizers>(loaded);
    const PairEncoder e = encoder();
    for (const Date d : {Date{1900, 1, 1}, Date{2099, 12, 31}, Date{2000, 2, 29}})
        for (int f = 0; f < kForms; ++f) {
            const DatePair p = datePair(d, static_cast<DateForm>(f));
            EncodedPair ours;
            ASSERT_TRUE(e.encode(p, ours).ok());
            EXPECT_EQ(tokenizers.source.encode(p.source), ours.source) << p.source;
            EXPECT_EQ(tokenizers.target.encode(p.target), ours.labels) << p.target;
        }
    std::filesystem::remove_all(folder);
}

TEST(DatesMeasure, AHeadIsAlignedWhereItsRowPeaksOnTheSameField)
{
    EncodedPair e;
    ASSERT_TRUE(encoder().encode(datePair({2026, 12, 4}, DateForm::Slashed), e).ok());
    // 2026/12/4 + </s> (10 source pieces); December ▁ 4 , ▁ 2 0 2 6 </s> (10 labels, 6 with a
    // field). Head 0 peaks on the source piece of the same field, head 1 always on piece 0
    // (a year digit): aligned on the 4 year labels only.
    const long T = 10, S = 10;
    std::vector<double> maps(static_cast<std::size_t>(2 * T * S), 0.01);
    for (long t = 0; t < T; ++t) {
        long peak = 9;
        const DateField f = e.labelFields[static_cast<std::size_t>(t)];
        for (long s = 0; s < S; ++s)
            if (f != DateField::None && e.sourceFields[static_cast<std::size_t>(s)] == f) peak = s;
        maps[static_cast<std::size_t>(t * S + peak)] = 0.9;
        maps[static_cast<std::size_t>((T + t) * S)] = 0.9;
    }
    AlignmentCounter counter(1, 2);
    counter.add(0, e, maps.data(), T, S);
    const auto scores = counter.scores();
    EXPECT_DOUBLE_EQ(scores[0][0], 1.0);
    EXPECT_DOUBLE_EQ(scores[0][1], 4.0 / 6.0);
    const Alignment a = summarise(scores);
    EXPECT_EQ(a.bestHead, 0);
}

RunSpec tinySpec()
{
    RunSpec s;
    s.encoderLayers = 1;
    s.decoderLayers = 1;
    s.heads = 2;
    s.channels = 16;
    s.steps = 6;
    s.batch = 8;
    s.measureEvery = 3;
    s.measureCount = 4;
    s.alignCount = 6;
    return s;
}

TEST(DatesRun, TheSameSpecGivesTheSameRunBitForBit)
{
    std::unique_ptr<TranslatorRun> a, b;
    ASSERT_TRUE(TranslatorRun::create(tinySpec(), a).ok());
    ASSERT_TRUE(TranslatorRun::create(tinySpec(), b).ok());
    b->setThreads(2);
    for (int k = 0; k < 5; ++k) {  // the last step (6) would measure 1,000 dates a form
        ASSERT_TRUE(a->step().ok());
        ASSERT_TRUE(b->step().ok());
    }
    EXPECT_EQ(a->losses(), b->losses());
    EXPECT_EQ(a->trainer().parameters().values, b->trainer().parameters().values);
    ASSERT_EQ(a->measures().size(), 2U);  // steps 0 and 3
    EXPECT_EQ(a->measures()[1].step, 3);
    // Everything but the wall time of the steps.
    auto ja = nlohmann::json::parse(a->trainingJson("x", 0, {}));
    auto jb = nlohmann::json::parse(b->trainingJson("x", 0, {}));
    ja.erase("step_seconds");
    jb.erase("step_seconds");
    EXPECT_EQ(ja, jb);
    std::vector<std::pair<std::string, std::string>> fa, fb;
    ASSERT_TRUE(a->folderFiles(fa).ok());
    ASSERT_TRUE(b->folderFiles(fb).ok());
    EXPECT_EQ(fa, fb);
}

}  // namespace
}  // namespace attn::dates
