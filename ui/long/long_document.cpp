#include "ui/long/long_document.h"

#include <QCoreApplication>
#include <QtConcurrent/QtConcurrentRun>

#include "ui/document/status_text.h"

namespace attnlab {

namespace {

class Tr {
    Q_DECLARE_TR_FUNCTIONS(attnlab::LongDocument)
};

// One undo step: the session before and after. The document has computed `after` when it
// pushes, so the first redo does nothing; later ones recompute through the document.
class LongSessionCommand : public LabelledCommand {
public:
    LongSessionCommand(LongDocument* doc, Session before, Session after, Label label)
        : LabelledCommand(std::move(label)),
          doc_(doc),
          before_(std::move(before)),
          after_(std::move(after))
    {
    }
    void undo() override { doc_->restore(before_); }
    void redo() override
    {
        if (firstRedo_) {
            firstRedo_ = false;
            return;
        }
        doc_->restore(after_);
    }

private:
    LongDocument* doc_;
    Session before_;
    Session after_;
};

}  // namespace

LongDocument::LongDocument(attn::Limits limits, QObject* parent) : QObject(parent), limits_(limits)
{
    connect(&watcher_, &QFutureWatcher<void>::finished, this, &LongDocument::finish);
    progressTimer_.setInterval(100);
    connect(&progressTimer_, &QTimer::timeout, this, [this] { Q_EMIT progressed(progress()); });
}

LongDocument::~LongDocument()
{
    if (job_) {
        job_->cancel = true;
        watcher_.waitForFinished();
    }
}

std::size_t LongDocument::heldBytes() const
{
    return attn::estimateLongBytes(session_.input);
}

std::size_t LongDocument::weightsBytes() const
{
    const attn::AttentionInput& in = session_.input;
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
    return job_ ? job_->fraction.load() : 1.0;
}

void LongDocument::setHead(int head)
{
    head = std::clamp(head, 0, std::max(0, static_cast<int>(session_.input.heads.size()) - 1));
    if (head == head_) return;
    head_ = head;
    Q_EMIT selectionChanged();
}

void LongDocument::selectRow(int row)
{
    row = std::clamp(row, 0, std::max(0, static_cast<int>(session_.input.queryCount()) - 1));
    if (row == row_) return;
    row_ = row;
    Q_EMIT selectionChanged();
}

bool LongDocument::open(const Session& session)
{
    if (computing()) {
        cancel();
        flush();
    }
    if (const attn::Status s = attn::validateLong(session.input, limits_); !s.ok())
        return refuse(s);
    if (result_) {
        Q_EMIT releasing();
        result_.reset();
    }
    session_ = session;
    undo_.clear();
    head_ = 0;
    row_ = 0;
    Q_EMIT changed();
    return start(session, std::nullopt);
}

bool LongDocument::setMode(attn::Mode mode)
{
    return commit([] { return Tr::tr("Change the mode"); }, ops::setMode(session_, mode));
}

bool LongDocument::setScaling(attn::Scaling scaling)
{
    return commit([] { return Tr::tr("Change the scaling"); }, ops::setScaling(session_, scaling));
}

bool LongDocument::scaleKey(int head, int index, double scale)
{
    attn::VectorEdit edit;
    edit.role = attn::Role::Key;
    edit.head = head;
    edit.index = index;
    edit.scale = scale;
    if (const attn::Status s = attn::validateEdit(session_.input, edit); !s.ok()) return refuse(s);
    ops::Changed c{session_, {}};
    attn::upsertEdit(c.session.input.edits, edit);
    return commit([index, scale] { return Tr::tr("Scale key %1 by %2").arg(index + 1).arg(scale); },
                  std::move(c));
}

bool LongDocument::recompute()
{
    if (computing()) return false;
    return start(session_, std::nullopt);
}

bool LongDocument::restore(const Session& session)
{
    return start(session, std::nullopt);
}

bool LongDocument::commit(const Label& label, ops::Changed change)
{
    return start(std::move(change.session), label, std::move(change.notes));
}

bool LongDocument::start(Session session, std::optional<Label> label, QStringList notes)
{
    if (computing()) {
        lastError_ = Tr::tr("A computation is still running: wait for it or cancel it first.");
        Q_EMIT errorOccurred(lastError_);
        return false;
    }
    if (const attn::Status s = attn::validateLong(session.input, limits_); !s.ok())
        return refuse(s);
    auto job = std::make_shared<Job>();
    job->before = session_;
    job->session = std::move(session);
    job->label = std::move(label);
    job->notes = std::move(notes);
    // Two results at once would not fit: the old one is recomputed in place.
    const bool release = result_ && !fitsBesideShown(attn::estimateLongBytes(job->session.input));
    if (release) {
        Q_EMIT releasing();
        // Only memory that nobody reads any more is written into.
        if (result_.use_count() == 1)
            job->recycled = std::move(result_);
        else
            result_.reset();
    }
    job_ = job;
    lastError_.clear();
    watcher_.setFuture(QtConcurrent::run([job, limits = limits_] {
        job->outcome = attn::computeLongAttention(
            job->session.input, job->result, limits,
            [&job](double f) {
                job->fraction = f;
                return !job->cancel.load();
            },
            job->recycled.get());
        job->recycled.reset();
    }));
    progressTimer_.start();
    Q_EMIT computingChanged(true);
    if (release) Q_EMIT changed();  // the map is gone until the new one is in
    Q_EMIT progressed(0.0);
    return true;
}

void LongDocument::finish()
{
    if (!watcher_.isFinished()) return;  // a stale signal of an earlier job
    progressTimer_.stop();
    std::shared_ptr<Job> job = std::move(job_);
    job_.reset();
    if (!job) return;
    if (job->outcome.ok()) {
        session_ = job->session;
        result_ = std::make_shared<attn::LongResult>(std::move(job->result));
        cachedRow_ = -1;
        head_ = std::min(head_, std::max(0, static_cast<int>(result_->heads.size()) - 1));
        Q_EMIT computingChanged(false);
        Q_EMIT changed();
        if (job->label)
            undo_.push(new LongSessionCommand(this, job->before, job->session, *job->label));
        for (const QString& note : job->notes) Q_EMIT noticed(note);
        return;
    }
    Q_EMIT computingChanged(false);
    if (job->outcome.cancelled) {
        Q_EMIT noticed(result_ ? Tr::tr("Cancelled: the map shows the session before the change.")
                               : Tr::tr("Cancelled: there is no map until it is computed again."));
        return;
    }
    refuse(job->outcome.status);
}

void LongDocument::cancel()
{
    if (job_) job_->cancel = true;
}

void LongDocument::flush()
{
    if (!job_) return;
    watcher_.waitForFinished();
    QCoreApplication::sendPostedEvents(&watcher_);
    if (job_) finish();
}

bool LongDocument::refuse(const attn::Status& status)
{
    lastError_ = statusMessage(status);
    Q_EMIT errorOccurred(lastError_);
    return false;
}

bool LongDocument::rowScores(int row, attn::VectorT<float>& raw, attn::VectorT<float>& scaled) const
{
    if (!result_ || head_ >= static_cast<int>(result_->heads.size()) || row < 0 ||
        row >= result_->heads[static_cast<std::size_t>(head_)].Q.rows())
        return false;
    if (row != cachedRow_ || head_ != cachedHead_) {
        attn::longRowScores(session_.input, *result_, head_, row, cachedRaw_, cachedScaled_);
        cachedRow_ = row;
        cachedHead_ = head_;
    }
    raw = cachedRaw_;
    scaled = cachedScaled_;
    return true;
}

}  // namespace attnlab
