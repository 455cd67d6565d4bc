// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/document/undo_step.h"

#include <QCoreApplication>
#include <QEvent>
#include <QUndoStack>

namespace attnlab {

namespace {

// Lives as the stack's child, so that it stops listening when the stack goes.
class LanguageFollower : public QObject {
public:
    explicit LanguageFollower(QUndoStack& stack) : QObject(&stack), stack_(stack)
    {
        if (QCoreApplication* app = QCoreApplication::instance()) app->installEventFilter(this);
    }

protected:
    bool eventFilter(QObject* watched, QEvent* event) override
    {
        if (watched == QCoreApplication::instance() && event->type() == QEvent::LanguageChange)
            UndoStep::retranslate(stack_);
        return false;
    }

private:
    QUndoStack& stack_;
};

}  // namespace

UndoStep::UndoStep(Label label, int mergeId, long long mergeKey)
    : label_(std::move(label)), mergeId_(mergeId), mergeKey_(mergeKey)
{
    retranslate();
}

void UndoStep::retranslate(QUndoStack& stack)
{
    for (int i = 0; i < stack.count(); ++i) {
        // QUndoStack hands out const commands; the label is ours to refresh.
        if (auto* step = dynamic_cast<UndoStep*>(const_cast<QUndoCommand*>(stack.command(i))))
            step->retranslate();
    }
}

void UndoStep::followLanguage(QUndoStack& stack)
{
    new LanguageFollower(stack);
}

}  // namespace attnlab
