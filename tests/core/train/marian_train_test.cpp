// SPDX-License-Identifier: GPL-3.0-or-later
// Training the translator (core/train/marian_train.h): determinism whatever the thread count,
// the float pass against the double one, padding that changes nothing, learning a copy task,
// the refusal of bad batches, and the exported checkpoint run by core/model's Marian loader.

#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <gtest/gtest.h>
#include <vector>

#include "core/model/safetensors_write.h"
#include "core/model/seq2seq_forward.h"
#include "core/model/seq2seq_model.h"
#include "core/train/gpt2_export.h"
#include "core/train/marian_export.h"
#include "train/marian_cases.h"

namespace attn::marian::test {
namespace {

TEST(MarianTrain, TwoRunsFromOneSeedGiveBitIdenticalParametersWhateverTheThreadCount)
{
    AdamSettings settings;
    settings.learningRate = 1e-2;
    for (Precision precision : {Precision::Double, Precision::Float}) {
        Trainer a(formulaParameters(tinyConfig(FfnActivation::Silu), 3), settings, precision);
        Trainer b(formulaParameters(tinyConfig(FfnActivation::Silu), 3), settings, precision);
        b.setThreads(3);
        const TinyBatch data;
        for (int k = 0; k < 6; ++k) {
            double la = 0.0;
            double lb = 0.0;
            ASSERT_TRUE(a.step(data.batch(), la).ok());
            ASSERT_TRUE(b.step(data.batch(), lb).ok());
            EXPECT_EQ(std::memcmp(&la, &lb, sizeof la), 0) << "step " << k;
        }
        EXPECT_EQ(std::memcmp(a.parameters().values.data(), b.parameters().values.data(),
                              a.parameters().values.size() * sizeof(double)),
                  0);
    }
}

// Float's rounding, relative to the gradient's size: 1e-4 is far above float's ~1e-6 and far
// below any wrong term.
TEST(MarianTrain, FloatPassAgreesWithTheDoublePassToFloatPrecision)
{
    for (FfnActivation act : {FfnActivation::Silu, FfnActivation::Gelu}) {
        Trainer d(formulaParameters(tinyConfig(act), 11), {}, Precision::Double);
        Trainer f(formulaParameters(tinyConfig(act), 11), {}, Precision::Float);
        const TinyBatch data;
        double ld = 0.0;
        double lf = 0.0;
        ASSERT_TRUE(d.forward(data.batch(), ld).ok());
        ASSERT_TRUE(f.forward(data.batch(), lf).ok());
        d.backward();
        f.backward();
        EXPECT_NEAR(lf, ld, 1e-5 * std::abs(ld));
        double diff = 0.0;
        double norm = 0.0;
        for (std::size_t i = 0; i < d.gradients().size(); ++i) {
            diff = std::max(diff, std::abs(d.gradients()[i] - f.gradients()[i]));
            norm = std::max(norm, std::abs(d.gradients()[i]));
        }
        EXPECT_LE(diff, 1e-4 * norm);
        std::printf("[ figures  ] float vs double: loss %.1e, worst gradient %.1e of %.2f\n",
                    std::abs(lf - ld), diff, norm);
    }
}

// The third pair alone (2 source tokens, 2 targets) and inside the padded batch: the same
// logits on its two rows. Any padded key that leaked into a softmax would move them.
TEST(MarianTrain, APaddedPairGetsTheLogitsItGetsAlone)
{
    const Config c = tinyConfig(FfnActivation::Silu);
    Trainer batched(formulaParameters(c, 5));
    Trainer alone(formulaParameters(c, 5));
    const TinyBatch data;
    double loss = 0.0;
    ASSERT_TRUE(batched.forward(data.batch(), loss).ok());
    const std::vector<int> source{5, 1}, lengths{2}, input{0, 9}, targets{9, 1};
    ASSERT_TRUE(alone.forward({source, lengths, input, targets, 1, 2, 2}, loss).ok());
    const std::vector<double> all = batched.logits();
    const std::vector<double> one = alone.logits();
    const long V = c.vocab;
    for (long t = 0; t < 2; ++t)
        for (long v = 0; v < V; ++v)
            EXPECT_NEAR(all[static_cast<std::size_t>((2 * 5 + t) * V + v)],
                        one[static_cast<std::size_t>(t * V + v)], 1e-12);
}

TEST(MarianTrain, LossOnACopyTaskFallsTenfold)
{
    Config c = tinyConfig(FfnActivation::Silu);
    c.channels = 16;
    c.ffn = 32;
    Parameters p;
    ASSERT_TRUE(makeParameters(c, p).ok());
    initialise(p, 4, 0.1);
    AdamSettings settings;
    settings.learningRate = 1e-2;
    Trainer trainer(std::move(p), settings, Precision::Float);
    // Reverse copy: sources of 4 ids, the labels their reverse then eos.
    const std::vector<int> source{2, 3, 4, 1, 5, 6, 7, 1, 8, 9, 10, 1, 3, 5, 7, 1};
    const std::vector<int> lengths{4, 4, 4, 4};
    const std::vector<int> input{0, 4, 3, 2, 0, 7, 6, 5, 0, 10, 9, 8, 0, 7, 5, 3};
    const std::vector<int> targets{4, 3, 2, 1, 7, 6, 5, 1, 10, 9, 8, 1, 7, 5, 3, 1};
    double first = 0.0;
    double last = 0.0;
    for (int k = 0; k < 80; ++k) {
        ASSERT_TRUE(trainer.step({source, lengths, input, targets, 4, 4, 4}, last).ok());
        if (k == 0) first = last;
    }
    EXPECT_LT(last, first / 10);
    std::printf("[ figures  ] copy task: loss %.4f -> %.4f in 80 steps\n", first, last);
}

TEST(MarianTrain, BadBatchesAreRefusedNamingTheField)
{
    Trainer trainer(formulaParameters(tinyConfig(FfnActivation::Silu), 1));
    const Buffer before = trainer.parameters().values;
    TinyBatch data;
    double loss = 0.0;
    const auto refusal = [&](TinyBatch b, long S, long T) {
        Batch batch = b.batch();
        batch.S = S;
        batch.T = T;
        return trainer.step(batch, loss);
    };
    EXPECT_EQ(refusal(data, 5, 5).field, "source");
    TinyBatch badLength = data;
    badLength.lengths[1] = 7;
    EXPECT_EQ(refusal(badLength, 6, 5).field, "sourceLengths");
    TinyBatch badId = data;
    badId.input[3] = 11;
    const Status id = refusal(badId, 6, 5);
    EXPECT_EQ(id.code, StatusCode::TokenOutOfRange);
    EXPECT_EQ(id.field, "input");
    TinyBatch noTargets = data;
    std::fill(noTargets.targets.begin(), noTargets.targets.end(), -1);
    EXPECT_EQ(refusal(noTargets, 6, 5).field, "targets");
    const std::vector<int> longSource(9 * 3, 2), lengths{9, 9, 9};
    Batch tooLong = data.batch();
    tooLong.source = longSource;
    tooLong.sourceLengths = lengths;
    tooLong.S = 9;
    EXPECT_EQ(trainer.step(tooLong, loss).code, StatusCode::TooLong);
    EXPECT_EQ(trainer.parameters().values, before);
    Config bad = tinyConfig(FfnActivation::Silu);
    bad.heads = 3;
    Parameters p;
    EXPECT_EQ(makeParameters(bad, p).field, "channels");
    bad = tinyConfig(FfnActivation::Silu);
    bad.padId = 11;
    EXPECT_EQ(makeParameters(bad, p).field, "padId");
}

// The exported checkpoint, opened by core/model as any Marian folder: its logits are the
// training pass's (float, so within 1e-4; the splitting and transposing of the fused
// projections would move them by far more if wrong).
TEST(MarianExport, TheLoaderRunsTheTrainedFunction)
{
    for (FfnActivation act : {FfnActivation::Silu, FfnActivation::Gelu}) {
        const Config c = tinyConfig(act);
        Trainer trainer(formulaParameters(c, 9), {}, Precision::Double);
        const TinyBatch data;
        double loss = 0.0;
        ASSERT_TRUE(trainer.forward(data.batch(), loss).ok());
        const std::vector<double> logits = trainer.logits();
        const std::string folder =
            (std::filesystem::temp_directory_path() / "attnlab-marian-export-test").string();
        std::filesystem::remove_all(folder);
        std::string weights;
        ASSERT_TRUE(model::safetensorsBytes(checkpointTensors(trainer.parameters()),
                                            {{"format", "pt"}}, weights)
                        .ok());
        ASSERT_TRUE(gpt2::writeModelFolder(folder, {{"config.json", checkpointConfig(c, 16)},
                                                    {"model.safetensors", weights}})
                        .ok());
        model::Seq2SeqModel m;
        const Status opened = model::Seq2SeqModel::load(folder, m);
        ASSERT_TRUE(opened.ok()) << opened.field << ": " << opened.detail;
        double worst = 0.0;
        for (long b = 0; b < 3; ++b) {
            const auto at = [&](const std::vector<int>& v, long row, long n) {
                return std::span<const int>(v).subspan(static_cast<std::size_t>(row * n),
                                                       static_cast<std::size_t>(n));
            };
            const long targets = b == 0 ? 5 : (b == 1 ? 4 : 2);
            model::Seq2SeqResult r;
            ASSERT_TRUE(model::forwardSeq2Seq(m, at(data.source, b, 6).first(data.lengths[b]),
                                              at(data.input, b, 5).first(targets), {}, r)
                            .ok());
            for (long t = 0; t < targets; ++t)
                for (long v = 0; v < c.vocab; ++v)
                    worst = std::max(
                        worst,
                        std::abs(static_cast<double>(r.logits(t, v)) -
                                 logits[static_cast<std::size_t>((b * 5 + t) * c.vocab + v)]));
        }
        EXPECT_LE(worst, 1e-4);
        std::printf("[ figures  ] loader vs training logits: %.1e\n", worst);
        std::filesystem::remove_all(folder);
    }
}

}  // namespace
}  // namespace attn::marian::test
