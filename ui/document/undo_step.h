// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// One undo step of a document. A document pushes its step after it has computed and published
// the change, so the step starts "applied": its first redo() (QUndoStack::push calls it) does
// nothing; later redos and undos ask the document to restore a state, which the document
// computes like any other change and refuses without changing anything if that fails.
//
// The label is a function, so that it is produced again in the current language when a
// translator is installed or removed (followLanguage).

#include <functional>
#include <utility>

#include <QUndoCommand>

class QUndoStack;

namespace attnlab {

using Label = std::function<QString()>;

class UndoStep : public QUndoCommand {
public:
    using Action = std::function<void()>;
    // `mergeId` >= 0: a step pushed right after one of the same id and the same `mergeKey`
    // may fold into it (see StateStep).
    UndoStep(Label label, int mergeId = -1, long long mergeKey = 0);
    void retranslate() { setText(label_ ? label_() : QString()); }
    [[nodiscard]] int id() const override { return mergeId_; }
    [[nodiscard]] long long mergeKey() const { return mergeKey_; }

    // Re-reads the label of every UndoStep on `stack` in the current language.
    static void retranslate(QUndoStack& stack);
    // Keeps `stack`'s labels in the current language: retranslates them whenever the
    // application's translators change (QEvent::LanguageChange reaches the application object).
    static void followLanguage(QUndoStack& stack);

protected:
    // True until the first redo(): the change was already applied when the step was pushed.
    [[nodiscard]] bool takeApplied() { return std::exchange(applied_, false); }

private:
    Label label_;
    int mergeId_;
    long long mergeKey_;
    bool applied_ = true;
};

// A step between two states of the document (a session, a list of edits): undo restores
// `before`, redo `after`, both through `restore`. Consecutive steps of the same merge id and
// key fold into one when `canMerge(after, other's after)` (by default: always), keeping this
// step's `before` and the other's `after`.
template <class State>
class StateStep : public UndoStep {
public:
    using Restore = std::function<void(const State&)>;
    using CanMerge = std::function<bool(const State& ours, const State& theirs)>;
    StateStep(Label label, State before, State after, Restore restore, int mergeId = -1,
              long long mergeKey = 0, CanMerge canMerge = {})
        : UndoStep(std::move(label), mergeId, mergeKey),
          before_(std::move(before)),
          after_(std::move(after)),
          restore_(std::move(restore)),
          canMerge_(std::move(canMerge))
    {
    }
    void undo() override { restore_(before_); }
    void redo() override
    {
        if (!takeApplied()) restore_(after_);
    }
    bool mergeWith(const QUndoCommand* other) override
    {
        const auto* o = dynamic_cast<const StateStep*>(other);
        if (id() < 0 || !o || o->id() != id() || o->mergeKey() != mergeKey()) return false;
        if (canMerge_ && !canMerge_(after_, o->after_)) return false;
        after_ = o->after_;
        return true;
    }
    [[nodiscard]] const State& before() const { return before_; }
    [[nodiscard]] const State& after() const { return after_; }

private:
    State before_;
    State after_;
    Restore restore_;
    CanMerge canMerge_;
};

}  // namespace attnlab
