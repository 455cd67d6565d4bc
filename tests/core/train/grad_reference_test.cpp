// SPDX-License-Identifier: GPL-3.0-or-later
// Losses and gradients against PyTorch autograd (float64): the fixture
// tests/reference/fixtures/grad_reference.json, written by
// tests/reference/make_grad_reference.py (cases and layout described there).
// Measure per parameter matrix: ||g - g_torch||_F / ||g_torch||_F <= 1e-9 (a gradient that
// is exactly zero in exact arithmetic, ||g_torch|| < 1e-13, must be as small here); losses
// within 1e-12 relative.

#include <cstdio>
#include <fstream>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "core/attention.h"
#include "core/train/gradients.h"
#include "core/train/loss.h"

#ifndef ATTNLAB_FIXTURE_DIR
#error "ATTNLAB_FIXTURE_DIR must name tests/reference/fixtures"
#endif

namespace attn::test {
namespace {

using nlohmann::json;

constexpr double kGradTolerance = 1e-9;
constexpr double kLossTolerance = 1e-12;
// Gradients below this norm are round-off around an exact zero; compared absolutely.
constexpr double kZeroGradient = 1e-13;

Matrix matrixOf(const json& j)
{
    const long rows = static_cast<long>(j.size());
    const long cols = rows == 0 ? 0 : static_cast<long>(j[0].size());
    Matrix m(rows, cols);
    for (long r = 0; r < rows; ++r) {
        for (long c = 0; c < cols; ++c) m(r, c) = j[r][c].get<double>();
    }
    return m;
}

Vector vectorOf(const json& j)
{
    Vector v(static_cast<long>(j.size()));
    for (long k = 0; k < v.size(); ++k) v[k] = j[k].get<double>();
    return v;
}

Role roleOf(const std::string& s)
{
    return s == "query" ? Role::Query : s == "key" ? Role::Key : Role::Value;
}

struct Case {
    std::string name;
    AttentionInput input;
    LossSpec spec;
    json expected;
};

Case caseOf(const json& j)
{
    Case c;
    c.name = j["name"].get<std::string>();
    AttentionInput& in = c.input;
    const std::string mode = j["mode"];
    in.mode = mode == "self" ? Mode::Self : mode == "causal" ? Mode::Causal : Mode::Cross;
    const std::string scaling = j["scaling"];
    in.scaling = scaling == "none"      ? Scaling::None
                 : scaling == "sqrt_dk" ? Scaling::SqrtDk
                                        : Scaling::Temperature;
    in.temperature = j["temperature"].get<double>();
    in.score = j["score"] == "dot" ? ScoreFunction::Dot : ScoreFunction::Additive;
    in.sharedProjections = j["shared"].get<bool>();
    in.X = matrixOf(j["X"]);
    if (j.contains("Y")) in.Y = matrixOf(j["Y"]);
    if (j.contains("W_O")) in.W_O = matrixOf(j["W_O"]);
    if (j.contains("mask")) {
        const json& mj = j["mask"];
        BoolMatrix mask(static_cast<long>(mj.size()), static_cast<long>(mj[0].size()));
        for (long r = 0; r < mask.rows(); ++r) {
            for (long col = 0; col < mask.cols(); ++col) mask(r, col) = mj[r][col].get<bool>();
        }
        in.mask = mask;
    }
    for (const json& hj : j["heads"]) {
        HeadParams p;
        p.W_Q = matrixOf(hj["W_Q"]);
        if (hj.contains("W_K")) p.W_K = matrixOf(hj["W_K"]);
        if (hj.contains("W_V")) p.W_V = matrixOf(hj["W_V"]);
        if (hj.contains("b_Q")) p.b_Q = vectorOf(hj["b_Q"]);
        if (hj.contains("b_K")) p.b_K = vectorOf(hj["b_K"]);
        if (hj.contains("b_V")) p.b_V = vectorOf(hj["b_V"]);
        if (hj.contains("W_a")) {
            p.additive.W_a = matrixOf(hj["W_a"]);
            p.additive.U_a = matrixOf(hj["U_a"]);
            p.additive.v = vectorOf(hj["v"]);
        }
        in.heads.push_back(std::move(p));
    }
    for (const json& ej : j["edits"]) {
        VectorEdit e;
        e.role = roleOf(ej["role"]);
        e.head = ej["head"].get<int>();
        e.index = ej["index"].get<int>();
        e.scale = ej["scale"].get<double>();
        for (const json& o : ej["overrides"]) e.overrides.push_back({o[0].get<int>(), o[1]});
        in.edits.push_back(e);
    }
    const json& tj = j["target"];
    for (const json& pj : tj["patterns"])
        c.spec.patterns.push_back({pj["head"].get<int>(), matrixOf(pj["pattern"])});
    if (tj.contains("output")) c.spec.output = matrixOf(tj["output"]);
    c.spec.outputWeight = tj["outputWeight"].get<double>();
    c.expected = j["expected"];
    return c;
}

json loadFixture()
{
    const std::string path = std::string(ATTNLAB_FIXTURE_DIR) + "/grad_reference.json";
    std::ifstream file(path);
    EXPECT_TRUE(file) << path;
    std::stringstream text;
    text << file.rdbuf();
    return json::parse(text.str());
}

template <typename M>
double relativeTo(const M& got, const Matrix& want)
{
    if (got.rows() != want.rows() || got.cols() != want.cols()) return INFINITY;
    const double scale = want.norm();
    return scale == 0 ? got.norm() : (got - want).norm() / scale;
}

TEST(GradReference, LossesAndGradientsMatchTorchAutograd_EveryCase)
{
    const json doc = loadFixture();
    ASSERT_GE(doc["cases"].size(), 3u);
    for (const json& cj : doc["cases"]) {
        const Case c = caseOf(cj);
        SCOPED_TRACE(c.name);
        AttentionResult r;
        ASSERT_TRUE(computeAttention<double>(c.input, r).ok()) << describe(Status{});
        LossValueT<double> v;
        CotangentT<double> seed;
        ASSERT_TRUE(evaluateLoss<double>(c.input, r, c.spec, v, &seed).ok());
        const json& e = c.expected;
        EXPECT_NEAR(v.total, e["total"].get<double>(), kLossTolerance * v.total);
        EXPECT_NEAR(v.crossEntropy, e["crossEntropy"].get<double>(),
                    kLossTolerance * v.crossEntropy);
        EXPECT_NEAR(v.mse, e["mse"].get<double>(), kLossTolerance * v.mse);
        EXPECT_EQ(v.patternRows, e["patternRows"].get<long>());

        GradientsT<double> g;
        BackwardOptions options;
        options.embeddings = true;
        ASSERT_TRUE(backward<double>(c.input, r, seed, g, options).ok());
        double worst = 0;
        std::string worstName;
        auto compare = [&](const std::string& name, const auto& got, const Matrix& want) {
            if (want.norm() < kZeroGradient && got.rows() == want.rows() &&
                got.cols() == want.cols()) {
                // An exact zero in exact arithmetic (b_K under dot scores: q_i . b_K shifts a
                // whole row of scores, which softmax ignores): both sides hold round-off.
                EXPECT_LT(got.norm(), kZeroGradient) << name;
                return;
            }
            const double rel = relativeTo(got, want);
            EXPECT_LE(rel, kGradTolerance) << name;
            if (!(rel <= worst)) {
                worst = rel;
                worstName = name;
            }
        };
        const json& gj = e["grads"];
        compare("X", g.X, matrixOf(gj["X"]));
        if (gj.contains("Y")) compare("Y", g.Y, matrixOf(gj["Y"]));
        if (gj.contains("W_O")) compare("W_O", g.W_O, matrixOf(gj["W_O"]));
        int compared = 0;
        for (std::size_t h = 0; h < g.heads.size(); ++h) {
            const json& hj = gj["heads"][h];
            const HeadGradientsT<double>& hg = g.heads[h];
            const std::string at = "heads[" + std::to_string(h) + "].";
            const struct {
                const char* name;
                Matrix got;
            } all[] = {{"W_Q", hg.W_Q}, {"W_K", hg.W_K}, {"W_V", hg.W_V},
                       {"b_Q", hg.b_Q}, {"b_K", hg.b_K}, {"b_V", hg.b_V},
                       {"W_a", hg.W_a}, {"U_a", hg.U_a}, {"v", hg.v}};
            for (const auto& [name, got] : all) {
                if (!hj.contains(name)) {
                    // Absent in torch's case: the parameter does not exist (or is shared).
                    EXPECT_TRUE(got.size() == 0 || got.norm() == 0) << at + name;
                    continue;
                }
                const json& w = hj[name];
                const Matrix want = w[0].is_array() ? matrixOf(w) : Matrix(vectorOf(w));
                compare(at + name, got, want);
                ++compared;
            }
        }
        EXPECT_GE(compared, 2);
        std::printf("[ figures  ] torch %-36s loss %.17g, worst rel. gradient gap %.2e (%s)\n",
                    c.name.c_str(), v.total, worst, worstName.c_str());
    }
}

}  // namespace
}  // namespace attn::test
