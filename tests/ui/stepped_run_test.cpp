// SPDX-License-Identifier: GPL-3.0-or-later
// The stepped-run template (ui/document/stepped_run.h) with the smallest stepper there is: a
// counter whose snapshots carry the values it took since the last one. A new kind of run is a
// stepper and a snapshot type, and gets the worker, the commands, the throttle and the snapshots.
#include "ui/document/stepped_run.h"

#include <atomic>
#include <gtest/gtest.h>
#include <limits>
#include <memory>

#include <QTest>

namespace attnlab {
namespace {

struct CountSnapshot : RunStamp {
    std::vector<long> values;  // taken since the previous snapshot
};

struct CountState {
    std::vector<long> values;  // every value, in order
};

class CountStepper {
public:
    using Snapshot = CountSnapshot;
    using State = CountState;

    explicit CountStepper(long failAt = -1, std::shared_ptr<std::atomic<long>> taken = nullptr)
        : failAt_(failAt), taken_(std::move(taken))
    {
    }
    void begin() { began_ = true; }
    [[nodiscard]] long steps() const { return steps_; }
    attn::Status step()
    {
        if (steps_ == failAt_)
            return attn::failure(attn::StatusCode::EmptyInput, "", "counter", "a planted failure");
        ++steps_;
        pending_.push_back(began_ ? steps_ : -steps_);
        if (taken_) taken_->store(steps_);
        return {};
    }
    Snapshot snapshot(RunStamp stamp)
    {
        Snapshot s;
        static_cast<RunStamp&>(s) = std::move(stamp);
        s.values = std::exchange(pending_, {});
        return s;
    }
    static void receive(State& state, Snapshot& snap)
    {
        state.values.insert(state.values.end(), snap.values.begin(), snap.values.end());
    }

private:
    long steps_ = 0;
    long failAt_;
    // Steps taken, seen at once by the test (a snapshot may wait for the pacing interval).
    std::shared_ptr<std::atomic<long>> taken_;
    bool began_ = false;
    std::vector<long> pending_;
};

using CountRun = SteppedRun<CountStepper>;

bool settles(const CountRun& run)
{
    return QTest::qWaitFor([&run] { return run.settled(); }, 20000);
}

TEST(SteppedRun, RunToTakesEveryStepAndEverySnapshotReachesTheStateInOrder)
{
    CountRun run(CountStepper(), 1000, 5);
    EXPECT_FALSE(run.running());
    run.runTo(200);
    EXPECT_TRUE(run.running());
    ASSERT_TRUE(settles(run));
    EXPECT_EQ(run.stamp().steps, 200);
    ASSERT_EQ(run.state().values.size(), 200u);
    for (long i = 0; i < 200; ++i)
        EXPECT_EQ(run.state().values[static_cast<std::size_t>(i)], i + 1);
    EXPECT_TRUE(run.last().idle);
}

TEST(SteppedRun, ATargetBeyondTheLastStepStopsThere)
{
    CountRun run(CountStepper(), 30, 5);
    run.runTo(1000);
    ASSERT_TRUE(settles(run));
    EXPECT_EQ(run.stamp().steps, 30);
}

TEST(SteppedRun, PauseStopsAfterTheStepInProgressAndRunToGoesOnFromThere)
{
    CountRun run(CountStepper(), 1'000'000, 5);
    run.setStepDelayUs(2000);  // slow enough to pause midway
    run.runTo(1'000'000);
    ASSERT_TRUE(QTest::qWaitFor([&run] { return run.stamp().steps >= 3; }, 20000));
    run.pause();
    ASSERT_TRUE(settles(run));
    const long stopped = run.stamp().steps;
    EXPECT_LT(stopped, 1'000'000);
    // A command the worker answers only after the pause: had it kept stepping, the steps it
    // reports now would be more.
    run.runTo(stopped);
    ASSERT_TRUE(settles(run));
    EXPECT_EQ(run.stamp().steps, stopped) << "a step after the pause";
    run.setStepDelayUs(0);
    run.runTo(stopped + 5);
    ASSERT_TRUE(settles(run));
    EXPECT_EQ(run.stamp().steps, stopped + 5);
    EXPECT_EQ(run.state().values.size(), static_cast<std::size_t>(stopped + 5));
}

TEST(SteppedRun, AFailedStepStopsTheRunWithItsMessage)
{
    CountRun run(CountStepper(7), 100, 5);
    run.runTo(100);
    ASSERT_TRUE(settles(run));
    EXPECT_EQ(run.stamp().steps, 7);
    EXPECT_FALSE(run.stamp().error.isEmpty());
    EXPECT_FALSE(run.running());
}

TEST(SteppedRun, BeginRunsOnTheWorkerBeforeTheFirstStep)
{
    CountRun run(CountStepper(), 10, 5);
    run.runTo(3);
    ASSERT_TRUE(settles(run));
    ASSERT_EQ(run.state().values.size(), 3u);
    EXPECT_GT(run.state().values.front(), 0) << "a step was taken before begin()";
}

TEST(SteppedRun, DestroyingARunningRunStopsAndJoinsItsWorker)
{
    auto taken = std::make_shared<std::atomic<long>>(0);
    auto run = std::make_unique<CountRun>(CountStepper(-1, taken), 1'000'000'000, 5);
    // A wait of half an hour after each step: unless the stop cuts it short, the reset below
    // does not return and the test runs into its time limit.
    run->setStepDelayUs(std::numeric_limits<int>::max());
    run->runTo(1'000'000'000);
    // The first step's snapshot may wait for the pacing interval, which the wait postpones: the
    // step is seen where it is taken.
    ASSERT_TRUE(QTest::qWaitFor([&taken] { return taken->load() >= 1; }, 20000));
    run.reset();
    EXPECT_FALSE(run);
}

}  // namespace
}  // namespace attnlab
