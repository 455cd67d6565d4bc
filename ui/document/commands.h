#pragma once
// Undo commands. A session command stores the session before and after (undo is
// a full recompute); a vector-edit command stores the old and new edit of one
// vector (undo is incremental) and merges a slider drag into one step.

#include <QUndoCommand>

#include "ui/document/document.h"

namespace attnlab {

enum CommandId { VectorEditId = 1000, SessionMergeBase = 2000 };

class SessionCommand : public QUndoCommand {
public:
    SessionCommand(Document* doc, Session before, Session after, const QString& label, int mergeId);
    void undo() override;
    void redo() override;
    [[nodiscard]] int id() const override { return mergeId_; }
    bool mergeWith(const QUndoCommand* other) override;

private:
    Document* doc_;
    Session before_;
    Session after_;
    int mergeId_;
};

class VectorEditCommand : public QUndoCommand {
public:
    VectorEditCommand(Document* doc, attn::VectorEdit before, attn::VectorEdit after,
                      bool mergeable);
    void undo() override;
    void redo() override;
    [[nodiscard]] int id() const override { return mergeable_ ? VectorEditId : -1; }
    bool mergeWith(const QUndoCommand* other) override;

private:
    Document* doc_;
    attn::VectorEdit before_;
    attn::VectorEdit after_;
    bool mergeable_;
    bool done_ = false;
};

}  // namespace attnlab
