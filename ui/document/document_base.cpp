// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/document/document_base.h"

#include "ui/document/undo_step.h"

namespace attnlab {

DocumentBase::DocumentBase(QObject* parent) : QObject(parent)
{
    UndoStep::followLanguage(undo_);
}

DocumentBase::~DocumentBase()
{
    // The stack empties itself as it goes and says so; by now the document that watchers of
    // its index would ask about (an autosave asking whether it is clean) is gone.
    undo_.blockSignals(true);
}

void DocumentBase::setBusy(bool busy)
{
    if (busy == busy_) return;
    busy_ = busy;
    Q_EMIT busyChanged(busy);
}

}  // namespace attnlab
