// SPDX-License-Identifier: GPL-3.0-or-later
// Training tasks: what each generator makes, seeded and checked.
#include "core/train/tasks.h"

#include <gtest/gtest.h>

namespace attn {
namespace {

std::vector<TrainExample> make(const TaskSpec& spec)
{
    std::vector<TrainExample> out;
    const Status s = makeTask(spec, out);
    EXPECT_TRUE(s.ok()) << describe(s);
    return out;
}

TEST(Tasks, PreviousTokenTargetsTheTokenBeforeAndCarriesRingPositions)
{
    TaskSpec spec;
    spec.kind = TaskKind::PreviousToken;
    spec.n = 6;
    spec.dModel = 8;
    spec.examples = 4;
    const auto ex = make(spec);
    ASSERT_EQ(ex.size(), 4u);
    for (const TrainExample& e : ex) {
        ASSERT_EQ(e.X.rows(), 6);
        ASSERT_EQ(e.X.cols(), 8);
        ASSERT_EQ(e.tokens.size(), 6u);
        EXPECT_EQ(e.pattern.row(0).sum(), 0.0) << "the first token has nothing before it";
        for (long i = 1; i < 6; ++i) {
            EXPECT_EQ(e.pattern(i, i - 1), 1.0);
            EXPECT_EQ(e.pattern.row(i).sum(), 1.0);
        }
    }
    // One-hot slots on a ring: consecutive tokens hold consecutive slots, and the examples
    // start at different slots.
    for (std::size_t e = 0; e < ex.size(); ++e) {
        for (long i = 0; i < 6; ++i) {
            const long slot = (static_cast<long>(e) + i) % 6;
            EXPECT_EQ(ex[e].X(i, slot), 1.0) << "example " << e << " token " << i;
            EXPECT_EQ(ex[e].X.row(i).head(6).sum(), 1.0);
        }
    }
}

TEST(Tasks, PreviousTokenUsesDistinctAnglesWhenPositionsDoNotFitOneHot)
{
    TaskSpec spec;
    spec.kind = TaskKind::PreviousToken;
    spec.n = 16;
    spec.dModel = 4;
    spec.examples = 1;
    const auto ex = make(spec);
    for (long i = 0; i < 16; ++i)
        for (long j = 0; j < i; ++j)
            EXPECT_GT((ex[0].X.row(i) - ex[0].X.row(j)).norm(), 0.05) << i << " vs " << j;
}

TEST(Tasks, MatchTargetsEveryTokenOfTheSameFeature)
{
    TaskSpec spec;
    spec.kind = TaskKind::Match;
    spec.n = 8;
    spec.dModel = 4;
    spec.examples = 3;
    for (const TrainExample& e : make(spec)) {
        for (long i = 0; i < 8; ++i) {
            EXPECT_EQ(e.pattern(i, i), 1.0) << "a token shares its own feature";
            for (long j = 0; j < 8; ++j)
                EXPECT_EQ(e.pattern(i, j) == 1.0, e.tokens[static_cast<std::size_t>(i)] ==
                                                      e.tokens[static_cast<std::size_t>(j)]);
        }
    }
}

TEST(Tasks, CoreferencePronounAttendsToTheNounItsAdjectiveImplies)
{
    TaskSpec spec;
    spec.kind = TaskKind::Coreference;
    spec.dModel = 6;
    spec.examples = 6;
    const auto ex = make(spec);
    ASSERT_EQ(ex.size(), 6u);
    EXPECT_EQ(ex[0].tokens[5], "它");
    EXPECT_EQ(ex[0].tokens[7], "累");
    EXPECT_EQ(ex[0].pattern(5, 1), 1.0) << "它 -> 动物 when 累";
    EXPECT_EQ(ex[1].tokens[7], "宽");
    EXPECT_EQ(ex[1].pattern(5, 3), 1.0) << "它 -> 街 when 宽";
    EXPECT_EQ(ex[1].tokens[3], "街");
    EXPECT_EQ(ex[2].tokens[1], "猫");
    for (const TrainExample& e : ex) EXPECT_EQ(e.pattern.sum(), 1.0) << "only the pronoun's row";
    // The pronoun carries the animate feature (component 1) with 累, the place (2) with 宽.
    EXPECT_GT(ex[0].X(5, 1), 0.8);
    EXPECT_GT(ex[1].X(5, 2), 0.8);
}

TEST(Tasks, CoreferenceRefusesTooFewDimensionsAndNamesTheField)
{
    TaskSpec spec;
    spec.kind = TaskKind::Coreference;
    spec.dModel = 4;
    std::vector<TrainExample> out;
    const Status s = makeTask(spec, out);
    EXPECT_EQ(s.code, StatusCode::ShapeMismatch);
    EXPECT_EQ(s.field, "task.d_model");
    EXPECT_TRUE(out.empty());
}

TEST(Tasks, SameSeedSameExamplesOtherSeedOtherExamples)
{
    TaskSpec spec;
    spec.kind = TaskKind::Match;
    spec.n = 5;
    spec.dModel = 3;
    spec.seed = 42;
    const auto a = make(spec);
    const auto b = make(spec);
    ASSERT_EQ(a.size(), b.size());
    for (std::size_t e = 0; e < a.size(); ++e) EXPECT_EQ(a[e].X, b[e].X);
    spec.seed = 43;
    EXPECT_NE(make(spec)[0].X, a[0].X);
}

TEST(Tasks, PatternTaskKeepsTheSessionSequenceAndChecksTheShape)
{
    TaskSpec spec;
    spec.kind = TaskKind::Pattern;
    spec.X = Matrix::Random(3, 2);
    spec.tokens = {"a", "b", "c"};
    spec.pattern = Matrix::Identity(3, 3);
    const auto ex = make(spec);
    ASSERT_EQ(ex.size(), 1u);
    EXPECT_EQ(ex[0].X, spec.X);
    spec.pattern = Matrix::Identity(2, 3);
    std::vector<TrainExample> out;
    const Status s = makeTask(spec, out);
    EXPECT_EQ(s.code, StatusCode::ShapeMismatch);
    EXPECT_EQ(s.field, "task.pattern");
}

TEST(Tasks, RefusesEmptyAndHugeSequences)
{
    TaskSpec spec;
    std::vector<TrainExample> out;
    spec.n = 1;
    EXPECT_EQ(makeTask(spec, out).code, StatusCode::EmptyTarget);
    spec.n = kMaxTaskLength + 1;
    EXPECT_EQ(makeTask(spec, out).code, StatusCode::TooLarge);
    spec.n = 4;
    spec.examples = 0;
    EXPECT_EQ(makeTask(spec, out).code, StatusCode::TooLarge);
}

TEST(Tasks, NamesParseBothWays)
{
    for (TaskKind k :
         {TaskKind::PreviousToken, TaskKind::Match, TaskKind::Coreference, TaskKind::Pattern}) {
        TaskKind parsed = TaskKind::Pattern;
        ASSERT_TRUE(parseTaskKind(taskName(k), parsed));
        EXPECT_EQ(parsed, k);
    }
    TaskKind k = TaskKind::Match;
    EXPECT_FALSE(parseTaskKind("copy", k));
}

}  // namespace
}  // namespace attn
