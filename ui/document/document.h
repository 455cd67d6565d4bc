// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The document: the published session, the core's result for exactly that session, and the
// undo stack. It is transactional: every change is applied to a copy of the session (by a
// rule in session_ops), computed, and only when both succeeded are the session and the
// result published together, followed by one changed() signal. A refused change leaves the
// session, the result and the undo stack as they were, and says why (errorOccurred).
//
// It is a SnapshotDocument over (Session, engine). Large sessions (kBackgroundCells and more)
// compute on a worker thread: the window keeps showing the previous snapshot until the new one
// is published, and its policy for changes made meanwhile is ChangePolicy::Queue: they wait
// their turn, and each applies to the session the changes before it lead to. Smaller sessions
// compute at once, and a vector edit updates the published engine in place (only the rows it
// touches), so both are published before the operation returns.
// Views only read from it.

#include <functional>
#include <memory>
#include <optional>

#include <QObject>
#include <QUndoStack>

#include "core/incremental.h"
#include "core/train/trainer.h"
#include "ui/document/document_base.h"
#include "ui/document/session_ops.h"
#include "ui/document/snapshot_document.h"
#include "ui/document/undo_step.h"
#include "ui/readers/session.h"
#include "ui/readers/view_state.h"

namespace attnlab {

// What the last published change did to the maps, for views that keep what they drew: from
// snapshot `serial - 1` to snapshot `serial`, only rows [firstRow, endRow) of head `head`'s
// weights changed (values only: masks, shapes and tokens stayed). `whole` when anything else
// may have changed. A key edit rescales every row that may attend to the key, so under no
// mask it is every row; a value edit changes no weights (an empty range).
struct MapChange {
    quint64 serial = 0;
    bool whole = true;
    int head = -1;
    int firstRow = 0;
    int endRow = 0;
};

class Document : public DocumentBase {
    Q_OBJECT
public:
    explicit Document(QObject* parent = nullptr);

    // The published snapshot: the session and the result computed from it.
    [[nodiscard]] const Session& session() const { return doc_.state(); }
    [[nodiscard]] const attn::AttentionResult& result() const;
    [[nodiscard]] bool hasResult() const;
    [[nodiscard]] const attn::HeadResult* currentHead() const;
    // What changed from the previous snapshot to this one.
    [[nodiscard]] const MapChange& lastChange() const { return change_; }

    // Selection (not on the undo stack).
    [[nodiscard]] int head() const { return head_; }
    [[nodiscard]] int selectedRow() const { return row_; }
    [[nodiscard]] int selectedColumn() const { return col_; }
    void setHead(int head);
    void select(int row, int column);

    // What the window shows (selection, colours, walkthrough step, lesson), not undoable.
    [[nodiscard]] ViewState view() const;
    void setWeightColors(WeightColors colors);
    void setWalkthroughStep(int step);
    void setLesson(const QString& id);

    // Before/after: pin the current head's weights; the difference map compares to them.
    // They are dropped, with a notice, when the tokens or the map's shape change.
    void pinWeights();
    void clearPin();
    [[nodiscard]] const std::optional<attn::Matrix>& pinnedWeights() const { return pinned_; }
    // What the pin holds, in words the undo history gives: "pinned: before “Edit key 3”"
    // (the first change made after pinning), or that nothing changed since, or that the
    // pin is from changes since undone. Empty when nothing is pinned. It changes with every
    // published snapshot (changed()) and with pinChanged().
    [[nodiscard]] QString pinDescription() const;

    // The named operations: each applies one rule of session_ops and is one undo step.
    // They return false when the change was refused (the reason went to errorOccurred).
    bool setMode(attn::Mode mode);
    bool setScaling(attn::Scaling scaling);
    bool setTemperature(double temperature);  // a burst of these is one undo step
    bool setScore(attn::ScoreFunction score);
    // Rotary positions on (these parameters) or off (nullopt). With `merge`, consecutive
    // changes of the parameters while they stay on (a spin box's steps) are one undo step.
    bool setRope(const std::optional<attn::Rope>& rope, bool merge = false);
    bool setKeyDim(int dK);
    bool setShared(bool shared);
    bool setHeadCount(int heads);
    bool setTokens(bool source, const QStringList& tokens);
    bool setMatrixEntry(EditableMatrix m, int head, int row, int column, double value,
                        const QString& matrixName);
    bool randomise(quint64 seed);
    bool toggleMaskCell(int row, int column);
    // Sets one vector edit, computed incrementally. While `dragging`, consecutive edits of
    // the same vector are one undo step, until endDrag(). `label` names the step (default:
    // "Edit key 3").
    bool editVector(const attn::VectorEdit& edit, bool dragging = false, Label label = {});
    void endDrag() { ++drag_; }
    // Replaces the whole session (lesson, restored work): one undo step.
    bool replaceSession(const Session& session, Label label);
    // Replaces the whole session by a file's: once published, it starts a fresh history,
    // clean, with no step back to the session before (also when it computes on the worker).
    bool openSession(const Session& session);
    bool replaceSession(const Session& session, const QString& label);
    // Keeps a training run: the session with the learned matrices (ops::keepTraining, with
    // its notes), one undo step. Declared here so that the trainer never edits a session itself.
    bool keepTraining(const attn::Trainer& trainer, std::size_t example = 0);
    // Any other change (tests, tools): `mutate` edits a copy; the rest is as above.
    bool changeSession(const QString& label, const std::function<void(Session&)>& mutate,
                       int mergeId = -1);
    // Re-reads every undo step's label in the current language (also done by itself when the
    // application's translators change).
    void retranslate();
    // "Edit key 3" (positions count from 1, as the window shows them).
    static QString vectorEditLabel(const attn::VectorEdit& edit);

    // Used by undo commands only: computes `session` (or the session with `edit` set) from
    // scratch and publishes it, without pushing. False if refused.
    bool restore(const Session& session);
    bool restoreEdit(const attn::VectorEdit& edit);

    // Waits for a computation on the worker thread and applies what waited for it.
    void flush();
    // True from the start of a background job until its result is published.
    [[nodiscard]] bool computing() const { return doc_.computing(); }
    static constexpr ChangePolicy kPolicy = ChangePolicy::Queue;
    // Full recomputations with at least this many score cells (n * m * heads) run on a
    // worker thread so that the window keeps responding.
    static constexpr long kBackgroundCells = 1024L * 1024L;
    // The message for the last refused change, or empty.
    [[nodiscard]] QString lastError() const { return lastError_; }

Q_SIGNALS:
    void changed();           // a new snapshot was published
    void inputsChanged();     // ... and it changed more than one vector edit (then changed())
    void selectionChanged();  // head, row or column changed
    void pinChanged();
    void viewChanged();  // colours, walkthrough step or lesson

private:
    // The result of a published session: the engine that computed it (shared, so that a vector
    // edit can update the published one in place), and for such an edit the rows it changed.
    struct Computed {
        std::shared_ptr<attn::AttentionEngine> engine;
        std::optional<MapChange> rows;
    };
    using Snapshots = SnapshotDocument<Session, Computed>;

    Snapshots::Hooks hooks();
    bool commit(Label label, ops::Changed change, int mergeId = -1);
    // Validates `change`'s session, then hands it to the snapshot document.
    bool submit(Snapshots::Change change);
    // The change that sets `edit` on the session the queue leads to, computed in place.
    Snapshots::Change editChange(const attn::VectorEdit& edit);
    void published(const Session& before, const QStringList& notes, bool fresh);
    bool refuse(const attn::Status& status);
    bool refuse(const QString& message);
    // Every undo step passes here just before it is pushed: keeps the pin's place in the
    // history (see pinIndex_).
    QUndoCommand* stepped(QUndoCommand* command);
    void clampSelection();

    Snapshots doc_;
    int head_ = 0;
    int row_ = 0;
    int col_ = 0;
    std::optional<attn::Matrix> pinned_;
    // The undo index at which the weights were pinned: the command at this index is the first
    // change after the pin. -1 when the history the pin was taken in was undone and replaced.
    int pinIndex_ = 0;
    QString lastError_;
    int drag_ = 0;
    MapChange change_;
    ViewState view_;  // its head, row and column are head_, row_ and col_
};

}  // namespace attnlab
