// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What every document has around its transaction (snapshot_document.h): the undo stack, whose
// steps are relabelled when the language changes; one signal for whether it is computing; and
// the two kinds of message a change can leave, why it was refused and what else it did.

#include <QObject>
#include <QString>
#include <QUndoStack>

namespace attnlab {

class DocumentBase : public QObject {
    Q_OBJECT
public:
    explicit DocumentBase(QObject* parent = nullptr);
    ~DocumentBase() override;

    [[nodiscard]] QUndoStack* undoStack() { return &undo_; }
    // A computation runs on a worker (the views show progress, the window a busy cursor).
    [[nodiscard]] bool busy() const { return busy_; }

Q_SIGNALS:
    void busyChanged(bool busy);
    void errorOccurred(const QString& message);  // a change was refused: why
    void noticed(const QString& message);        // a change also did this (edits dropped, …)

protected:
    // For the SnapshotDocument's busy hook: says busyChanged only when it changes.
    void setBusy(bool busy);

    QUndoStack undo_;  // before the SnapshotDocument that pushes onto it

private:
    bool busy_ = false;
};

}  // namespace attnlab
