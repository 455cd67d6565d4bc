// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The transaction every document follows: a change is applied to a copy of the state,
// computed on a worker (AsyncJob), and only when the computation succeeded are the state and
// its result published together, followed by the change's undo step. A refused, cancelled or
// failed change leaves the state, the result and the undo stack as they were.
//
// What a change arriving during a computation does is the document's named policy:
//  - Queue: it waits, and runs once the computation in flight was published;
//  - Refuse: it is refused with a message;
//  - Supersede: the computation in flight is cancelled and only the latest state is computed;
//    when it succeeds, the steps of every change it superseded are pushed before its own;
//  - Latest: the computation in flight goes on and is published; only the latest change waits
//    behind it (a state that follows another document's, with no undo steps of its own: the
//    model run of a head edited in the workbench shows every result it finishes, and never
//    stops one that is nearly done for each keystroke).
//
// The document supplies how a state is computed (prepare: on its own thread, returns the work
// for the worker) and how an undo step between two states is made; it learns of publication,
// refusal and cancellation through callbacks, and emits its own signals from them.
//
// Two shortcuts keep small changes instant: a state the `synchronous` hook accepts is computed
// on the document's own thread, so it is published (or refused) before submit() returns; and a
// change may bring its own in-place computation (an incremental update of the published
// result), which also runs there, and its own undo step.

#include <deque>
#include <functional>
#include <optional>
#include <utility>
#include <vector>

#include <QCoreApplication>
#include <QStringList>
#include <QUndoStack>

#include "ui/document/async_job.h"
#include "ui/document/undo_step.h"

namespace attnlab {

enum class ChangePolicy { Queue, Refuse, Supersede, Latest };

// The message of a change refused because a computation is still running (ChangePolicy::Refuse).
QString busyMessage();

template <class State, class Result>
class SnapshotDocument {
public:
    // What the worker returns: a result, or that it was cancelled, or why it failed.
    struct Outcome {
        std::optional<Result> result;
        bool cancelled = false;
        QString error;
    };
    using Work = std::function<Outcome(JobControl&)>;
    struct Hooks {
        // Called on the document's thread just before the computation of `next` starts.
        std::function<Work(const State& next)> prepare;
        // Makes the undo step from `before` to `after` (label and merge id as the change had).
        std::function<QUndoCommand*(const State& before, const State& after, const Label& label,
                                    int mergeId)>
            step;
        // True: `next` is computed on the document's thread, not on a worker (small states).
        std::function<bool(const State& next)> synchronous;
        // After state and result were published (before the undo steps are pushed). `fresh`:
        // the history starts again here (Change::fresh).
        std::function<void(const State& before, const QStringList& notes, bool fresh)> published;
        std::function<void(const QString& error)> failed;
        // The computation was cancelled (cancel()), nothing was published.
        std::function<void()> cancelled;
        // A computation on the worker started (true) or the last one ended (false): before
        // the hooks above say how it ended, after a new one started.
        std::function<void(bool busy)> busy;
    };
    // One change: the state it leads to; with a label, one undo step once published.
    struct Change {
        Change(State s, Label l = {}, int merge = -1, QStringList n = {})
            : state(std::move(s)), label(std::move(l)), mergeId(merge), notes(std::move(n))
        {
        }
        State state;
        Label label;
        int mergeId = -1;
        QStringList notes;
        // Publishing it starts a new history (a file was opened): the undo stack is cleared
        // instead of a step pushed.
        bool fresh = false;
        // Its own computation instead of prepare(state), run on the document's thread: an
        // update of the published result in place, which leaves that result as it was when it
        // fails. The policy still applies: behind a computation in flight it waits its turn.
        std::function<Outcome()> inPlace;
        // Its own undo step instead of hooks.step(before, state, label, mergeId).
        std::function<QUndoCommand*(const State& before)> step;
    };

    SnapshotDocument(ChangePolicy policy, State initial, QUndoStack& undo, QObject* context,
                     Hooks hooks)
        : policy_(policy),
          state_(std::move(initial)),
          undo_(undo),
          job_(context),
          hooks_(std::move(hooks))
    {
    }

    [[nodiscard]] ChangePolicy policy() const { return policy_; }
    [[nodiscard]] const State& state() const { return state_; }
    [[nodiscard]] const std::optional<Result>& result() const { return result_; }
    // Hands the published result over (to be recomputed in place, or freed): until the next
    // publication there is none.
    [[nodiscard]] std::optional<Result> releaseResult() { return std::exchange(result_, {}); }
    // The state the next change starts from: the last one asked for, else the published one.
    [[nodiscard]] const State& target() const
    {
        if (!waiting_.empty()) return waiting_.back().state;
        return running_ ? running_->state : state_;
    }
    [[nodiscard]] bool computing() const { return job_.running(); }
    [[nodiscard]] double progress() const { return job_.progress(); }
    [[nodiscard]] const AsyncJob<Outcome>& job() const { return job_; }

    // Asks for `change`. False when it was refused at once (Refuse while computing) or
    // computed at once and failed; otherwise its outcome arrives through the hooks.
    bool submit(Change change)
    {
        if (!job_.running() && !running_) {
            const bool published = begin(std::move(change), {});
            reportBusy();
            return published;
        }
        switch (policy_) {
        case ChangePolicy::Refuse:
            if (hooks_.failed) hooks_.failed(busyMessage());
            return false;
        case ChangePolicy::Supersede: job_.cancel(); [[fallthrough]];
        case ChangePolicy::Queue: waiting_.push_back(std::move(change)); return true;
        case ChangePolicy::Latest:
            waiting_.clear();
            waiting_.push_back(std::move(change));
            return true;
        }
        return false;
    }
    // Cancels the computation in flight and drops every change waiting for it.
    void cancel()
    {
        waiting_.clear();
        cancelling_ = true;
        job_.cancel();
    }
    // Sets the state without computing or an undo step (a file was opened, a model loaded):
    // drops what was computing and waiting, and the result.
    void reset(State state)
    {
        waiting_.clear();
        job_.drop();
        running_.reset();
        carried_.clear();
        state_ = std::move(state);
        result_.reset();
        reportBusy();
    }
    // Waits until nothing computes or waits (tests, closing).
    void flush()
    {
        while (job_.running()) job_.wait();
    }

private:
    // Starts `change`; computed at once, returns whether it was published.
    bool begin(Change change, std::vector<Change> carried)
    {
        cancelling_ = false;
        carried_ = std::move(carried);
        if (change.inPlace) {
            auto inPlace = std::move(change.inPlace);
            running_ = std::move(change);
            return finish(inPlace());
        }
        Work work = hooks_.prepare(change.state);
        const bool here = hooks_.synchronous && hooks_.synchronous(change.state);
        running_ = std::move(change);
        if (here) {
            JobControl control;
            return finish(work(control));
        }
        job_.start(std::move(work), [this](Outcome outcome) { finish(std::move(outcome)); });
        return true;
    }

    void reportBusy()
    {
        const bool busy = job_.running();
        if (busy == reportedBusy_) return;
        reportedBusy_ = busy;
        if (hooks_.busy) hooks_.busy(busy);
    }

    // Publishes or drops what the computation of running_ gave; true if it was published.
    bool finish(Outcome outcome)
    {
        Change change = std::move(*running_);
        running_.reset();
        std::vector<Change> carried = std::move(carried_);
        carried_.clear();
        if (!waiting_.empty() && policy_ == ChangePolicy::Supersede) {
            // Superseded: its result (if any) is dropped; its step goes with the latest change.
            carried.push_back(std::move(change));
            Change latest = std::move(waiting_.back());
            waiting_.pop_back();
            for (Change& c : waiting_) carried.push_back(std::move(c));
            waiting_.clear();
            const bool published = begin(std::move(latest), std::move(carried));
            reportBusy();
            return published;
        }
        bool published = false;
        reportBusy();  // the worker is done: said before what it came to
        if (outcome.cancelled || cancelling_) {
            // Asked to stop: what it computed (if it got there first) is dropped as well.
            waiting_.clear();
            if (hooks_.cancelled) hooks_.cancelled();
        } else if (outcome.result) {
            const State before = state_;
            state_ = change.state;
            result_ = std::move(outcome.result);
            carried.push_back(std::move(change));
            QStringList notes;
            bool fresh = false;
            for (const Change& c : carried) {
                notes += c.notes;
                fresh = fresh || c.fresh;
            }
            if (hooks_.published) hooks_.published(before, notes, fresh);
            State from = before;
            for (const Change& c : carried) {
                if (c.fresh)
                    undo_.clear();
                else if (c.step)
                    undo_.push(c.step(from));
                else if (c.label)
                    undo_.push(hooks_.step(from, c.state, c.label, c.mergeId));
                from = c.state;
            }
            published = true;
        } else {
            // Queued changes were made on top of the failed one; the latest one stands alone.
            if (policy_ != ChangePolicy::Latest) waiting_.clear();
            if (hooks_.failed) hooks_.failed(outcome.error);
        }
        cancelling_ = false;
        if (!waiting_.empty()) {  // Queue: the next one, from the state just published
            Change next = std::move(waiting_.front());
            waiting_.pop_front();
            begin(std::move(next), {});
        }
        reportBusy();
        return published;
    }

    ChangePolicy policy_;
    State state_;
    std::optional<Result> result_;
    QUndoStack& undo_;
    AsyncJob<Outcome> job_;
    Hooks hooks_;
    std::optional<Change> running_;
    std::vector<Change> carried_;  // superseded changes whose steps wait for running_
    bool reportedBusy_ = false;
    std::deque<Change> waiting_;
    bool cancelling_ = false;
};

}  // namespace attnlab
