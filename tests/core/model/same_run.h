// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Fixture models opened, and two runs of the same ids compared: every layer's input (and attention
// input where kept), every head's map and first-token share, the residual and final rows, the
// logits and the predictions. Values relative to themselves, absolute below 1.
#include <cmath>
#include <gtest/gtest.h>

#include "core/model/forward.h"
#include "model_files.h"

namespace attn::model::test {

// A fixture checkpoint, opened (a failure is the test's).
inline Model loadModel(const fs::path& folder)
{
    Model model;
    const attn::Status s = Model::load(folder.string(), model);
    EXPECT_TRUE(s.ok()) << describe(s);
    return model;
}

inline float worstRelative(const FloatMatrix& a, const FloatMatrix& b)
{
    if (a.rows() != b.rows() || a.cols() != b.cols()) return INFINITY;
    return a.size() == 0 ? 0.0f : ((a - b).array().abs() / b.array().abs().max(1.0f)).maxCoeff();
}

struct RunTolerances {
    float maps = 1e-5f;    // weights and prediction probabilities
    float states = 1e-5f;  // layer inputs, the residual and final rows
    float logits = 1e-5f;
};

inline void expectSameRun(const ForwardResult& got, const ForwardResult& want,
                          const RunTolerances& tolerance)
{
    ASSERT_EQ(got.ids, want.ids);
    ASSERT_EQ(got.layers.size(), want.layers.size());
    for (std::size_t l = 0; l < got.layers.size(); ++l) {
        const LayerTrace& g = got.layers[l];
        const LayerTrace& w = want.layers[l];
        EXPECT_LE(worstRelative(g.hidden, w.hidden), tolerance.states) << "layer " << l;
        EXPECT_LE(worstRelative(g.normed, w.normed), tolerance.states) << "layer " << l;
        ASSERT_EQ(g.attention.size(), w.attention.size());
        ASSERT_EQ(g.firstShare.size(), w.firstShare.size());
        for (std::size_t h = 0; h < g.attention.size(); ++h) {
            EXPECT_LE(worstRelative(g.attention[h], w.attention[h]), tolerance.maps)
                << "layer " << l << " head " << h;
            EXPECT_NEAR(g.firstShare[h], w.firstShare[h], tolerance.maps);
        }
    }
    EXPECT_LE(worstRelative(got.residual, want.residual), tolerance.states);
    EXPECT_LE(worstRelative(got.finalHidden, want.finalHidden), tolerance.states);
    EXPECT_EQ(got.logitRows, want.logitRows);
    EXPECT_LE(worstRelative(got.logits, want.logits), tolerance.logits);
    ASSERT_EQ(got.predictions.size(), want.predictions.size());
    for (std::size_t i = 0; i < got.predictions.size(); ++i) {
        EXPECT_EQ(got.predictions[i].position, want.predictions[i].position);
        ASSERT_EQ(got.predictions[i].top.size(), want.predictions[i].top.size());
        EXPECT_EQ(got.predictions[i].top[0].id, want.predictions[i].top[0].id);
        for (std::size_t k = 0; k < got.predictions[i].top.size(); ++k)
            EXPECT_NEAR(got.predictions[i].top[k].probability,
                        want.predictions[i].top[k].probability, tolerance.maps);
    }
}

}  // namespace attn::model::test
