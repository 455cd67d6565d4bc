// SPDX-License-Identifier: GPL-3.0-or-later
// The core against a real peer: PyTorch 1.13 in float64, through the fixtures written by
// tests/reference/make_reference.py (format in tests/reference/README.md).
//
// Tolerances, absolute, on every stage (Q, K, V, scores, scaled, weights, head output, concat,
// final output):
//   computeAttention<double>: 1e-12. The values are O(1..10) and the sums are a handful of
//     terms, so both sides are within a few ulp of the exact value; 1e-12 leaves room for
//     a different summation order or FMA, and still catches any real formula difference.
//   computeAttention<float>:  1e-4. Float rounds the inputs and every stage to 24 bits
//     (~6e-8 relative); with scores up to ~10 and a few stages, differences stay ~1e-6.
// Each test prints the largest difference it saw, and names the stage and cell on failure.

#include <algorithm>
#include <cmath>
#include <fstream>
#include <gtest/gtest.h>
#include <iomanip>
#include <iostream>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include "core/attention.h"
#include "support/fixture_reader.h"

namespace {

constexpr double kDoubleTolerance = 1e-12;
constexpr double kFloatTolerance = 1e-4;

using attn_test::ReferenceFixture;

// Every fixture this file tests; EveryFixtureFileIsTested checks none is forgotten.
const std::vector<std::string>& testedFixtures()
{
    static const std::vector<std::string> names = {
        "additive_sqrt_dk",     "additive_unscaled",   "cross_basic",
        "custom_mask_full_row", "multihead_torch_mha", "self_basic",
        "self_causal",          "self_temperature",    "self_unscaled"};
    return names;
}

struct Difference {
    double value = 0.0;
    long row = -1;
    long col = -1;
};

template <typename T>
Difference maxAbsDifference(const attn::MatrixT<T>& actual, const attn::Matrix& expected)
{
    Difference d;
    for (long r = 0; r < expected.rows(); ++r) {
        for (long c = 0; c < expected.cols(); ++c) {
            const double diff = std::abs(static_cast<double>(actual(r, c)) - expected(r, c));
            // NaN compares false: record it explicitly so it cannot pass.
            if (std::isnan(diff) || diff > d.value) {
                d = {std::isnan(diff) ? std::numeric_limits<double>::infinity() : diff, r, c};
            }
        }
    }
    return d;
}

// Compares one stage; returns its max abs difference (infinity on a shape mismatch).
template <typename T>
double expectStageNear(const std::string& where, const attn::MatrixT<T>& actual,
                       const attn::Matrix& expected, double tolerance)
{
    if (actual.rows() != expected.rows() || actual.cols() != expected.cols()) {
        ADD_FAILURE() << where << ": core gives " << actual.rows() << " x " << actual.cols()
                      << ", torch " << expected.rows() << " x " << expected.cols();
        return std::numeric_limits<double>::infinity();
    }
    const Difference d = maxAbsDifference(actual, expected);
    EXPECT_LE(d.value, tolerance) << where << ": max abs difference " << std::setprecision(3)
                                  << d.value << " > tolerance " << tolerance << " at (" << d.row
                                  << ", " << d.col << "): core " << std::setprecision(17)
                                  << static_cast<double>(actual(d.row, d.col)) << ", torch "
                                  << expected(d.row, d.col);
    return d.value;
}

template <typename T>
const char* precisionName()
{
    return sizeof(T) == sizeof(double) ? "double" : "float";
}

template <typename T>
bool readAndCompute(const std::string& name, ReferenceFixture& fx,
                    attn::AttentionResultT<T>& result)
{
    const std::string error = attn_test::readFixture(attn_test::fixturePath(name), fx);
    EXPECT_TRUE(error.empty()) << error;
    if (!error.empty()) return false;
    const attn::Status status = attn::computeAttention<T>(fx.input, result);
    EXPECT_TRUE(status.ok()) << name << ": computeAttention<" << precisionName<T>()
                             << "> failed: " << attn::describe(status);
    if (!status.ok()) return false;
    EXPECT_EQ(result.heads.size(), fx.heads.size()) << name << ": number of heads";
    return result.heads.size() == fx.heads.size();
}

// Compares every stage of every head plus concat and output; checks masks and diagnostics.
template <typename T>
void expectMatchesFixture(const std::string& name, double tolerance)
{
    SCOPED_TRACE("fixture " + attn_test::fixturePath(name) + ", computeAttention<" +
                 precisionName<T>() + ">");
    ReferenceFixture fx;
    attn::AttentionResultT<T> result;
    if (!readAndCompute(name, fx, result)) return;

    const long n = fx.input.queryCount();
    double worst = 0.0;
    std::string worstStage;
    auto compare = [&](const std::string& stage, const attn::MatrixT<T>& actual,
                       const attn::Matrix& expected) {
        const double d = expectStageNear(stage, actual, expected, tolerance);
        if (d >= worst) {
            worst = d;
            worstStage = stage;
        }
    };

    for (std::size_t h = 0; h < fx.heads.size(); ++h) {
        const attn::HeadResultT<T>& got = result.heads[h];
        const attn_test::ExpectedHead& want = fx.heads[h];
        const std::string p = "heads[" + std::to_string(h) + "].";
        compare(p + "Q", got.Q, want.Q);
        compare(p + "K", got.K, want.K);
        compare(p + "V", got.V, want.V);
        compare(p + "scores", got.scores, want.scores);
        compare(p + "scaled", got.scaled, want.scaled);
        compare(p + "weights", got.weights, want.weights);
        compare(p + "output", got.output, want.output);

        // The effective mask, and exact zeros (not tiny numbers) wherever it forbids.
        ASSERT_EQ(got.mask.rows(), fx.effectiveMask.rows()) << p << "mask";
        ASSERT_EQ(got.mask.cols(), fx.effectiveMask.cols()) << p << "mask";
        EXPECT_TRUE(got.mask == fx.effectiveMask) << p << "mask differs from the expected mask";
        for (long i = 0; i < got.weights.rows(); ++i) {
            for (long j = 0; j < got.weights.cols(); ++j) {
                if (!fx.effectiveMask(i, j)) {
                    EXPECT_EQ(got.weights(i, j), T(0))
                        << p << "weights(" << i << ", " << j << ") is masked but not exactly 0";
                }
            }
        }

        // Diagnostics: flags agree with torch's fully masked rows, and nothing is NaN.
        const attn::RowDiagnosticsT<T>& diag = got.diagnostics;
        ASSERT_EQ(static_cast<long>(diag.fullyMasked.size()), n) << p << "diagnostics rows";
        for (long i = 0; i < n; ++i) {
            EXPECT_EQ(diag.fullyMasked[static_cast<std::size_t>(i)],
                      fx.fullyMasked[static_cast<std::size_t>(i)])
                << p << "diagnostics.fullyMasked[" << i << "]";
        }
        EXPECT_TRUE(diag.entropy.allFinite()) << p << "diagnostics.entropy has NaN/Inf";
        EXPECT_TRUE(diag.maxWeight.allFinite()) << p << "diagnostics.maxWeight has NaN/Inf";
        EXPECT_TRUE(diag.jacobianNorm.allFinite()) << p << "diagnostics.jacobianNorm has NaN/Inf";
        for (const auto* m :
             {&got.Q, &got.K, &got.V, &got.scores, &got.scaled, &got.weights, &got.output}) {
            EXPECT_TRUE(m->allFinite()) << p << "a stage holds NaN or Inf";
        }
    }
    compare("concat", result.concat, fx.concat);
    compare("output", result.output, fx.output);
    EXPECT_TRUE(result.output.allFinite()) << "output holds NaN or Inf";

    std::cout << "[ max diff ] " << name << " <" << precisionName<T>() << ">: " << std::scientific
              << std::setprecision(2) << worst << " (" << worstStage << ")" << std::defaultfloat
              << '\n';
    ::testing::Test::RecordProperty("max_abs_difference", std::to_string(worst));
}

// ---- one test per torch case, double then float --------------------------------------------

TEST(TorchReference, SelfAttentionMatchesTorchWithin1e12)
{
    expectMatchesFixture<double>("self_basic", kDoubleTolerance);
}
TEST(TorchReference, SelfAttentionFloatMatchesTorchWithin1e4)
{
    expectMatchesFixture<float>("self_basic", kFloatTolerance);
}

TEST(TorchReference, CausalSelfAttentionMatchesTorchWithin1e12)
{
    expectMatchesFixture<double>("self_causal", kDoubleTolerance);
}
TEST(TorchReference, CausalSelfAttentionFloatMatchesTorchWithin1e4)
{
    expectMatchesFixture<float>("self_causal", kFloatTolerance);
}

TEST(TorchReference, CrossAttentionMatchesTorchWithin1e12)
{
    expectMatchesFixture<double>("cross_basic", kDoubleTolerance);
}
TEST(TorchReference, CrossAttentionFloatMatchesTorchWithin1e4)
{
    expectMatchesFixture<float>("cross_basic", kFloatTolerance);
}

TEST(TorchReference, MultiHeadMatchesTorchMultiheadAttentionWithin1e12)
{
    expectMatchesFixture<double>("multihead_torch_mha", kDoubleTolerance);
}
TEST(TorchReference, MultiHeadFloatMatchesTorchMultiheadAttentionWithin1e4)
{
    expectMatchesFixture<float>("multihead_torch_mha", kFloatTolerance);
}

TEST(TorchReference, CustomMaskWithFullyMaskedRowMatchesTorchWithin1e12)
{
    expectMatchesFixture<double>("custom_mask_full_row", kDoubleTolerance);
}
TEST(TorchReference, CustomMaskWithFullyMaskedRowFloatMatchesTorchWithin1e4)
{
    expectMatchesFixture<float>("custom_mask_full_row", kFloatTolerance);
}

TEST(TorchReference, TemperatureScalingMatchesTorchWithin1e12)
{
    expectMatchesFixture<double>("self_temperature", kDoubleTolerance);
}
TEST(TorchReference, TemperatureScalingFloatMatchesTorchWithin1e4)
{
    expectMatchesFixture<float>("self_temperature", kFloatTolerance);
}

TEST(TorchReference, NoScalingMatchesTorchWithin1e12)
{
    expectMatchesFixture<double>("self_unscaled", kDoubleTolerance);
}
TEST(TorchReference, NoScalingFloatMatchesTorchWithin1e4)
{
    expectMatchesFixture<float>("self_unscaled", kFloatTolerance);
}

TEST(TorchReference, AdditiveScoringUnscaledMatchesTorchWithin1e12)
{
    expectMatchesFixture<double>("additive_unscaled", kDoubleTolerance);
}
TEST(TorchReference, AdditiveScoringUnscaledFloatMatchesTorchWithin1e4)
{
    expectMatchesFixture<float>("additive_unscaled", kFloatTolerance);
}

TEST(TorchReference, AdditiveScoringSqrtDkMatchesTorchWithin1e12)
{
    expectMatchesFixture<double>("additive_sqrt_dk", kDoubleTolerance);
}
TEST(TorchReference, AdditiveScoringSqrtDkFloatMatchesTorchWithin1e4)
{
    expectMatchesFixture<float>("additive_sqrt_dk", kFloatTolerance);
}

// ---- the fully masked row, spelled out ----------------------------------------------------

// Row 2 of custom_mask_full_row allows no key. Torch's softmax gives NaN there; the convention
// (PyTorch's current one) is zeros: weights exactly 0, output exactly 0, the row flagged.
template <typename T>
void expectFullyMaskedRowIsZeros()
{
    constexpr long kRow = 2;
    ReferenceFixture fx;
    attn::AttentionResultT<T> result;
    if (!readAndCompute("custom_mask_full_row", fx, result)) return;
    ASSERT_TRUE(fx.fullyMasked.at(kRow)) << "the fixture no longer has a fully masked row 2";
    for (const attn::HeadResultT<T>& head : result.heads) {
        ASSERT_GT(head.weights.rows(), kRow);
        for (long j = 0; j < head.weights.cols(); ++j) {
            EXPECT_EQ(head.weights(kRow, j), T(0)) << "weights(2, " << j << ")";
        }
        for (long j = 0; j < head.output.cols(); ++j) {
            EXPECT_EQ(head.output(kRow, j), T(0)) << "output(2, " << j << ")";
        }
        ASSERT_EQ(head.diagnostics.fullyMasked.size(), fx.fullyMasked.size());
        EXPECT_TRUE(head.diagnostics.fullyMasked[kRow]);
        EXPECT_EQ(head.diagnostics.entropy(kRow), T(0));
        EXPECT_EQ(head.diagnostics.argmax(kRow), -1);
        EXPECT_FALSE(head.weights.hasNaN());
        EXPECT_FALSE(head.output.hasNaN());
        EXPECT_FALSE(head.diagnostics.entropy.hasNaN());
        EXPECT_FALSE(head.diagnostics.maxWeight.hasNaN());
        EXPECT_FALSE(head.diagnostics.jacobianNorm.hasNaN());
    }
    EXPECT_FALSE(result.concat.hasNaN());
    EXPECT_FALSE(result.output.hasNaN());
}

TEST(TorchReference, FullyMaskedRowGivesExactZerosAndFlagNotNaN)
{
    expectFullyMaskedRowIsZeros<double>();
}
TEST(TorchReference, FullyMaskedRowFloatGivesExactZerosAndFlagNotNaN)
{
    expectFullyMaskedRowIsZeros<float>();
}

// ---- the fixtures themselves ---------------------------------------------------------------

TEST(TorchReference, EveryFixtureFileIsTestedAndParses)
{
    const std::vector<std::string> present = attn_test::listFixtures();
    EXPECT_EQ(present, testedFixtures())
        << "tests/reference/fixtures and the list in this file differ: add a test per case";
    for (const std::string& name : present) {
        ReferenceFixture fx;
        const std::string error = attn_test::readFixture(attn_test::fixturePath(name), fx);
        EXPECT_TRUE(error.empty()) << error;
    }
}

std::string fixtureText(const std::string& name)
{
    std::ifstream file(attn_test::fixturePath(name));
    std::ostringstream text;
    text << file.rdbuf();
    return text.str();
}

// Replaces the first occurrence of `from` in `text`; fails the test if there is none.
std::string replaced(std::string text, const std::string& from, const std::string& to)
{
    const std::size_t at = text.find(from);
    EXPECT_NE(at, std::string::npos) << "'" << from << "' not in the fixture";
    if (at != std::string::npos) text.replace(at, from.size(), to);
    return text;
}

// The parse error for `text`, or "" if it parsed.
std::string parseError(const std::string& text)
{
    std::istringstream in(text);
    ReferenceFixture fx;
    return attn_test::parseFixture(in, "malformed.txt", fx);
}

TEST(TorchReferenceReader, MalformedFilesFailWithFileLineAndReason)
{
    const std::string good = fixtureText("self_basic");
    ASSERT_FALSE(good.empty());
    ASSERT_EQ(parseError(good), "");

    struct Case {
        std::string what;
        std::string text;
        std::string messagePart;
    };
    const std::size_t firstRow = good.find('\n', good.find("matrix X 5 4")) + 1;
    const std::string firstNumber = good.substr(firstRow, good.find(' ', firstRow) - firstRow);
    const std::vector<Case> cases = {
        {"empty", "", "empty file"},
        {"no header", replaced(good, "attnlab-reference 1\n", ""), "attnlab-reference"},
        {"future version", replaced(good, "attnlab-reference 1", "attnlab-reference 2"),
         "unsupported format version"},
        {"not a number", replaced(good, firstNumber, "0.5x"), "not a number"},
        {"NaN", replaced(good, firstNumber, "nan"), "non-finite"},
        {"short matrix", replaced(good, "matrix X 5 4", "matrix X 6 4"), "matrix X row 5"},
        {"wide matrix", replaced(good, "matrix X 5 4", "matrix X 5 5"), "expected 5 values"},
        {"truncated", good.substr(0, good.size() / 2), ""},
        {"unknown directive", replaced(good, "option score dot", "choice score dot"),
         "unknown directive"},
        {"unknown option", replaced(good, "option score dot", "option scoring dot"),
         "unknown option"},
        {"bad mode", replaced(good, "option mode self", "option mode sideways"), "option mode"},
        {"duplicate", good + "matrix X 1 1\n1\n", "duplicate matrix 'X'"},
        {"head out of range", replaced(good, "heads.0.W_Q", "heads.1.W_Q"), "out of range"},
        {"missing stage", replaced(good, "expected.heads.0.scaled", "expected.heads.0.nonsense"),
         "unknown matrix"},
        {"bad flag",
         replaced(good, "flags expected.fully_masked 5\n0", "flags expected.fully_masked 5\n2"),
         "expected 0 or 1"},
        {"Y without cross", good + "matrix Y 1 4\n1 2 3 4\n", "mode is not cross"},
    };
    for (const Case& c : cases) {
        const std::string error = parseError(c.text);
        EXPECT_NE(error, "") << c.what << ": parsed without error";
        EXPECT_NE(error.find("malformed.txt"), std::string::npos) << c.what << ": " << error;
        EXPECT_NE(error.find(c.messagePart), std::string::npos) << c.what << ": " << error;
    }
}

TEST(TorchReferenceReader, MissingFileFailsNamingThePath)
{
    ReferenceFixture fx;
    const std::string error = attn_test::readFixture(attn_test::fixturePath("no_such_case"), fx);
    EXPECT_NE(error.find("no_such_case.txt"), std::string::npos) << error;
}

}  // namespace
