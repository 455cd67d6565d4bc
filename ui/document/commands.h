#pragma once
// Undo commands. The Document has already computed and published a change when it pushes
// its command, so each command's first redo() does nothing; later redos and undos restore
// through the Document, which recomputes from scratch (bit-identical results) and refuses
// without changing anything if that fails. Labels are functions, so that they follow a
// language switch (Document::retranslate).

#include <functional>

#include <QUndoCommand>

#include "ui/document/session.h"

namespace attnlab {

class Document;

using Label = std::function<QString()>;

enum CommandId { VectorEditId = 1000, SessionMergeBase = 2000 };

class LabelledCommand : public QUndoCommand {
public:
    explicit LabelledCommand(Label label) : label_(std::move(label)) { retranslate(); }
    void retranslate() { setText(label_ ? label_() : QString()); }

protected:
    bool firstRedo_ = true;  // the push: already applied by the Document

private:
    Label label_;
};

class SessionCommand : public LabelledCommand {
public:
    SessionCommand(Document* doc, Session before, Session after, Label label, int mergeId);
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

class VectorEditCommand : public LabelledCommand {
public:
    // `drag` >= 0: consecutive edits of the same vector in the same drag are one step.
    VectorEditCommand(Document* doc, attn::VectorEdit before, attn::VectorEdit after, int drag,
                      Label label);
    void undo() override;
    void redo() override;
    [[nodiscard]] int id() const override { return drag_ >= 0 ? VectorEditId : -1; }
    bool mergeWith(const QUndoCommand* other) override;
    // "Edit key 3" (positions count from 1, as the window shows them).
    static QString defaultLabel(const attn::VectorEdit& edit);

private:
    Document* doc_;
    attn::VectorEdit before_;
    attn::VectorEdit after_;
    int drag_;
};

}  // namespace attnlab
