// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/document/document.h"

#include <algorithm>

#include <QCoreApplication>

#include "ui/document/train_ops.h"
#include "ui/readers/status_text.h"

namespace attnlab {

namespace {
// Undo steps of the same id fold into one (StateStep): a drag of one vector, a burst of
// temperature changes, a tool's own ids.
enum MergeIds { VectorEditMerge = 1000, SessionMergeBase = 2000, TemperatureMerge };

class Tr {
    Q_DECLARE_TR_FUNCTIONS(attnlab::Commands)
};
}  // namespace

Document::Document(QObject* parent) : QObject(parent), worker_(this)
{
    UndoStep::followLanguage(undo_);
    restore(defaultSession());
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

ViewState Document::view() const
{
    ViewState v = view_;
    v.head = head_;
    v.row = row_;
    v.column = col_;
    return v;
}

void Document::setWeightColors(WeightColors colors)
{
    if (colors == view_.colors) return;
    view_.colors = colors;
    Q_EMIT viewChanged();
}

void Document::setWalkthroughStep(int step)
{
    if (step == view_.walkthroughStep) return;
    view_.walkthroughStep = step;
    Q_EMIT viewChanged();
}

void Document::setLesson(const QString& id)
{
    if (id == view_.lesson) return;
    view_.lesson = id;
    Q_EMIT viewChanged();
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
        pinIndex_ = undo_.index();
        // The next change is its own undo step, never folded into the one before the pin:
        // the badge names it, and undoing it brings back exactly the pinned weights.
        endDrag();
        Q_EMIT pinChanged();
    }
}

QString Document::pinDescription() const
{
    if (!pinned_) return {};
    const int now = undo_.index();
    if (pinIndex_ < 0 || pinIndex_ > undo_.count())
        return tr("pinned: weights of changes that were undone");
    if (now == pinIndex_) return tr("pinned: the weights shown (edit something to compare)");
    if (now > pinIndex_) {
        const QString first = undo_.text(pinIndex_);
        const int later = now - pinIndex_ - 1;
        return later == 0
                   ? tr("pinned: before “%1”").arg(first)
                   : tr("pinned: before “%1” and %n later change(s)", nullptr, later).arg(first);
    }
    return tr("pinned: after “%1”, since undone").arg(undo_.text(pinIndex_ - 1));
}

void Document::clearPin()
{
    pinned_.reset();
    Q_EMIT pinChanged();
}

// The named operations ---------------------------------------------------------------------

bool Document::setMode(attn::Mode mode)
{
    return commit([] { return tr("Change mode"); }, ops::setMode(session_, mode));
}

bool Document::setScaling(attn::Scaling scaling)
{
    return commit([] { return tr("Change scaling"); }, ops::setScaling(session_, scaling));
}

bool Document::setTemperature(double temperature)
{
    return commit([] { return tr("Change temperature"); },
                  ops::setTemperature(session_, temperature), TemperatureMerge);
}

bool Document::setScore(attn::ScoreFunction score)
{
    return commit([] { return tr("Change score function"); }, ops::setScore(session_, score));
}

bool Document::setKeyDim(int dK)
{
    return commit([] { return tr("Change d_k"); }, ops::setKeyDim(session_, dK));
}

bool Document::setShared(bool shared)
{
    return commit(shared ? Label([] { return tr("Share projections"); })
                         : Label([] { return tr("Separate projections"); }),
                  ops::setShared(session_, shared));
}

bool Document::setHeadCount(int heads)
{
    return commit([] { return tr("Change number of heads"); }, ops::setHeadCount(session_, heads));
}

bool Document::setTokens(bool source, const QStringList& tokens)
{
    if (tokens.isEmpty()) return refuse(tr("A sequence needs at least one token."));
    return commit(
        source ? Label([] { return tr("Edit source"); }) : Label([] { return tr("Edit target"); }),
        ops::setTokens(session_, source, tokens));
}

bool Document::setMatrixEntry(EditableMatrix m, int head, int row, int column, double value,
                              const QString& matrixName)
{
    return commit([matrixName] { return tr("Edit %1").arg(matrixName); },
                  ops::setMatrixEntry(session_, m, head, row, column, value));
}

bool Document::randomise(quint64 seed)
{
    return commit([seed] { return tr("Randomise projections (seed %1)").arg(seed); },
                  ops::randomise(session_, seed));
}

bool Document::toggleMaskCell(int row, int column)
{
    return commit([] { return tr("Paint mask"); }, ops::toggleMaskCell(session_, row, column));
}

bool Document::replaceSession(const Session& session, Label label)
{
    return commit(std::move(label), ops::Changed{session, {}});
}

bool Document::openSession(const Session& session)
{
    if (deferWhileComputing([this, session] { openSession(session); })) return true;
    return compute(Job{session, {}, -1, {}, true});
}

bool Document::replaceSession(const Session& session, const QString& label)
{
    return replaceSession(session, Label([label] { return label; }));
}

bool Document::keepTraining(const attn::Trainer& trainer, std::size_t example)
{
    return commit([] { return tr("Keep trained matrices"); },
                  ops::keepTraining(session_, trainer, example));
}

bool Document::changeSession(const QString& label, const std::function<void(Session&)>& mutate,
                             int mergeId)
{
    ops::Changed c{session_, {}};
    mutate(c.session);
    return commit([label] { return label; }, std::move(c),
                  mergeId < 0 ? -1 : SessionMergeBase + 100 + mergeId);
}

namespace {

// The rows of weights that AttentionEngine's update of `edit` may have changed.
MapChange mapChangeOf(const attn::VectorEdit& edit, const attn::AttentionResult& r, quint64 serial)
{
    MapChange c{serial, false, edit.head};
    const attn::HeadResult& hr = r.heads[static_cast<std::size_t>(edit.head)];
    const int n = static_cast<int>(hr.weights.rows());
    switch (edit.role) {
    case attn::Role::Query: c.firstRow = edit.index, c.endRow = edit.index + 1; break;
    case attn::Role::Value: break;  // the outputs only
    case attn::Role::Key:
        // Every row that may attend to the key is renormalised.
        c.endRow = n;
        if (r.maskKind == attn::MaskKind::Causal) {
            c.firstRow = std::min(edit.index, n);
        } else if (r.maskKind == attn::MaskKind::General) {
            const auto column = hr.mask.col(edit.index);
            int first = 0, end = n;
            while (first < end && !column(first)) ++first;
            while (end > first && !column(end - 1)) --end;
            c.firstRow = first;
            c.endRow = end;
        }
        break;
    }
    return c;
}

}  // namespace

bool Document::editVector(const attn::VectorEdit& edit, bool dragging, Label label)
{
    if (deferWhileComputing([this, edit, dragging, label] { editVector(edit, dragging, label); }))
        return true;
    if (const attn::Status s = attn::validateEdit(session_.input, edit); !s.ok()) return refuse(s);
    attn::VectorEdit before;
    before.role = edit.role;
    before.head = edit.head;
    before.index = edit.index;
    if (const attn::VectorEdit* old =
            attn::findEdit(session_.input.edits, edit.role, edit.head, edit.index))
        before = *old;
    // The engine is transactional: on failure its input and result are as they were.
    if (const attn::Status s = engine_.setEdit(edit); !s.ok()) return refuse(s);
    session_.input.edits = engine_.input().edits;
    lastError_.clear();
    change_ = mapChangeOf(edit, engine_.result(), change_.serial + 1);
    Q_EMIT changed();
    if (!label) label = [edit] { return vectorEditLabel(edit); };
    // While dragging, consecutive edits of the same vector in the same drag are one step.
    pushCommand(new StateStep<attn::VectorEdit>(
        std::move(label), before, edit, [this](const attn::VectorEdit& e) { restoreEdit(e); },
        dragging ? VectorEditMerge : -1, drag_,
        [](const attn::VectorEdit& ours, const attn::VectorEdit& theirs) {
            return ours.sameTarget(theirs);
        }));
    return true;
}

QString Document::vectorEditLabel(const attn::VectorEdit& edit)
{
    const int token = edit.index + 1;
    switch (edit.role) {
    case attn::Role::Key: return Tr::tr("Edit key %1").arg(token);
    case attn::Role::Query: return Tr::tr("Edit query %1").arg(token);
    case attn::Role::Value: return Tr::tr("Edit value %1").arg(token);
    }
    return {};
}

void Document::retranslate()
{
    UndoStep::retranslate(undo_);
}

// The transaction ---------------------------------------------------------------------------

bool Document::commit(Label label, ops::Changed change, int mergeId)
{
    if (deferWhileComputing([this, label, change, mergeId] { commit(label, change, mergeId); }))
        return true;
    return compute(
        Job{std::move(change.session), std::move(label), mergeId, std::move(change.notes), false});
}

bool Document::restore(const Session& session)
{
    if (deferWhileComputing([this, session] { restore(session); })) return true;
    return compute(Job{session, {}, -1, {}, false});
}

bool Document::restoreEdit(const attn::VectorEdit& edit)
{
    if (deferWhileComputing([this, edit] { restoreEdit(edit); })) return true;
    Session next = session_;
    attn::upsertEdit(next.input.edits, edit);
    return compute(Job{std::move(next), {}, -1, {}, false});
}

bool Document::compute(Job job)
{
    const attn::AttentionInput& in = job.session.input;
    if (const attn::Status s = attn::validate(in, attn::Limits{}); !s.ok()) return refuse(s);
    const long cells = in.queryCount() * in.keyCount() * static_cast<long>(in.heads.size());
    if (cells >= kBackgroundCells) {
        // The worker computes into its own result from a copy of the input; the engine (and
        // so everything the views read) is only touched on this thread, when it is adopted.
        attn::AttentionInput input = in;
        worker_.start(
            [input = std::move(input)](JobControl&) {
                Computed c;
                c.status = attn::computeAttention<double>(input, c.result);
                c.input = input;
                return c;
            },
            [this, job = std::move(job)](Computed c) mutable {
                finishBackground(std::move(job), std::move(c));
            });
        return true;
    }
    if (const attn::Status s = engine_.setInput(in); !s.ok()) return refuse(s);
    const Session before = session_;
    publish(std::move(job.session), job.notes);
    push(before, job);
    return true;
}

void Document::finishBackground(Job job, Computed c)
{
    if (!c.status.ok()) {
        refuse(c.status);
    } else {
        engine_.adopt(std::move(c.input), std::move(c.result));
        const Session before = session_;
        publish(std::move(job.session), job.notes);
        push(before, job);
    }
    runDeferred();
}

void Document::publish(Session session, const QStringList& notes)
{
    QStringList said = notes;
    const bool retokenised = session.targetTokens != session_.targetTokens ||
                             session.sourceTokens != session_.sourceTokens;
    session_ = std::move(session);
    clampSelection();
    lastError_.clear();
    if (pinned_) {
        const attn::HeadResult* hr = currentHead();
        const bool reshaped =
            !hr || hr->weights.rows() != pinned_->rows() || hr->weights.cols() != pinned_->cols();
        if (retokenised || reshaped) {
            pinned_.reset();
            said << tr("The pinned weights were dropped: they belonged to other tokens.");
            Q_EMIT pinChanged();
        }
    }
    change_ = MapChange{change_.serial + 1};
    Q_EMIT inputsChanged();
    Q_EMIT changed();
    for (const QString& note : said) Q_EMIT noticed(note);
}

void Document::push(const Session& before, const Job& job)
{
    if (job.fresh) {  // a file: its history starts here, saved as it is on disk
        undo_.clear();
        if (pinned_) pinIndex_ = -1;
        return;
    }
    if (!job.label) return;  // a restore: the command that asked for it is already on the stack
    // Not folded into the change made before the pin (see pinWeights).
    const bool atPin = pinned_ && undo_.index() == pinIndex_;
    pushCommand(new StateStep<Session>(
        job.label, before, session_, [this](const Session& s) { restore(s); },
        job.mergeId < 0 || atPin ? -1 : job.mergeId));
}

void Document::pushCommand(QUndoCommand* command)
{
    // A push drops the undone commands above the index: a pin taken among them no longer
    // has a place in the history.
    if (pinned_ && pinIndex_ > undo_.index()) pinIndex_ = -1;
    undo_.push(command);
}

bool Document::refuse(const attn::Status& status)
{
    return refuse(statusMessage(status));
}

bool Document::refuse(const QString& message)
{
    lastError_ = message;
    Q_EMIT errorOccurred(lastError_);
    return false;
}

bool Document::deferWhileComputing(std::function<void()> action)
{
    static_assert(kPolicy == ChangePolicy::Queue);
    if (!computing()) return false;
    deferred_.push_back(std::move(action));
    return true;
}

void Document::runDeferred()
{
    // An action may start another background job; the ones after it then wait again, in order.
    std::vector<std::function<void()>> actions = std::move(deferred_);
    deferred_.clear();
    for (auto& action : actions) action();
}

void Document::flush()
{
    while (computing()) worker_.wait();
}

}  // namespace attnlab
