// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The document of a long session (n = 16,384 to 32,768 and beyond): a session whose every
// stage in double does not fit the memory budget, computed by the long path
// (core/long_attention.h: float, only the weights P kept) on a worker thread with progress
// and Cancel.
//
// It is a SnapshotDocument over (session, result) whose policy is Refuse: a change while one
// computes is refused with a message (Cancel first). Each named operation applies one rule of
// session_ops to a copy of the session and computes it; the session and the result are
// published together only when the computation succeeded, with one changed() signal, and the
// change is one undo step. A refused or cancelled change leaves the session and the undo stack
// as they were.
//
// Memory: when the old result and a new one fit the budget together, the old map stays on
// screen while the new one computes. When they do not (n = 32,768: 4 GiB each), the old
// weights' memory is recomputed in place: releasing() asks the views to let go of it first,
// the map is gone until the new result is in, and a cancelled change leaves no map
// (recompute() brings back the published session's).

#include <memory>

#include <QObject>
#include <QTimer>

#include "core/long_attention.h"
#include "ui/document/document_base.h"
#include "ui/document/session_ops.h"
#include "ui/document/snapshot_document.h"
#include "ui/readers/session.h"

namespace attnlab {

class LongDocument : public DocumentBase {
    Q_OBJECT
public:
    explicit LongDocument(attn::Limits limits = {}, QObject* parent = nullptr);
    ~LongDocument() override;  // cancels a computation in flight and waits for it

    // The published session and the result computed from it (null while there is none: before
    // the first computation finished, or after a cancelled one released the old map).
    [[nodiscard]] const Session& session() const { return doc_.state(); }
    [[nodiscard]] std::shared_ptr<const attn::LongResult> result() const
    {
        return doc_.result().value_or(nullptr);
    }
    [[nodiscard]] const attn::Limits& limits() const { return limits_; }
    // What the long path holds for the published session (estimateLongBytes), and of it the
    // weights P of every head.
    [[nodiscard]] std::size_t heldBytes() const;
    [[nodiscard]] std::size_t weightsBytes() const;
    // Whether a recomputation keeps the old map on screen (both fit the budget).
    [[nodiscard]] bool keepsMapWhileComputing() const;

    // Selection (not on the undo stack).
    [[nodiscard]] int head() const { return head_; }
    [[nodiscard]] int selectedRow() const { return row_; }
    void setHead(int head);
    void selectRow(int row);

    // Replaces the session (a file was opened): not undoable, clears the history. False when
    // the long path refuses it (the reason went to errorOccurred).
    bool open(const Session& session);
    // Whether a session is open: from a successful open() to close().
    [[nodiscard]] bool isOpen() const { return open_; }
    // Drops the session, its map and its history (the window took another session).
    void close();
    // The named operations, each one undo step once computed.
    bool setMode(attn::Mode mode);
    bool setScaling(attn::Scaling scaling);
    // Key `index` of head `head` scaled by `scale` (1 removes the edit): the textbook's
    // "double a key" at a realistic length.
    bool scaleKey(int head, int index, double scale);
    // Computes the published session again (after a cancelled change released the map).
    bool recompute();
    // Used by the undo commands: computes `session` and publishes it, without pushing.
    bool restore(const Session& session);

    void cancel();
    // Waits for the computation in flight and publishes it (tests).
    void flush();
    [[nodiscard]] bool computing() const { return doc_.computing(); }
    [[nodiscard]] double progress() const;
    [[nodiscard]] QString lastError() const { return lastError_; }

    // Row `row` of the current head's raw and scaled scores, recomputed from Q and K
    // (O(m d_k)) and kept for the next call with the same row. False without a result.
    bool rowScores(int row, attn::VectorT<float>& raw, attn::VectorT<float>& scaled) const;

Q_SIGNALS:
    void changed();    // a new session and result were published (or the map was released)
    void releasing();  // views must drop every reference to result() now
    void progressed(double fraction);
    void selectionChanged();
    void openChanged(bool open);

private:
    using Result = std::shared_ptr<attn::LongResult>;
    using Snapshots = SnapshotDocument<Session, Result>;
    bool start(Snapshots::Change change);
    bool commit(const Label& label, ops::Changed change);
    Snapshots::Work prepare(const Session& next);
    void published(const QStringList& notes);
    void failed(const QString& message);
    // Whether a result holding `next` bytes fits the budget beside the one shown.
    [[nodiscard]] bool fitsBesideShown(std::size_t next) const;

    attn::Limits limits_;
    Snapshots doc_;
    bool released_ = false;  // prepare() let go of the map shown
    bool open_ = false;
    QTimer progressTimer_;
    QString lastError_;
    int head_ = 0;
    int row_ = 0;
    mutable int cachedRow_ = -1;
    mutable int cachedHead_ = -1;
    mutable attn::VectorT<float> cachedRaw_, cachedScaled_;
};

}  // namespace attnlab
