#include "ui/document/commands.h"

#include <QCoreApplication>

#include "ui/document/document.h"

namespace attnlab {

namespace {
class Tr {
    Q_DECLARE_TR_FUNCTIONS(attnlab::Commands)
};
}  // namespace

SessionCommand::SessionCommand(Document* doc, Session before, Session after, Label label,
                               int mergeId)
    : LabelledCommand(std::move(label)),
      doc_(doc),
      before_(std::move(before)),
      after_(std::move(after)),
      mergeId_(mergeId)
{
}

void SessionCommand::undo()
{
    doc_->restore(before_);
}

void SessionCommand::redo()
{
    if (firstRedo_) {
        firstRedo_ = false;
        return;
    }
    doc_->restore(after_);
}

bool SessionCommand::mergeWith(const QUndoCommand* other)
{
    if (mergeId_ < 0 || other->id() != mergeId_) return false;
    after_ = static_cast<const SessionCommand*>(other)->after_;
    return true;
}

VectorEditCommand::VectorEditCommand(Document* doc, attn::VectorEdit before, attn::VectorEdit after,
                                     int drag, Label label)
    : LabelledCommand(label ? std::move(label) : Label([after] { return defaultLabel(after); })),
      doc_(doc),
      before_(std::move(before)),
      after_(std::move(after)),
      drag_(drag)
{
}

QString VectorEditCommand::defaultLabel(const attn::VectorEdit& edit)
{
    const int token = edit.index + 1;
    switch (edit.role) {
    case attn::Role::Key: return Tr::tr("Edit key %1").arg(token);
    case attn::Role::Query: return Tr::tr("Edit query %1").arg(token);
    case attn::Role::Value: return Tr::tr("Edit value %1").arg(token);
    }
    return {};
}

void VectorEditCommand::undo()
{
    doc_->restoreEdit(before_);
}

void VectorEditCommand::redo()
{
    if (firstRedo_) {
        firstRedo_ = false;
        return;
    }
    doc_->restoreEdit(after_);
}

bool VectorEditCommand::mergeWith(const QUndoCommand* other)
{
    const auto* o = static_cast<const VectorEditCommand*>(other);
    if (drag_ < 0 || o->drag_ != drag_ || !after_.sameTarget(o->after_)) return false;
    after_ = o->after_;
    return true;
}

}  // namespace attnlab
