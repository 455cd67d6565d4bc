#pragma once
// The document: the whole session, its undo stack and the latest core result.
// Every change goes through a command on the undo stack; the document asks the
// core to recompute (incrementally for single-vector edits), coalescing bursts so
// at most one recompute happens per event-loop turn, then emits changed() once.
// Views only read from it.

#include <functional>
#include <optional>

#include <QFutureWatcher>
#include <QObject>
#include <QUndoStack>

#include "core/incremental.h"
#include "ui/document/session.h"

namespace attnlab {

class Document : public QObject {
    Q_OBJECT
public:
    explicit Document(QObject* parent = nullptr);

    [[nodiscard]] const Session& session() const { return session_; }
    [[nodiscard]] const attn::AttentionResult& result() const { return engine_.result(); }
    [[nodiscard]] bool hasResult() const { return engine_.hasResult(); }
    [[nodiscard]] QUndoStack* undoStack() { return &undo_; }
    [[nodiscard]] const attn::HeadResult* currentHead() const;

    // Selection and view state (not on the undo stack).
    [[nodiscard]] int head() const { return head_; }
    [[nodiscard]] int selectedRow() const { return row_; }
    [[nodiscard]] int selectedColumn() const { return col_; }
    void setHead(int head);
    void select(int row, int column);

    // Before/after: pin the current head's weights; the difference map compares to them.
    void pinWeights();
    void clearPin();
    [[nodiscard]] const std::optional<attn::Matrix>& pinnedWeights() const { return pinned_; }

    // Undoable changes. Each validates first; an invalid change is refused with
    // errorOccurred() and nothing is pushed. `mergeId` >= 0 folds a burst of changes
    // with the same id (a spin-box drag) into one undo step.
    bool changeSession(const QString& label, const std::function<void(Session&)>& mutate,
                       int mergeId = -1);
    // Sets one vector edit; `dragging` merges consecutive edits of the same vector.
    bool editVector(const attn::VectorEdit& edit, bool dragging = false);
    // Replaces the whole session (open file, lesson): one undo step.
    bool replaceSession(const Session& session, const QString& label);

    // Used by commands only: apply state without pushing.
    void applySession(const Session& session);
    // `incremental`: update only what the vector changes; otherwise recompute fully, which
    // undo and redo use so that they restore bit-identical results.
    void applyEdit(const attn::VectorEdit& edit, bool incremental = true);

    // Runs a pending recompute now, waiting for one on the worker thread (tests, exports).
    void flush();
    // True while a full recomputation runs on the worker thread; the result shown is the
    // previous one until it finishes.
    // True from the start of a background job until its result is adopted (not merely
    // until the worker returns: the finished signal may still be queued).
    [[nodiscard]] bool computing() const { return background_; }
    // Full recomputations with at least this many score cells (n * m * heads) run on a
    // worker thread so that the window keeps responding.
    static constexpr long kBackgroundCells = 1024L * 1024L;
    // The message for the last refused change or failed recompute, or empty.
    [[nodiscard]] QString lastError() const { return lastError_; }

Q_SIGNALS:
    void changed();           // the result (and maybe the session) changed
    void inputsChanged();     // the session changed other than by a vector edit (then changed())
    void selectionChanged();  // head, row or column changed
    void pinChanged();
    void errorOccurred(const QString& message);

private:
    struct Computed {
        attn::Status status;
        attn::AttentionInput input;
        attn::AttentionResult result;
    };
    void scheduleRecompute();
    void recompute();
    void startBackground();
    void finishBackground();
    void applyPendingEdits(attn::Status& status);
    void publish(const attn::Status& status, bool inputs);
    void clampSelection();

    Session session_;
    attn::AttentionEngine engine_;
    QUndoStack undo_;
    int head_ = 0;
    int row_ = 0;
    int col_ = 0;
    std::optional<attn::Matrix> pinned_;
    bool fullPending_ = false;
    std::vector<attn::VectorEdit> pendingEdits_;
    bool scheduled_ = false;
    QFutureWatcher<Computed> watcher_;
    bool background_ = false;
    QString lastError_;
};

}  // namespace attnlab
