#include "ui/document/commands.h"

namespace attnlab {

SessionCommand::SessionCommand(Document* doc, Session before, Session after, const QString& label,
                               int mergeId)
    : QUndoCommand(label),
      doc_(doc),
      before_(std::move(before)),
      after_(std::move(after)),
      mergeId_(mergeId)
{
}

void SessionCommand::undo()
{
    doc_->applySession(before_);
}

void SessionCommand::redo()
{
    doc_->applySession(after_);
}

bool SessionCommand::mergeWith(const QUndoCommand* other)
{
    if (mergeId_ < 0 || other->id() != mergeId_) return false;
    after_ = static_cast<const SessionCommand*>(other)->after_;
    return true;
}

VectorEditCommand::VectorEditCommand(Document* doc, attn::VectorEdit before, attn::VectorEdit after,
                                     bool mergeable)
    : doc_(doc), before_(std::move(before)), after_(std::move(after)), mergeable_(mergeable)
{
    const int token = after_.index + 1;
    switch (after_.role) {
    case attn::Role::Key: setText(QObject::tr("Edit key %1").arg(token)); break;
    case attn::Role::Query: setText(QObject::tr("Edit query %1").arg(token)); break;
    case attn::Role::Value: setText(QObject::tr("Edit value %1").arg(token)); break;
    }
}

void VectorEditCommand::undo()
{
    doc_->applyEdit(before_, false);
}

void VectorEditCommand::redo()
{
    // The first redo (the push) is the live edit: incremental. Later redos follow an undo
    // and recompute fully, like the undo, so that results are bit-identical.
    doc_->applyEdit(after_, !done_);
    done_ = true;
}

bool VectorEditCommand::mergeWith(const QUndoCommand* other)
{
    const auto* o = static_cast<const VectorEditCommand*>(other);
    if (!mergeable_ || !o->mergeable_ || !after_.sameTarget(o->after_)) return false;
    after_ = o->after_;
    return true;
}

}  // namespace attnlab
