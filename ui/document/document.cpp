#include "ui/document/document.h"

#include <QTimer>
#include <QtConcurrent/QtConcurrentRun>

#include "ui/document/commands.h"
#include "ui/document/status_text.h"

namespace attnlab {

Document::Document(QObject* parent) : QObject(parent)
{
    connect(&watcher_, &QFutureWatcher<Computed>::finished, this, &Document::finishBackground);
    applySession(defaultSession());
    flush();
}

const attn::HeadResult* Document::currentHead() const
{
    if (!engine_.hasResult()) return nullptr;
    const auto& heads = engine_.result().heads;
    if (head_ < 0 || head_ >= static_cast<int>(heads.size())) return nullptr;
    return &heads[static_cast<std::size_t>(head_)];
}

void Document::setHead(int head)
{
    if (head == head_) return;
    head_ = head;
    clampSelection();
    pinned_.reset();
    Q_EMIT pinChanged();
    Q_EMIT selectionChanged();
}

void Document::select(int row, int column)
{
    if (row == row_ && column == col_) return;
    row_ = row;
    col_ = column;
    clampSelection();
    Q_EMIT selectionChanged();
}

void Document::clampSelection()
{
    const int n = static_cast<int>(session_.input.queryCount());
    const int m = static_cast<int>(session_.input.keyCount());
    const int h = static_cast<int>(session_.input.heads.size());
    head_ = std::clamp(head_, 0, std::max(h - 1, 0));
    row_ = std::clamp(row_, 0, std::max(n - 1, 0));
    col_ = std::clamp(col_, 0, std::max(m - 1, 0));
}

void Document::pinWeights()
{
    flush();
    if (const attn::HeadResult* hr = currentHead()) {
        pinned_ = hr->weights;
        Q_EMIT pinChanged();
    }
}

void Document::clearPin()
{
    pinned_.reset();
    Q_EMIT pinChanged();
}

bool Document::changeSession(const QString& label, const std::function<void(Session&)>& mutate,
                             int mergeId)
{
    Session next = session_;
    mutate(next);
    if (const attn::Status s = attn::validate(next.input, attn::Limits{}); !s.ok()) {
        lastError_ = statusMessage(s);
        Q_EMIT errorOccurred(lastError_);
        return false;
    }
    lastError_.clear();
    undo_.push(new SessionCommand(this, session_, std::move(next), label,
                                  mergeId < 0 ? -1 : SessionMergeBase + mergeId));
    return true;
}

bool Document::editVector(const attn::VectorEdit& edit, bool dragging)
{
    if (const attn::Status s = attn::validateEdit(session_.input, edit); !s.ok()) {
        lastError_ = statusMessage(s);
        Q_EMIT errorOccurred(lastError_);
        return false;
    }
    attn::VectorEdit before;
    before.role = edit.role;
    before.head = edit.head;
    before.index = edit.index;
    if (const attn::VectorEdit* old =
            attn::findEdit(session_.input.edits, edit.role, edit.head, edit.index))
        before = *old;
    undo_.push(new VectorEditCommand(this, before, edit, dragging));
    return true;
}

bool Document::replaceSession(const Session& session, const QString& label)
{
    if (const attn::Status s = attn::validate(session.input, attn::Limits{}); !s.ok()) {
        lastError_ = statusMessage(s);
        Q_EMIT errorOccurred(lastError_);
        return false;
    }
    undo_.push(new SessionCommand(this, session_, session, label, -1));
    return true;
}

void Document::applySession(const Session& session)
{
    session_ = session;
    fullPending_ = true;
    pendingEdits_.clear();
    scheduleRecompute();
}

void Document::applyEdit(const attn::VectorEdit& edit, bool incremental)
{
    attn::upsertEdit(session_.input.edits, edit);
    if (!incremental) {
        fullPending_ = true;
        pendingEdits_.clear();
    }
    if (!fullPending_) pendingEdits_.push_back(edit);
    scheduleRecompute();
}

void Document::scheduleRecompute()
{
    if (scheduled_) return;
    scheduled_ = true;
    QTimer::singleShot(0, this, &Document::recompute);
}

void Document::flush()
{
    if (background_) {
        watcher_.waitForFinished();
        finishBackground();
    }
    if (scheduled_ || fullPending_ || !pendingEdits_.empty()) recompute();
    // recompute() may have handed a large job to the worker: flush means "done now".
    if (background_) {
        watcher_.waitForFinished();
        finishBackground();
    }
}

void Document::recompute()
{
    scheduled_ = false;
    if (background_) return;  // finishBackground() picks up what is pending
    if (!fullPending_ && pendingEdits_.empty()) return;
    const attn::AttentionInput& in = session_.input;
    const long cells = in.queryCount() * in.keyCount() * static_cast<long>(in.heads.size());
    if (fullPending_ && cells >= kBackgroundCells) {
        startBackground();
        return;
    }
    attn::Status status;
    const bool inputs = fullPending_;
    if (fullPending_) {
        status = engine_.setInput(session_.input);
        fullPending_ = false;
        pendingEdits_.clear();
    } else {
        applyPendingEdits(status);
    }
    publish(status, inputs);
}

void Document::startBackground()
{
    // The worker computes into its own result from a copy of the input; the engine (and
    // so everything the views read) is only touched on this thread, in finishBackground().
    fullPending_ = false;
    pendingEdits_.clear();
    background_ = true;
    watcher_.setFuture(QtConcurrent::run([input = session_.input] {
        Computed c;
        c.status = attn::computeAttention<double>(input, c.result);
        c.input = input;
        return c;
    }));
}

void Document::finishBackground()
{
    if (!background_) return;
    if (!watcher_.future().isValid() || watcher_.future().resultCount() == 0) {
        background_ = false;  // nothing to adopt; let pending work run
        if (fullPending_ || !pendingEdits_.empty()) scheduleRecompute();
        return;
    }
    Computed c = watcher_.future().takeResult();
    watcher_.setFuture(QFuture<Computed>());
    background_ = false;
    attn::Status status = c.status;
    if (status.ok()) engine_.adopt(std::move(c.input), std::move(c.result));
    if (fullPending_) {  // the session changed again meanwhile: start over
        scheduleRecompute();
        return;
    }
    applyPendingEdits(status);
    publish(status, true);
}

void Document::applyPendingEdits(attn::Status& status)
{
    // Only the last edit of each vector matters in a burst.
    for (std::size_t i = 0; i < pendingEdits_.size() && status.ok(); ++i) {
        bool superseded = false;
        for (std::size_t k = i + 1; k < pendingEdits_.size(); ++k)
            superseded = superseded || pendingEdits_[k].sameTarget(pendingEdits_[i]);
        if (!superseded) status = engine_.setEdit(pendingEdits_[i]);
    }
    pendingEdits_.clear();
}

void Document::publish(const attn::Status& status, bool inputs)
{
    clampSelection();
    if (!status.ok()) {
        lastError_ = statusMessage(status);
        Q_EMIT errorOccurred(lastError_);
        return;
    }
    if (inputs) Q_EMIT inputsChanged();
    Q_EMIT changed();
}

}  // namespace attnlab
