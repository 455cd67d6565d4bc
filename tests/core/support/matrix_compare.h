// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Helpers for comparing core results: the largest absolute difference between
// two matrices, and a whole-result comparison that names the worst stage.

#include <cmath>
#include <sstream>
#include <string>

#include "core/attention.h"

namespace attn::test {

template <typename A, typename B>
double maxAbsDiff(const A& a, const B& b)
{
    if (a.rows() != b.rows() || a.cols() != b.cols()) return INFINITY;
    if (a.size() == 0) return 0.0;
    return (a.template cast<double>() - b.template cast<double>()).cwiseAbs().maxCoeff();
}

struct Difference {
    double value = 0.0;
    std::string where;
};

// Worst absolute difference over every stage and diagnostic of two results.
template <typename T>
Difference compareResults(const AttentionResultT<T>& got, const AttentionResult& want)
{
    Difference worst;
    auto consider = [&](const std::string& name, double d) {
        if (!(d <= worst.value)) {
            worst.value = d;
            worst.where = name;
        }
    };
    if (got.heads.size() != want.heads.size()) return {INFINITY, "head count"};
    for (std::size_t h = 0; h < got.heads.size(); ++h) {
        const auto& g = got.heads[h];
        const auto& w = want.heads[h];
        const std::string p = "heads[" + std::to_string(h) + "].";
        consider(p + "Q", maxAbsDiff(g.Q, w.Q));
        consider(p + "K", maxAbsDiff(g.K, w.K));
        consider(p + "V", maxAbsDiff(g.V, w.V));
        consider(p + "rotatedQ", maxAbsDiff(g.rotatedQ, w.rotatedQ));
        consider(p + "rotatedK", maxAbsDiff(g.rotatedK, w.rotatedK));
        consider(p + "scores", maxAbsDiff(g.scores, w.scores));
        consider(p + "scaled", maxAbsDiff(g.scaled, w.scaled));
        consider(p + "weights", maxAbsDiff(g.weights, w.weights));
        consider(p + "output", maxAbsDiff(g.output, w.output));
        consider(p + "entropy", maxAbsDiff(g.diagnostics.entropy, w.diagnostics.entropy));
        consider(p + "maxWeight", maxAbsDiff(g.diagnostics.maxWeight, w.diagnostics.maxWeight));
        consider(p + "jacobianNorm",
                 maxAbsDiff(g.diagnostics.jacobianNorm, w.diagnostics.jacobianNorm));
        if (g.mask != w.mask) consider(p + "mask", INFINITY);
        if (g.diagnostics.fullyMasked != w.diagnostics.fullyMasked)
            consider(p + "fullyMasked", INFINITY);
    }
    consider("concat", maxAbsDiff(got.concat, want.concat));
    consider("output", maxAbsDiff(got.output, want.output));
    return worst;
}

}  // namespace attn::test
