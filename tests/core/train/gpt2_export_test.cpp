// SPDX-License-Identifier: GPL-3.0-or-later
// A trained GPT-2 exported as a Hugging Face checkpoint (core/train/gpt2_export.h) and opened
// by the inference path (core/model): its float32 logits equal the training pass's double
// logits within 1e-4 on every position of every sequence, for the full and the attention-only
// model. This is what shows the two passes compute the same function, and that the zero MLP
// an attention-only checkpoint carries leaves the residual stream exactly as it is.

#include "core/train/gpt2_export.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <gtest/gtest.h>
#include <span>
#include <vector>

#include "core/model/forward.h"
#include "core/model/model.h"
#include "core/model/safetensors.h"
#include "model/model_files.h"
#include "train/gpt2_cases.h"

namespace attn::gpt2::test {
namespace {

constexpr double kExportTolerance = 1e-4;

void checkExport(bool attentionOnly)
{
    SCOPED_TRACE(attentionOnly ? "attention-only" : "full");
    Parameters params;
    ASSERT_TRUE(makeParameters(tinyConfig(attentionOnly), params).ok());
    initialise(params, 11, 0.3);
    AdamSettings settings;
    settings.learningRate = 1e-2;
    Trainer trainer(std::move(params), settings);
    const TinyBatch data;
    double loss = 0.0;
    for (int k = 0; k < 3; ++k) ASSERT_TRUE(trainer.step(data.batch(), loss).ok());
    ASSERT_TRUE(trainer.forward(data.batch(), loss).ok());  // logits of the trained parameters

    model::test::TempDir dir;
    const std::string folder = (dir.path() / "trained").string();
    ASSERT_TRUE(exportCheckpoint(trainer.parameters(), folder).ok());
    model::Model m;
    const Status opened = model::Model::load(folder, m);
    ASSERT_TRUE(opened.ok()) << describe(opened);
    EXPECT_EQ(m.config().layers, 2);
    EXPECT_EQ(m.file().tensors().size(), 2u + 2 * 12 + 2);

    const long B = data.batch().B, T = data.batch().T, V = tinyConfig(false).vocab;
    const std::span<const double> logits = trainer.logits();
    double worst = 0.0;
    for (long b = 0; b < B; ++b) {
        model::ForwardOptions options;
        options.allLogits = true;
        model::ForwardResult run;
        const std::span<const int> ids(data.tokens.data() + b * T, static_cast<std::size_t>(T));
        ASSERT_TRUE(model::forward(m, ids, options, run).ok());
        ASSERT_EQ(run.logits.rows(), T);
        for (long t = 0; t < T; ++t)
            for (long v = 0; v < V; ++v)
                worst = std::max(worst,
                                 std::abs(static_cast<double>(run.logits(t, v)) -
                                          logits[static_cast<std::size_t>((b * T + t) * V + v)]));
    }
    std::printf("[ figures  ] %s: inference vs training logits, max difference %.2e\n",
                attentionOnly ? "attention-only" : "full", worst);
    EXPECT_LE(worst, kExportTolerance);
}

TEST(Gpt2Export, InferenceLogitsOfTheExportedCheckpointEqualTheTrainingPass)
{
    checkExport(false);
}

TEST(Gpt2Export, AttentionOnlyCheckpointRunsWithItsZeroMlpAsTheIdentity)
{
    checkExport(true);
}

TEST(Gpt2Export, ExportedZeroMlpOutputsExactZerosSoTheResidualStreamIsUnchanged)
{
    // The inference pass adds each MLP's output to the residual stream: x += mlp(ln_2(x)).
    // With every MLP weight and bias 0, gelu(ln_2(x) 0 + 0) = gelu(0) = 0 and 0 W + 0 = 0,
    // exactly, for any x: the addition leaves x bit for bit as it was.
    Parameters params;
    ASSERT_TRUE(makeParameters(tinyConfig(true), params).ok());
    initialise(params, 4, 0.3);
    model::test::TempDir dir;
    const std::string folder = (dir.path() / "zero_mlp").string();
    ASSERT_TRUE(exportCheckpoint(params, folder).ok());
    model::Model m;
    ASSERT_TRUE(model::Model::load(folder, m).ok());
    const std::vector<int> ids{1, 2, 3, 4, 5};
    model::ForwardResult run;
    ASSERT_TRUE(model::forward(m, ids, {}, run).ok());
    for (std::size_t l = 0; l < m.layers().size(); ++l) {
        const model::LayerWeights& L = m.layers()[l];
        // The MLP on layer l's input and on a wild one, with the inference pass's own blocks.
        for (const model::FloatMatrix& x :
             {run.layers[l].hidden, model::FloatMatrix(model::FloatMatrix::Random(7, 8) * 100)}) {
            model::FloatMatrix normed, inner, out;
            model::layerNorm(x, L.ln2, m.config().layerNormEps, normed);
            model::applyDense(normed, L.mlpIn, inner);
            model::activate(m.config().activation, inner);
            model::applyDense(inner, L.mlpOut, out);
            ASSERT_EQ(out.rows(), x.rows());
            for (long i = 0; i < out.size(); ++i) ASSERT_EQ(out.data()[i], 0.0f) << "layer " << l;
        }
    }
}

}  // namespace
}  // namespace attn::gpt2::test
