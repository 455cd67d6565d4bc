// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/model/model_document.h"

#include <algorithm>
#include <cerrno>
#include <sys/resource.h>
#include <unistd.h>

#include <QDir>
#include <QFile>
#include <QMetaMethod>

#include "core/model/aggregate.h"
#include "ui/model/model_grid_paint.h"
#include "ui/model/model_loader.h"
#include "ui/readers/status_text.h"

namespace attnlab {

ModelDocument::ModelDocument(QObject* parent)
    : RunSource(parent),
      doc_(ChangePolicy::Supersede, RunState{}, undo_, this,
           {.prepare = [this](const RunState& next) { return prepare(next); },
            .step =
                [this](const RunState& before, const RunState& after, const Label& label,
                       int mergeId) {
                    return new StateStep<Marks>(
                        label, Marks{before.edits, before.written},
                        Marks{after.edits, after.written},
                        [this](const Marks& m) { applyMarks(m); }, mergeId, writeRun_);
                },
            .synchronous = {},
            .published = [this](const RunState&, const QStringList&, bool) { finished(); },
            .failed =
                [this](const QString& message) {
                    toWrite_ = 0;
                    Q_EMIT writingChanged();
                    Q_EMIT errorOccurred(message);
                },
            .cancelled =
                [this] {
                    if (toWrite_ > 0) {
                        toWrite_ = 0;
                        Q_EMIT writingChanged();
                    }
                    // A keystroke cancelled it and its text runs when the pause is over.
                    if (!debounce_.isActive())
                        Q_EMIT noticed(tr("Run cancelled; the maps show the last completed text."));
                },
            .busy = [this](bool busy) { setBusy(busy); }})
{
    hashThread_.setMaxThreadCount(1);
    debounce_.setSingleShot(true);
    debounce_.setInterval(kDebounceMs);
    connect(&debounce_, &QTimer::timeout, this, &ModelDocument::startRun);
}

ModelDocument::~ModelDocument() = default;  // the job cancels and waits for its run

bool ModelDocument::open(const QString& folder, QString& error)
{
    const QString path = QDir::cleanPath(QDir(folder).absolutePath());
    if (!QFileInfo(path).isDir()) {
        error = tr("%1 is not a folder. A model is a folder holding config.json, "
                   "model.safetensors and the tokenizer's files.")
                    .arg(QDir::toNativeSeparators(path));
        return false;
    }
    std::shared_ptr<const LoadedModel> loaded = loadModelFolderAway(path, error);
    if (!loaded) return false;
    // The new model replaces the old one only now that it has opened; its hash is not needed.
    hasher_.drop();
    debounce_.stop();
    doc_.reset(RunState{text_, {}, {}});  // the edits and written tokens were the other model's
    toWrite_ = 0;
    loaded_ = std::move(loaded);
    // A generation_config.json that cannot be read leaves nothing honoured; writing says why.
    generation_ = {};
    (void)writingSettings(*loaded_, generation_);
    // Sessions taken from it record its SHA-256: hash it now, at the lowest priority, so that it
    // takes nothing from the runs that the typing starts (the pool's thread gets its own back).
    hasher_.start(
        [model = loaded_](JobControl& control) {
            const id_t thread = static_cast<id_t>(::gettid());
            errno = 0;
            const int was = ::getpriority(PRIO_PROCESS, thread);
            const bool known = errno == 0;
            (void)::setpriority(PRIO_PROCESS, thread, 19);
            model->prefetchSha256(control.cancelFlag());
            // Raising it back may be refused (an unprivileged process may only lower it); the
            // thread then stays low, which slows nothing the user waits for.
            if (known) (void)::setpriority(PRIO_PROCESS, thread, was);
            return true;
        },
        [](bool) {});
    undo_.clear();
    folder_ = path;
    selection_ = clamped(selection_);
    Q_EMIT modelChanged();
    Q_EMIT snapshotChanged();
    Q_EMIT selectionChanged();
    runNow();
    return true;
}

bool ModelDocument::hasWorkbench() const
{
    return isSignalConnected(QMetaMethod::fromSignal(&ModelDocument::workbenchRequested));
}

bool ModelDocument::openInWorkbench(int layer, int head)
{
    QString error;
    if (!loaded_ || !snapshot()) {
        error = tr("Run the model on a text first.");
    } else if (!hasWorkbench()) {
        error = tr("There is no workbench window to open the head in.");
    } else {
        HeadReply reply;
        Q_EMIT workbenchRequested(HeadRequest{loaded_, snapshot(), layer, head}, &reply);
        if (reply.taken) return true;
        error = reply.error;
    }
    Q_EMIT errorOccurred(error);
    return false;
}

QString ModelDocument::modelType() const
{
    return loaded_ ? QString::fromStdString(loaded_->model.config().modelType) : QString();
}

int ModelDocument::layers() const
{
    return loaded_ ? static_cast<int>(loaded_->model.config().layers) : 0;
}

int ModelDocument::heads() const
{
    return loaded_ ? static_cast<int>(loaded_->model.config().heads) : 0;
}

long ModelDocument::positions() const
{
    return loaded_ ? loaded_->model.config().positions : 0;
}

QString ModelDocument::describeModel() const
{
    if (!loaded_) return tr("No model open");
    const attn::model::ModelConfig& c = loaded_->model.config();
    if (c.kvHeads > 0 && c.kvHeads < c.heads)
        return tr("%1 · %2 layers × %3 heads (%4 key/value heads) · width %5")
            .arg(modelType())
            .arg(c.layers)
            .arg(c.heads)
            .arg(c.kvHeads)
            .arg(c.width);
    return tr("%1 · %2 layers × %3 heads · width %4")
        .arg(modelType())
        .arg(c.layers)
        .arg(c.heads)
        .arg(c.width);
}

void ModelDocument::setText(const QString& text)
{
    // The text box showing what the model wrote is no change; any other text is read whole.
    if (text == text_ || (text == shown_ && shownWritten_)) return;
    stopWriting();
    text_ = text;
    debounce_.start();
}

void ModelDocument::runNow()
{
    debounce_.stop();
    startRun();
}

void ModelDocument::cancel()
{
    debounce_.stop();
    stopWriting();
    doc_.cancel();
}

int ModelDocument::progressDone() const
{
    return running() ? static_cast<int>(doc_.progress()) : 0;
}

void ModelDocument::startRun()
{
    if (!loaded_) return;
    doc_.submit({RunState{text_, doc_.target().edits, {}}, {}});
}

ModelDocument::Runs::Work ModelDocument::prepare(const RunState& next) const
{
    if (!next.written.empty()) return writingWork(next);
    return [loaded = loaded_, next, previous = snapshot()](JobControl& control) {
        ModelRunSettings settings;
        settings.progress = [&control](int done, int) {
            control.report(done);
            return !control.cancelled();
        };
        settings.previous = previous.get();
        settings.edits = next.edits;
        return shownOutcome(runModelText(*loaded, next.text, settings));
    };
}

ModelDocument::Runs::Outcome ModelDocument::shownOutcome(const ModelRunOutcome& run)
{
    Runs::Outcome out;
    out.cancelled = run.cancelled;
    out.error = run.error;
    if (!run.cancelled && run.error.isEmpty() && run.snapshot) {
        // The thumbnails are drawn here too (on the worker), so that a long text does not hold
        // up the window.
        auto shown = std::make_shared<ShownRun>();
        shown->run = run.snapshot;
        shown->thumbnails = modelGridImages(*run.snapshot, kModelThumbnailPixels);
        out.result = std::move(shown);
    } else if (!run.cancelled && run.error.isEmpty()) {
        out.result = Shown();  // the text has no tokens: no run to show
    }
    return out;
}

void ModelDocument::finished()
{
    if (!snapshot()) Q_EMIT noticed(tr("Type a text to see the model's attention."));
    selection_ = clamped(selection_);
    Q_EMIT snapshotChanged();
    Q_EMIT selectionChanged();
    // The text box follows what the model wrote, and an undo that took it back; typing it
    // follows itself.
    const QString shown = shownText();
    const bool wrote = !doc_.state().written.empty();
    if (shown != shown_ && (wrote || shownWritten_)) Q_EMIT shownTextChanged(shown);
    shown_ = shown;
    shownWritten_ = wrote;
    continueWriting();
}

namespace {

bool sameHead(const attn::model::HeadEdit& e, int layer, int head)
{
    return e.layer == layer && e.head == head;
}

bool ablation(attn::model::HeadEditKind kind)
{
    return kind == attn::model::HeadEditKind::AblateZero ||
           kind == attn::model::HeadEditKind::AblateMean;
}

}  // namespace

void ModelDocument::applyEdits(std::vector<attn::model::HeadEdit> edits)
{
    debounce_.stop();
    if (!loaded_) return;
    doc_.submit({RunState{text_, std::move(edits), doc_.target().written}, {}});
}

bool ModelDocument::changeEdits(Edits edits, Label label)
{
    if (!loaded_) return false;
    const long n = snapshot() ? snapshot()->tokenCount() : 0;
    if (const attn::Status s = attn::model::checkEdits(loaded_->model, n, edits); !s.ok()) {
        Q_EMIT errorOccurred(tr("The edit was refused: %1").arg(statusMessage(s)));
        return false;
    }
    debounce_.stop();
    stopWriting();
    doc_.submit({RunState{text_, std::move(edits), doc_.target().written}, std::move(label)});
    return true;
}

bool ModelDocument::ablateHead(int layer, int head, bool mean)
{
    std::vector<attn::model::HeadEdit> edits;
    for (const attn::model::HeadEdit& e : doc_.target().edits)
        if (!(sameHead(e, layer, head) && ablation(e.kind))) edits.push_back(e);
    attn::model::HeadEdit e;
    e.kind = mean ? attn::model::HeadEditKind::AblateMean : attn::model::HeadEditKind::AblateZero;
    e.layer = layer;
    e.head = head;
    edits.push_back(e);
    return changeEdits(std::move(edits), [mean, layer, head] {
        return (mean ? tr("Replace layer %1, head %2 by its mean")
                     : tr("Switch off layer %1, head %2"))
            .arg(layer + 1)
            .arg(head + 1);
    });
}

bool ModelDocument::restoreHead(int layer, int head)
{
    std::vector<attn::model::HeadEdit> edits;
    for (const attn::model::HeadEdit& e : doc_.target().edits)
        if (!sameHead(e, layer, head)) edits.push_back(e);
    if (edits.size() == doc_.target().edits.size()) return false;
    return changeEdits(std::move(edits), [layer, head] {
        return tr("Restore layer %1, head %2").arg(layer + 1).arg(head + 1);
    });
}

bool ModelDocument::scaleVector(attn::model::HeadEditKind kind, int layer, int head, long index,
                                float scale)
{
    std::vector<attn::model::HeadEdit> edits;
    float total = scale;  // scaling the same vector again multiplies
    for (const attn::model::HeadEdit& e : doc_.target().edits) {
        if (sameHead(e, layer, head) && e.kind == kind && e.index == index)
            total *= e.scale;
        else
            edits.push_back(e);
    }
    attn::model::HeadEdit e;
    e.kind = kind;
    e.layer = layer;
    e.head = head;
    e.index = index;
    e.scale = total;
    if (total != 1.0f) edits.push_back(e);
    return changeEdits(std::move(edits), [kind, index, layer, head, scale] {
        const QString role = kind == attn::model::HeadEditKind::Key     ? tr("key")
                             : kind == attn::model::HeadEditKind::Query ? tr("query")
                                                                        : tr("value");
        return tr("Scale %1 %2 of layer %3, head %4 by %5")
            .arg(role)
            .arg(index + 1)
            .arg(layer + 1)
            .arg(head + 1)
            .arg(static_cast<double>(scale));
    });
}

bool ModelDocument::clearEdits()
{
    if (doc_.target().edits.empty()) return false;
    return changeEdits({}, [] { return tr("Clear the head edits"); });
}

bool ModelDocument::headEdited(int layer, int head) const
{
    return std::any_of(edits().begin(), edits().end(),
                       [&](const attn::model::HeadEdit& e) { return sameHead(e, layer, head); });
}

bool ModelDocument::headAblated(int layer, int head) const
{
    return std::any_of(edits().begin(), edits().end(), [&](const attn::model::HeadEdit& e) {
        return sameHead(e, layer, head) && ablation(e.kind);
    });
}

}  // namespace attnlab
