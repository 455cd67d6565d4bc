// SPDX-License-Identifier: GPL-3.0-or-later
// What the window reads of a dates run as it trains (core/train/dates_run.h): the live cross
// maps of the fixed date, which the folder's loader computes again from the written weights; a
// copy of the run (what Save and Open take) that goes on exactly as the run does; and the
// measure at which alignment formed.

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <gtest/gtest.h>
#include <string>
#include <vector>

#include "core/model/seq2seq_forward.h"
#include "core/model/seq2seq_model.h"
#include "core/train/dates_run.h"

namespace attn::dates {
namespace {

RunSpec smallSpec()
{
    RunSpec s;
    s.encoderLayers = 1;
    s.decoderLayers = 2;
    s.heads = 2;
    s.channels = 16;
    s.steps = 20;
    s.batch = 8;
    s.measureEvery = 0;  // no measures: these tests read maps and parameters
    return s;
}

TEST(DatesLive, TheLiveMapsAreEveryCrossHeadOnTheFixedDateAsTheLoaderComputesThem)
{
    std::unique_ptr<TranslatorRun> run;
    ASSERT_TRUE(TranslatorRun::create(smallSpec(), run).ok());
    for (int k = 0; k < 3; ++k) ASSERT_TRUE(run->step().ok());
    const LiveExample& e = run->example();
    EXPECT_EQ(e.source, "二〇二六年十二月四日");
    EXPECT_EQ(e.target, "December 4, 2026");
    ASSERT_EQ(e.sourcePieces.size(), 11U);  // ten characters and </s>
    EXPECT_EQ(e.sourcePieces.back(), "</s>");
    ASSERT_EQ(e.labelPieces.size(), 10U);  // December ▁ 4 , ▁ 2 0 2 6 </s>
    EXPECT_EQ(e.labelPieces.front(), "December");
    EXPECT_EQ(e.labelPieces[1], "▁");

    const gpt2::HeadMaps maps = run->liveMaps();
    ASSERT_EQ(maps.layers, 2);
    ASSERT_EQ(maps.heads, 2);
    ASSERT_EQ(maps.T, 10);
    ASSERT_EQ(maps.S, 11);
    ASSERT_EQ(maps.weights.size(), std::size_t{2 * 2 * 10 * 11});

    const auto folder = (std::filesystem::temp_directory_path() / "attnlab-dates-live").string();
    std::filesystem::remove_all(folder);
    ASSERT_TRUE(run->write(folder, "test", 0.0).ok());
    model::Seq2SeqModel m;
    ASSERT_TRUE(model::Seq2SeqModel::load(folder, m).ok());
    std::filesystem::remove_all(folder);
    std::vector<int> input{m.config().decoderStartTokenId};
    input.insert(input.end(), e.pair.labels.begin(), e.pair.labels.end() - 1);
    model::Seq2SeqResult r;
    ASSERT_TRUE(model::forwardSeq2Seq(m, e.pair.source, input, {}, r).ok());
    // The training pass in float against the loader's own float forward: 1e-5.
    double worst = 0.0;
    for (long l = 0; l < 2; ++l)
        for (long h = 0; h < 2; ++h)
            for (long t = 0; t < 10; ++t) {
                double sum = 0.0;
                for (long s = 0; s < 11; ++s) {
                    const float w = maps.at(l, h)[t * 11 + s];
                    sum += w;
                    worst = std::max(
                        worst,
                        static_cast<double>(std::abs(
                            w - r.cross[static_cast<std::size_t>(l)][static_cast<std::size_t>(h)](
                                    t, s))));
                }
                EXPECT_NEAR(sum, 1.0, 1e-5);
            }
    EXPECT_LT(worst, 1e-5);
}

TEST(DatesLive, ACopyOfTheRunGoesOnExactlyAsTheRunDoes)
{
    std::unique_ptr<TranslatorRun> run;
    ASSERT_TRUE(TranslatorRun::create(smallSpec(), run).ok());
    for (int k = 0; k < 2; ++k) ASSERT_TRUE(run->step().ok());
    TranslatorRun copy(*run);
    for (int k = 0; k < 3; ++k) {
        ASSERT_TRUE(run->step().ok());
        ASSERT_TRUE(copy.step().ok());
    }
    EXPECT_EQ(copy.losses(), run->losses());
    EXPECT_EQ(copy.trainer().parameters().values, run->trainer().parameters().values);
    EXPECT_EQ(copy.liveMaps().weights, run->liveMaps().weights);
}

TEST(DatesLive, AlignmentFormsAtTheFirstMeasureWhoseBestHeadPassesHalf)
{
    std::vector<Point> points(4);
    const double best[] = {0.42, 0.5, 0.51, 0.9};
    for (std::size_t i = 0; i < points.size(); ++i) {
        points[i].step = static_cast<long>(25 * i);
        points[i].alignment.best = best[i];
    }
    const Point* formed = alignmentFormed(points);
    ASSERT_NE(formed, nullptr);
    EXPECT_EQ(formed->step, 50);  // 0.5 itself is not past it
    points.resize(2);
    EXPECT_EQ(alignmentFormed(points), nullptr);
    EXPECT_EQ(alignmentFormed({}), nullptr);
}

}  // namespace
}  // namespace attn::dates
