// SPDX-License-Identifier: GPL-3.0-or-later
// Invalid input returns a status naming the problem; nothing asserts, aborts or
// produces NaN, and the previous result is left untouched.
#include <gtest/gtest.h>
#include <limits>

#include "core/attention.h"
#include "core/incremental.h"
#include "core/random_init.h"

namespace attn {
namespace {

AttentionInput valid()
{
    return randomInput(RandomSpec{4, 5, 3, 3, 3, 2, 3, Mode::Self, 4});
}

template <typename T>
Status run(const AttentionInput& in, const Limits& limits = {})
{
    AttentionResultT<T> r;
    return computeAttention<T>(in, r, limits);
}

// What a message names before its colon: "X", "head 2, W_K", "edit 1, scale" (from 1).
std::string placeOf(const Status& s)
{
    const std::string text = describe(s);
    return text.substr(0, text.find(": "));
}

void expectStatus(const AttentionInput& in, StatusCode code, const std::string& place)
{
    const Status d = run<double>(in);
    const Status f = run<float>(in);
    EXPECT_EQ(d.code, code) << describe(d);
    EXPECT_EQ(f.code, code) << describe(f);
    EXPECT_EQ(placeOf(d), place) << describe(d);
    EXPECT_GT(describe(d).size(), place.size() + 2) << describe(d);
}

TEST(InvalidInput, EmptyTargetIsReported)
{
    AttentionInput in = valid();
    in.X.resize(0, 3);
    expectStatus(in, StatusCode::EmptyTarget, "X");
}

TEST(InvalidInput, EmptySourceInCrossModeIsReported)
{
    AttentionInput in = valid();
    in.mode = Mode::Cross;
    expectStatus(in, StatusCode::EmptySource, "Y");
}

TEST(InvalidInput, ZeroKeyDimensionIsReported)
{
    AttentionInput in = valid();
    for (HeadParams& h : in.heads) {
        h.W_Q.resize(3, 0);
        h.W_K.resize(3, 0);
    }
    expectStatus(in, StatusCode::ZeroKeyDim, "head 1, W_Q");
}

TEST(InvalidInput, NoHeadsIsReported)
{
    AttentionInput in = valid();
    in.heads.clear();
    in.W_O.resize(0, 0);
    expectStatus(in, StatusCode::NoHeads, "heads");
}

TEST(InvalidInput, MismatchedProjectionShapeNamesTheMatrix)
{
    AttentionInput in = valid();
    in.heads[1].W_K = Matrix::Zero(3, 2);
    expectStatus(in, StatusCode::ShapeMismatch, "head 2, W_K");
    EXPECT_EQ(describe(run<double>(in)), "head 2, W_K: expected 3 x 3, got 3 x 2");
    EXPECT_EQ(run<double>(in).head, 1);  // kept from 0, printed from 1
    EXPECT_EQ(run<double>(in).field, "W_K");
}

TEST(InvalidInput, BiasOfTheWrongLengthOrNotFiniteNamesTheBias)
{
    AttentionInput in = valid();
    in.heads[1].b_K = Vector::Zero(2);
    expectStatus(in, StatusCode::ShapeMismatch, "head 2, b_K");
    EXPECT_EQ(describe(run<double>(in)), "head 2, b_K: expected 3 x 1, got 2 x 1");
    in = valid();
    in.heads[0].b_V = Vector::Zero(3);
    in.heads[0].b_V[2] = std::numeric_limits<double>::quiet_NaN();
    expectStatus(in, StatusCode::NonFinite, "head 1, b_V");
    in = valid();
    in.heads[0].b_Q = Vector::Ones(3);  // the right length: accepted
    EXPECT_TRUE(run<double>(in).ok());
}

TEST(InvalidInput, WrongOutputProjectionShapeIsReported)
{
    AttentionInput in = valid();
    in.W_O = Matrix::Zero(5, 3);
    expectStatus(in, StatusCode::ShapeMismatch, "W_O");
}

TEST(InvalidInput, NaNAndInfinityAreReportedWithTheirPosition)
{
    AttentionInput in = valid();
    in.X(2, 1) = std::numeric_limits<double>::quiet_NaN();
    expectStatus(in, StatusCode::NonFinite, "X");
    const Status s = run<double>(in);
    EXPECT_EQ(s.row, 2);
    EXPECT_EQ(s.col, 1);
    in = valid();
    in.heads[0].W_V(0, 0) = std::numeric_limits<double>::infinity();
    expectStatus(in, StatusCode::NonFinite, "head 1, W_V");
}

TEST(InvalidInput, MaskOfTheWrongSizeIsReported)
{
    AttentionInput in = valid();
    in.mask = BoolMatrix::Constant(4, 3, true);
    expectStatus(in, StatusCode::MaskShape, "mask");
}

TEST(InvalidInput, NonPositiveTemperatureIsReported)
{
    AttentionInput in = valid();
    in.scaling = Scaling::Temperature;
    in.temperature = 0.0;
    expectStatus(in, StatusCode::BadTemperature, "temperature");
}

TEST(InvalidInput, SharedProjectionsWithDifferentValueDimensionAreReported)
{
    AttentionInput in = randomInput(RandomSpec{4, 4, 3, 3, 2, 1, 3, Mode::Self, 4});
    in.sharedProjections = true;
    expectStatus(in, StatusCode::SharedNeedsEqualDims, "head 1, W_V");
}

TEST(InvalidInput, EditOutOfRangeIsReported)
{
    AttentionInput in = valid();
    in.edits.push_back({Role::Key, 0, 9, 2.0, {}});
    expectStatus(in, StatusCode::EditOutOfRange, "edit 1");
    in.edits = {{Role::Value, 1, 0, 1.0, {{7, 1.0}}}};
    expectStatus(in, StatusCode::EditOutOfRange, "edit 1");
}

TEST(InvalidInput, AHugeEditScaleIsNamedAsTheEditsScaleNotAsOverflowingScores)
{
    AttentionInput in = valid();
    in.edits.push_back({Role::Key, 0, 1, 1e308, {}});
    expectStatus(in, StatusCode::EditScaleTooLarge, "edit 1, scale");
    EXPECT_EQ(describe(run<double>(in)),
              "edit 1, scale: a scale beyond 1e100 in size: the scores of that vector would "
              "overflow");
    in.edits = {{Role::Key, 0, 1, -1e101, {}}};
    expectStatus(in, StatusCode::EditScaleTooLarge, "edit 1, scale");
    in.edits = {{Role::Key, 0, 1, 1e100, {}}};  // the largest allowed
    EXPECT_NE(run<double>(in).code, StatusCode::EditScaleTooLarge);
}

TEST(InvalidInput, AdditiveScoringWithoutItsParametersSaysSo)
{
    AttentionInput in = valid();
    in.score = ScoreFunction::Additive;
    for (HeadParams& p : in.heads) p.additive = {};
    expectStatus(in, StatusCode::MissingAdditive, "head 1, additive.v");
    const std::string said = describe(run<double>(in));
    EXPECT_EQ(said.find("-1"), std::string::npos) << said;  // no "should be -1 x 1"
    EXPECT_NE(said.find("d_a >= 1"), std::string::npos) << said;
}

TEST(InvalidInput, SizesOverTheMemoryBudgetAreRefusedBeforeAllocating)
{
    AttentionInput in;
    // n = 200,000 tokens would need ~ 200000^2 * 25 bytes = 1 TB: refused without trying.
    in.X = Matrix::Zero(200000, 1);
    HeadParams p;
    p.W_Q = p.W_K = p.W_V = Matrix::Ones(1, 1);
    in.heads.push_back(p);
    const Status s = run<double>(in);
    EXPECT_EQ(s.code, StatusCode::TooLarge);
    EXPECT_GT(s.bytesNeeded, s.bytesBudget);
    Limits tiny;
    tiny.maxBytes = 100;
    EXPECT_EQ(run<float>(valid(), tiny).code, StatusCode::TooLarge);
}

TEST(InvalidInput, OverflowingScoresAreReportedNotPropagated)
{
    AttentionInput in = valid();
    in.X *= 1e200;
    for (HeadParams& h : in.heads) h.W_Q *= 1e200;
    const Status s = run<double>(in);
    EXPECT_EQ(s.code, StatusCode::NonFinite) << describe(s);
}

TEST(InvalidInput, FailedComputationLeavesThePreviousResultUntouched)
{
    AttentionResult r;
    ASSERT_TRUE(computeAttention<double>(valid(), r).ok());
    const Matrix before = r.heads[0].weights;
    AttentionInput bad = valid();
    bad.X(0, 0) = std::numeric_limits<double>::quiet_NaN();
    EXPECT_FALSE(computeAttention<double>(bad, r).ok());
    EXPECT_EQ(r.heads[0].weights, before);
}

TEST(InvalidInput, EngineRefusesBadEditsAndKeepsItsState)
{
    AttentionEngine engine;
    ASSERT_TRUE(engine.setInput(valid()).ok());
    const Matrix before = engine.result().heads[0].weights;
    EXPECT_EQ(engine.setEdit({Role::Key, 0, 9, 2.0, {}}).code, StatusCode::EditOutOfRange);
    EXPECT_EQ(engine.setEdit({Role::Key, 0, 1, std::numeric_limits<double>::infinity(), {}}).code,
              StatusCode::NonFinite);
    EXPECT_EQ(engine.setEdit({Role::Query, 0, 1, 1e300, {{0, 1e300}}}).code,
              StatusCode::EditScaleTooLarge);
    // Within the scale limit, a vector that still overflows is refused as not finite.
    EXPECT_EQ(engine.setEdit({Role::Query, 0, 1, 1e90, {{0, 1e300}}}).code, StatusCode::NonFinite);
    EXPECT_TRUE(engine.input().edits.empty());
    EXPECT_EQ(engine.result().heads[0].weights, before);
}

TEST(InvalidInput, TwoEditsOfOneVectorAreRefusedNamingTheSecond)
{
    AttentionInput in = valid();
    in.edits.push_back({Role::Value, 0, 0, 0.5, {}});
    in.edits.push_back({Role::Key, 0, 0, 2.0, {}});  // another vector: fine
    in.edits.push_back({Role::Value, 0, 0, 0.5, {{0, -0.95}}});
    expectStatus(in, StatusCode::DuplicateEdit, "edit 3");
    const Status s = run<double>(in);
    EXPECT_EQ(s.row, 0);
    EXPECT_EQ(s.edit, 2);
    EXPECT_NE(describe(s).find("as edit 1;"), std::string::npos) << describe(s);
    EXPECT_NE(describe(s).find("value 1 of head 1"), std::string::npos) << describe(s);
}

// A tiny temperature turns finite raw scores into infinite scaled ones. The full path
// refused that; the incremental key and query paths checked only the raw scores, so the
// row's diagnostics missed the argmax and wrote past the row.
TEST(InvalidInput, EditsWhoseScaledScoresOverflowAreRefusedAndChangeNothing)
{
    for (Role role : {Role::Key, Role::Query}) {
        AttentionInput in = valid();
        in.scaling = Scaling::Temperature;
        in.temperature = 1e-306;  // finite scores above about 180 overflow when scaled
        // Every score 0 (finite when scaled) until the edited vector makes some non-zero.
        for (HeadParams& h : in.heads) (role == Role::Key ? h.W_K : h.W_Q).setZero();
        AttentionEngine engine;
        ASSERT_TRUE(engine.setInput(in).ok());
        const Matrix before = engine.result().heads[0].weights;
        const Matrix scaledBefore = engine.result().heads[0].scaled;
        const Status s = engine.setEdit({role, 0, 1, 1.0, {{0, 1e6}, {1, 1e6}, {2, 1e6}}});
        EXPECT_EQ(s.code, StatusCode::NonFinite) << describe(s);
        EXPECT_TRUE(engine.input().edits.empty());
        EXPECT_EQ(engine.result().heads[0].weights, before);
        EXPECT_EQ(engine.result().heads[0].scaled, scaledBefore);
        EXPECT_TRUE(engine.result().heads[0].weights.allFinite());
    }
}

}  // namespace
}  // namespace attn
