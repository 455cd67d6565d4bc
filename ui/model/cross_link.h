// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A translator's cross head in the workbench, carried back: after Open in Workbench on a cross
// head (Seq2SeqDocument::openInWorkbench), every result the workbench publishes for that
// session is handed to the translator as a CrossCarry (the head's weights P and output P V as
// the workbench computed them after its edits). The translator runs again with that head
// replaced, on the target the head was taken on, and its change grid and predictions show what
// the edit did to the rest of the model.
//
// Data flows one way: the workbench's Document publishes {session, result}; this link only
// reads the result's head and calls the translator's one operation (carry). The head as opened
// is carried too: it is the model's own within float rounding, which the change grid and the
// predictions show as no change. A session whose mode or tokens no longer fit is not carried,
// and mismatch() says why (in the translator too), until undo makes it fit again.

#include <QObject>
#include <QPointer>
#include <QStringList>

#include "ui/model/head_request.h"

namespace attnlab {

class Document;
class Seq2SeqDocument;

class CrossLink : public QObject {
    Q_OBJECT
public:
    explicit CrossLink(Document* workbench, QObject* parent = nullptr);

    // Carries the workbench's session, which now is `request`'s cross head, into
    // `translator` from the next change on; what was attached before is let go.
    void attach(Seq2SeqDocument* translator, const CrossHeadRequest& request);
    void detach();
    [[nodiscard]] bool active() const { return translator_ != nullptr; }
    // Why the workbench's session is not carried now (translated); empty when it is, or idle.
    [[nodiscard]] QString mismatch() const { return mismatch_; }

private:
    void sessionChanged();
    // Tells the translator why nothing is carried (empty: it is again), once per change.
    void setMismatch(const QString& why);

    Document* workbench_;
    QPointer<Seq2SeqDocument> translator_;
    CrossHeadTaken taken_;
    QStringList sourceTokens_;  // the session's labels, to know the session again
    QStringList targetTokens_;
    QString mismatch_;
};

}  // namespace attnlab
