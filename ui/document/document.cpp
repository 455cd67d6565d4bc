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
enum MergeIds { VectorEditMerge = 1000, SessionMergeBase = 2000, TemperatureMerge, RopeMerge };

class DocumentTr {
    Q_DECLARE_TR_FUNCTIONS(attnlab::Commands)
};
}  // namespace

Document::Document(QObject* parent)
    : DocumentBase(parent), doc_(kPolicy, Session{}, undo_, this, hooks())
{
    restore(defaultSession());
    flush();
}

Document::Snapshots::Hooks Document::hooks()
{
    return {
        .prepare = [](const Session& next) -> Snapshots::Work {
            // The worker computes a fresh engine from its own copy of the input; the
            // published one (and so everything the views read) stays as it is.
            return [input = next.input](JobControl&) -> Snapshots::Outcome {
                auto engine = std::make_shared<attn::AttentionEngine>();
                if (const attn::Status s = engine->setInput(input); !s.ok())
                    return {{}, false, statusMessage(s)};
                return {Computed{std::move(engine), {}}, false, {}};
            };
        },
        .step =
            [this](const Session& before, const Session& after, const Label& label, int mergeId) {
                // Not folded into the change made before the pin (see pinWeights).
                const bool atPin = pinned_ && undo_.index() == pinIndex_;
                return stepped(new StateStep<Session>(
                    label, before, after, [this](const Session& s) { restore(s); },
                    mergeId < 0 || atPin ? -1 : mergeId));
            },
        .synchronous =
            [](const Session& next) {
                const attn::AttentionInput& in = next.input;
                return in.queryCount() * in.keyCount() * static_cast<long>(in.heads.size()) <
                       kBackgroundCells;
            },
        .published = [this](const Session& before, const QStringList& notes,
                            bool fresh) { published(before, notes, fresh); },
        .failed = [this](const QString& message) { refuse(message); },
        .cancelled = {},
        .busy = [this](bool busy) { setBusy(busy); },
    };
}

const attn::AttentionResult& Document::result() const
{
    static const attn::AttentionResult none;
    return hasResult() ? doc_.result()->engine->result() : none;
}

bool Document::hasResult() const
{
    return doc_.result() && doc_.result()->engine && doc_.result()->engine->hasResult();
}

const attn::HeadResult* Document::currentHead() const
{
    if (!hasResult()) return nullptr;
    const auto& heads = result().heads;
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
    const attn::AttentionInput& in = session().input;
    const int n = static_cast<int>(in.queryCount());
    const int m = static_cast<int>(in.keyCount());
    const int h = static_cast<int>(in.heads.size());
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
    return commit([] { return tr("Change mode"); }, ops::setMode(doc_.target(), mode));
}

bool Document::setScaling(attn::Scaling scaling)
{
    return commit([] { return tr("Change scaling"); }, ops::setScaling(doc_.target(), scaling));
}

bool Document::setTemperature(double temperature)
{
    return commit([] { return tr("Change temperature"); },
                  ops::setTemperature(doc_.target(), temperature), TemperatureMerge);
}

bool Document::setScore(attn::ScoreFunction score)
{
    return commit([] { return tr("Change score function"); }, ops::setScore(doc_.target(), score));
}

bool Document::setRope(const std::optional<attn::Rope>& rope, bool merge)
{
    if (rope && doc_.target().input.rope)
        return commit([] { return tr("Change RoPE θ"); }, ops::setRope(doc_.target(), rope),
                      merge ? RopeMerge : -1);
    return commit(rope ? Label([] { return tr("Turn on rotary positions (RoPE)"); })
                       : Label([] { return tr("Turn off rotary positions (RoPE)"); }),
                  ops::setRope(doc_.target(), rope));
}

bool Document::setKeyDim(int dK)
{
    return commit([] { return tr("Change d_k"); }, ops::setKeyDim(doc_.target(), dK));
}

bool Document::setShared(bool shared)
{
    return commit(shared ? Label([] { return tr("Share projections"); })
                         : Label([] { return tr("Separate projections"); }),
                  ops::setShared(doc_.target(), shared));
}

bool Document::setHeadCount(int heads)
{
    return commit([] { return tr("Change number of heads"); },
                  ops::setHeadCount(doc_.target(), heads));
}

bool Document::setTokens(bool source, const QStringList& tokens)
{
    if (tokens.isEmpty()) return refuse(tr("A sequence needs at least one token."));
    return commit(
        source ? Label([] { return tr("Edit source"); }) : Label([] { return tr("Edit target"); }),
        ops::setTokens(doc_.target(), source, tokens));
}

bool Document::setMatrixEntry(EditableMatrix m, int head, int row, int column, double value,
                              const QString& matrixName)
{
    return commit([matrixName] { return tr("Edit %1").arg(matrixName); },
                  ops::setMatrixEntry(doc_.target(), m, head, row, column, value));
}

bool Document::randomise(quint64 seed)
{
    return commit([seed] { return tr("Randomise projections (seed %1)").arg(seed); },
                  ops::randomise(doc_.target(), seed));
}

bool Document::toggleMaskCell(int row, int column)
{
    return commit([] { return tr("Paint mask"); }, ops::toggleMaskCell(doc_.target(), row, column));
}

bool Document::replaceSession(const Session& session, Label label)
{
    return commit(std::move(label), ops::Changed{session, {}});
}

bool Document::openSession(const Session& session)
{
    Snapshots::Change change(session);
    change.fresh = true;  // a file: its history starts here, saved as it is on disk
    return submit(std::move(change));
}

bool Document::replaceSession(const Session& session, const QString& label)
{
    return replaceSession(session, Label([label] { return label; }));
}

bool Document::keepTraining(const attn::Trainer& trainer, std::size_t example)
{
    return commit([] { return tr("Keep trained matrices"); },
                  ops::keepTraining(doc_.target(), trainer, example));
}

bool Document::changeSession(const QString& label, const std::function<void(Session&)>& mutate,
                             int mergeId)
{
    ops::Changed c{doc_.target(), {}};
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

Document::Snapshots::Change Document::editChange(const attn::VectorEdit& edit)
{
    Snapshots::Change change(doc_.target());
    attn::upsertEdit(change.state.input.edits, edit);
    change.inPlace = [this, edit]() -> Snapshots::Outcome {
        // The queue publishes in order, so the published engine holds the session this edit
        // was asked on. The engine is transactional: on failure it is as it was.
        const std::shared_ptr<attn::AttentionEngine> engine = doc_.result()->engine;
        if (const attn::Status s = engine->setEdit(edit); !s.ok())
            return {{}, false, statusMessage(s)};
        return {Computed{engine, mapChangeOf(edit, engine->result(), 0)}, false, {}};
    };
    return change;
}

bool Document::editVector(const attn::VectorEdit& edit, bool dragging, Label label)
{
    const Session& from = doc_.target();
    if (const attn::Status s = attn::validateEdit(from.input, edit); !s.ok()) return refuse(s);
    attn::VectorEdit before;
    before.role = edit.role;
    before.head = edit.head;
    before.index = edit.index;
    if (const attn::VectorEdit* old =
            attn::findEdit(from.input.edits, edit.role, edit.head, edit.index))
        before = *old;
    if (!label) label = [edit] { return vectorEditLabel(edit); };
    Snapshots::Change change = editChange(edit);
    change.label = label;
    // While dragging, consecutive edits of the same vector in the same drag are one step.
    change.step = [this, label, before, edit, merge = dragging ? VectorEditMerge : -1,
                   drag = drag_](const Session&) {
        return stepped(new StateStep<attn::VectorEdit>(
            label, before, edit, [this](const attn::VectorEdit& e) { restoreEdit(e); }, merge, drag,
            [](const attn::VectorEdit& ours, const attn::VectorEdit& theirs) {
                return ours.sameTarget(theirs);
            }));
    };
    return doc_.submit(std::move(change));
}

QString Document::vectorEditLabel(const attn::VectorEdit& edit)
{
    const int token = edit.index + 1;
    switch (edit.role) {
    case attn::Role::Key: return DocumentTr::tr("Edit key %1").arg(token);
    case attn::Role::Query: return DocumentTr::tr("Edit query %1").arg(token);
    case attn::Role::Value: return DocumentTr::tr("Edit value %1").arg(token);
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
    return submit(Snapshots::Change(std::move(change.session), std::move(label), mergeId,
                                    std::move(change.notes)));
}

bool Document::restore(const Session& session)
{
    return submit(Snapshots::Change(session));
}

bool Document::restoreEdit(const attn::VectorEdit& edit)
{
    // Computed from scratch, not in place: undoing an edit gives back the exact weights
    // (bit for bit) that a full computation of the earlier session gives.
    Session next = doc_.target();
    attn::upsertEdit(next.input.edits, edit);
    return submit(Snapshots::Change(std::move(next)));
}

bool Document::submit(Snapshots::Change change)
{
    if (const attn::Status s = attn::validate(change.state.input, attn::Limits{}); !s.ok())
        return refuse(s);
    return doc_.submit(std::move(change));
}

void Document::published(const Session& before, const QStringList& notes, bool fresh)
{
    lastError_.clear();
    if (const std::optional<MapChange>& rows = doc_.result()->rows) {
        // A vector edit: the tokens and the maps' shapes stayed.
        const quint64 serial = change_.serial + 1;
        change_ = *rows;
        change_.serial = serial;
        Q_EMIT changed();
        return;
    }
    QStringList said = notes;
    const Session& now = session();
    const bool retokenised =
        now.targetTokens != before.targetTokens || now.sourceTokens != before.sourceTokens;
    clampSelection();
    if (fresh && pinned_) pinIndex_ = -1;
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

QUndoCommand* Document::stepped(QUndoCommand* command)
{
    // A push drops the undone commands above the index: a pin taken among them no longer
    // has a place in the history.
    if (pinned_ && pinIndex_ > undo_.index()) pinIndex_ = -1;
    return command;
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

void Document::flush()
{
    doc_.flush();
}

}  // namespace attnlab
