// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/document/long_document.h"

#include <QCoreApplication>

#include "ui/readers/status_text.h"

namespace attnlab {

namespace {

class LongDocumentTr {
    Q_DECLARE_TR_FUNCTIONS(attnlab::LongDocument)
};

}  // namespace

LongDocument::LongDocument(attn::Limits limits, QObject* parent)
    : DocumentBase(parent),
      limits_(limits),
      doc_(ChangePolicy::Refuse, Session{}, undo_, this,
           {.prepare = [this](const Session& next) { return prepare(next); },
            .step =
                [this](const Session& before, const Session& after, const Label& label, int) {
                    return new StateStep<Session>(label, before, after,
                                                  [this](const Session& s) { restore(s); });
                },
            .synchronous = {},
            .published = [this](const Session&, const QStringList& notes,
                                bool) { published(notes); },
            .failed = [this](const QString& message) { failed(message); },
            .cancelled =
                [this] {
                    Q_EMIT noticed(
                        result() ? LongDocumentTr::tr(
                                       "Cancelled: the map shows the session before the change.")
                                 : LongDocumentTr::tr(
                                       "Cancelled: there is no map until it is computed again."));
                },
            .busy = [this](bool busy) { setBusy(busy); }})
{
    progressTimer_.setInterval(100);
    connect(&progressTimer_, &QTimer::timeout, this, [this] { Q_EMIT progressed(progress()); });
    // Progress is reported while a computation runs, from its first moment.
    connect(this, &DocumentBase::busyChanged, this, [this](bool busy) {
        if (!busy) {
            progressTimer_.stop();
            return;
        }
        progressTimer_.start();
        Q_EMIT progressed(0.0);
    });
}

LongDocument::~LongDocument() = default;  // the job cancels and waits for its computation

std::size_t LongDocument::heldBytes() const
{
    return attn::estimateLongBytes(session().input);
}

std::size_t LongDocument::weightsBytes() const
{
    const attn::AttentionInput& in = session().input;
    return static_cast<std::size_t>(std::max<long>(in.queryCount(), 0)) *
           static_cast<std::size_t>(std::max<long>(in.keyCount(), 0)) * in.heads.size() *
           sizeof(float);
}

bool LongDocument::keepsMapWhileComputing() const
{
    return fitsBesideShown(heldBytes());
}

bool LongDocument::fitsBesideShown(std::size_t next) const
{
    return heldBytes() + next <= limits_.maxBytes;
}

double LongDocument::progress() const
{
    return computing() ? doc_.progress() : 1.0;
}

void LongDocument::setHead(int head)
{
    head = std::clamp(head, 0, std::max(0, static_cast<int>(session().input.heads.size()) - 1));
    if (head == head_) return;
    head_ = head;
    Q_EMIT selectionChanged();
}

void LongDocument::selectRow(int row)
{
    row = std::clamp(row, 0, std::max(0, static_cast<int>(session().input.queryCount()) - 1));
    if (row == row_) return;
    row_ = row;
    Q_EMIT selectionChanged();
}

bool LongDocument::open(const Session& session)
{
    if (const attn::Status s = attn::validateLong(session.input, limits_); !s.ok()) {
        failed(statusMessage(s));
        return false;
    }
    if (result()) Q_EMIT releasing();
    progressTimer_.stop();
    doc_.reset(session);
    undo_.clear();
    head_ = 0;
    row_ = 0;
    const bool opened = !open_;
    open_ = true;
    Q_EMIT changed();
    if (opened) Q_EMIT openChanged(true);
    return start({session, {}});
}

void LongDocument::close()
{
    if (!open_) return;
    if (result()) Q_EMIT releasing();
    doc_.reset(Session{});
    undo_.clear();
    open_ = false;
    head_ = 0;
    row_ = 0;
    cachedRow_ = -1;
    lastError_.clear();
    Q_EMIT changed();
    Q_EMIT openChanged(false);
}

bool LongDocument::setMode(attn::Mode mode)
{
    return commit([] { return LongDocumentTr::tr("Change the mode"); },
                  ops::setMode(session(), mode));
}

bool LongDocument::setScaling(attn::Scaling scaling)
{
    return commit([] { return LongDocumentTr::tr("Change the scaling"); },
                  ops::setScaling(session(), scaling));
}

bool LongDocument::scaleKey(int head, int index, double scale)
{
    attn::VectorEdit edit;
    edit.role = attn::Role::Key;
    edit.head = head;
    edit.index = index;
    edit.scale = scale;
    if (const attn::Status s = attn::validateEdit(session().input, edit); !s.ok()) {
        failed(statusMessage(s));
        return false;
    }
    ops::Changed c{session(), {}};
    attn::upsertEdit(c.session.input.edits, edit);
    return commit(
        [index, scale] {
            return LongDocumentTr::tr("Scale key %1 by %2").arg(index + 1).arg(scale);
        },
        std::move(c));
}

bool LongDocument::recompute()
{
    if (computing()) return false;
    return start({session(), {}});
}

bool LongDocument::restore(const Session& session)
{
    return start({session, {}});
}

bool LongDocument::commit(const Label& label, ops::Changed change)
{
    return start({std::move(change.session), label, -1, std::move(change.notes)});
}

bool LongDocument::start(Snapshots::Change change)
{
    if (const attn::Status s = attn::validateLong(change.state.input, limits_); !s.ok()) {
        failed(statusMessage(s));
        return false;
    }
    released_ = false;
    if (!doc_.submit(std::move(change))) return false;
    lastError_.clear();
    if (released_) Q_EMIT changed();  // the map is gone until the new one is in
    return true;
}

LongDocument::Snapshots::Work LongDocument::prepare(const Session& next)
{
    // Two results at once would not fit: the old one is recomputed in place.
    std::shared_ptr<attn::LongResult> recycled;
    if (result() && !fitsBesideShown(attn::estimateLongBytes(next.input))) {
        Q_EMIT releasing();
        released_ = true;
        Result old = doc_.releaseResult().value_or(nullptr);
        // Only memory that nobody reads any more is written into.
        if (old.use_count() == 1) recycled = std::move(old);
    }
    return [input = next.input, limits = limits_,
            recycled = std::move(recycled)](JobControl& control) mutable {
        auto result = std::make_shared<attn::LongResult>();
        const attn::LongOutcome outcome = attn::computeLongAttention(
            input, *result, limits,
            [&control](double f) {
                control.report(f);
                return !control.cancelled();
            },
            recycled.get());
        recycled.reset();
        Snapshots::Outcome out;
        out.cancelled = outcome.cancelled;
        if (outcome.ok())
            out.result = std::move(result);
        else if (!outcome.cancelled)
            out.error = statusMessage(outcome.status);
        return out;
    };
}

void LongDocument::published(const QStringList& notes)
{
    cachedRow_ = -1;
    head_ = std::min(head_, std::max(0, static_cast<int>(result()->heads.size()) - 1));
    Q_EMIT changed();
    for (const QString& note : notes) Q_EMIT noticed(note);
}

void LongDocument::failed(const QString& message)
{
    lastError_ = message;
    Q_EMIT errorOccurred(lastError_);
}

void LongDocument::cancel()
{
    doc_.cancel();
}

void LongDocument::flush()
{
    doc_.flush();
}

bool LongDocument::rowScores(int row, attn::VectorT<float>& raw, attn::VectorT<float>& scaled) const
{
    const std::shared_ptr<const attn::LongResult> shown = result();
    if (!shown || head_ >= static_cast<int>(shown->heads.size()) || row < 0 ||
        row >= shown->heads[static_cast<std::size_t>(head_)].Q.rows())
        return false;
    if (row != cachedRow_ || head_ != cachedHead_) {
        attn::longRowScores(session().input, *shown, head_, row, cachedRaw_, cachedScaled_);
        cachedRow_ = row;
        cachedHead_ = head_;
    }
    raw = cachedRaw_;
    scaled = cachedScaled_;
    return true;
}

}  // namespace attnlab
