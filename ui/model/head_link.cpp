// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/model/head_link.h"

#include "core/model/head_edit.h"
#include "core/model/head_slice.h"
#include "ui/document/document.h"
#include "ui/modelrun/head_session.h"
#include "ui/readers/status_text.h"

namespace attnlab {

namespace {

// `run`'s unedited result with what a re-run from a layer needs: every layer's input and maps,
// without the model window's typing cache (attn::model::LayerTrace), so that the link keeps
// n x d floats per layer.
std::shared_ptr<const ModelSnapshot> uneditedOf(const ModelSnapshot& run)
{
    auto base = std::make_shared<ModelSnapshot>();
    base->text = run.text;
    base->tokens = run.tokens;
    base->labels = run.labels;
    base->display = run.display;
    base->result = run.edited() ? run.unedited : run.result;
    for (attn::model::LayerTrace& t : base->result.layers) {
        t.normed = {};
        t.projections = {};
    }
    return base;
}

// The tokens as sessions saved before labels grouped a split character's pieces named them:
// each token's own bytes (<E5><AE>). Such a session still fits its model.
QStringList byteLabels(const ModelSnapshot& run)
{
    QStringList out;
    for (const attn::tok::Token& t : run.tokens) out << QString::fromStdString(t.label);
    return out;
}

}  // namespace

HeadLink::HeadLink(Document* workbench, QObject* parent)
    : RunSource(parent),
      workbench_(workbench),
      // Its changes follow the workbench's, whose undo stack holds their steps: undo_ stays
      // empty.
      runs_(ChangePolicy::Latest, {}, undo_, this,
            {.prepare = [this](const attn::model::HeadOverride& head) { return prepare(head); },
             .step = {},
             .synchronous = {},
             .published =
                 [this](const attn::model::HeadOverride&, const QStringList&, bool) {
                     ++completed_;
                     Q_EMIT snapshotChanged();
                 },
             .failed =
                 [this](const QString& message) {
                     ++completed_;
                     Q_EMIT errorOccurred(message);
                 },
             .cancelled = {},
             .busy = [this](bool busy) { setBusy(busy); }}),
      attach_(this),
      take_(this)
{
    connect(workbench_, &Document::changed, this, &HeadLink::sessionChanged);
}

HeadLink::~HeadLink() = default;  // the jobs wait for their workers

std::shared_ptr<const ModelSnapshot> HeadLink::snapshot() const
{
    return active() && mismatch_.isEmpty() ? runs_.result().value_or(nullptr) : nullptr;
}

QString HeadLink::modelType() const
{
    return loaded_ ? QString::fromStdString(loaded_->model.config().modelType) : QString();
}

bool HeadLink::active() const
{
    const std::optional<ModelProvenance>& p = workbench_->session().provenance;
    return loaded_ && attachedTo_ && p && *p == *attachedTo_;
}

bool HeadLink::openHead(std::shared_ptr<const LoadedModel> loaded,
                        std::shared_ptr<const ModelSnapshot> run, int layer, int head,
                        QString& error)
{
    if (!loaded || !run) {
        error = tr("No model run to take a head from.");
        return false;
    }
    if (take_.running()) {
        error = tr("Another head is still being opened in the workbench.");
        return false;
    }
    // On a worker: the session records the SHA-256 of model.safetensors, and hashing a checkpoint
    // of gigabytes (or waiting for the model window's own hashing to finish) takes seconds.
    take_.start(
        [loaded = std::move(loaded), run = std::move(run), layer, head](JobControl&) {
            Taken out;
            out.base = uneditedOf(*run);
            HeadSource source;
            source.model = &loaded->model;
            source.run = &out.base->result;
            source.labels = out.base->labels;
            source.text = out.base->text;
            source.folder = QString::fromStdString(loaded->model.folder());
            source.sha256 = loaded->sha256();
            if (headSession(source, layer, head, out.session, out.error)) out.loaded = loaded;
            return out;
        },
        [this](Taken out) { finishTake(std::move(out)); });
    Q_EMIT attachmentChanged();
    return true;
}

void HeadLink::finishTake(Taken out)
{
    if (!out.loaded) {
        Q_EMIT attachmentChanged();
        Q_EMIT errorOccurred(out.error);
        return;
    }
    const ModelProvenance provenance = *out.session.provenance;
    const std::shared_ptr<const LoadedModel> previousModel = loaded_;
    const std::shared_ptr<const ModelSnapshot> previousBase = base_;
    std::unique_ptr<ModelProvenance> previousTo = std::move(attachedTo_);
    // Attached first, so that the session's publication finds its model and runs it.
    adopt(std::move(out.loaded), out.base, provenance);
    const QString title = headTitle(provenance);
    if (!workbench_->replaceSession(out.session, tr("Open %1").arg(title))) {
        loaded_ = previousModel;
        base_ = previousBase;
        attachedTo_ = std::move(previousTo);
        Q_EMIT attachmentChanged();
        Q_EMIT errorOccurred(workbench_->lastError());
        return;
    }
    Q_EMIT headOpened();
}

void HeadLink::adopt(std::shared_ptr<const LoadedModel> loaded,
                     std::shared_ptr<const ModelSnapshot> base, const ModelProvenance& provenance)
{
    loaded_ = std::move(loaded);
    base_ = std::move(base);
    attachedTo_ = std::make_unique<ModelProvenance>(provenance);
    attachError_.clear();
    runs_.reset({});
    Q_EMIT modelChanged();
    Q_EMIT attachmentChanged();
}

void HeadLink::detach()
{
    runs_.reset({});
    loaded_.reset();
    base_.reset();
    attachedTo_.reset();
    mismatch_.clear();
    Q_EMIT modelChanged();
    Q_EMIT attachmentChanged();
    Q_EMIT snapshotChanged();
}

void HeadLink::attachFromProvenance()
{
    const std::optional<ModelProvenance>& p = workbench_->session().provenance;
    if (!p || attaching()) return;
    attach_.start(
        [p = *p](JobControl&) {
            Outcome out;
            out.loaded = loadModelFolder(p.folder, out.error);
            if (!out.loaded) return out;
            const attn::model::ModelConfig& c = out.loaded->model.config();
            if (QString::fromStdString(c.modelType) != p.modelType || p.layer >= c.layers ||
                p.head >= c.heads) {
                out.error = tr("%1 holds a %2 model of %3 layers × %4 heads, not the %5 this "
                               "session's head came from.")
                                .arg(p.folder, QString::fromStdString(c.modelType))
                                .arg(c.layers)
                                .arg(c.heads)
                                .arg(headTitle(p));
                out.loaded.reset();
                return out;
            }
            if (const QString sha = out.loaded->sha256(); sha != p.sha256) {
                out.error = tr("model.safetensors in %1 is not the file this session's head came "
                               "from: its SHA-256 is %2, the session names %3.")
                                .arg(p.folder, sha.isEmpty() ? tr("unreadable") : sha, p.sha256);
                out.loaded.reset();
                return out;
            }
            const ModelRunOutcome run = runModelText(*out.loaded, p.text, {});
            if (!run.snapshot) {
                out.error =
                    run.error.isEmpty() ? tr("The session's text has no tokens.") : run.error;
                out.loaded.reset();
                return out;
            }
            out.base = uneditedOf(*run.snapshot);
            return out;
        },
        [this](Outcome out) { finishAttach(std::move(out)); });
    Q_EMIT attachmentChanged();
}

void HeadLink::finishAttach(Outcome out)
{
    attachError_ = out.error;
    const std::optional<ModelProvenance>& p = workbench_->session().provenance;
    if (!out.loaded) {
        Q_EMIT attachmentChanged();
        Q_EMIT errorOccurred(out.error);
        return;
    }
    if (!p) {  // the session changed meanwhile to one without a model
        Q_EMIT attachmentChanged();
        return;
    }
    adopt(out.loaded, out.base, *p);
    sessionChanged();
}

QString HeadLink::checkSession() const
{
    const Session& s = workbench_->session();
    const attn::AttentionResult& r = workbench_->result();
    const long n = base_->tokenCount();
    const long dh = loaded_->model.config().headDim();
    if (s.input.mode == attn::Mode::Cross)
        return tr(
            "Cross-attention takes its keys from another sequence; the model's head reads "
            "its own text. Switch the mode back to carry the head into the model.");
    if (s.targetTokens != base_->labels && s.targetTokens != byteLabels(*base_))
        return tr(
            "The tokens are no longer the model's %n token(s); undo the change to carry "
            "the head into the model again.",
            nullptr, static_cast<int>(n));
    if (!workbench_->hasResult() || r.heads.empty() || r.heads.front().weights.rows() != n ||
        r.heads.front().weights.cols() != n)
        return tr("The workbench has no map of the model's %n token(s).", nullptr,
                  static_cast<int>(n));
    if (r.heads.front().output.cols() != dh)
        return tr("The head's values are %1 wide, the model's heads %2 (d_k or d_v changed); "
                  "undo the change to carry the head into the model again.")
            .arg(r.heads.front().output.cols())
            .arg(dh);
    return {};
}

void HeadLink::sessionChanged()
{
    if (!active()) {
        if (!mismatch_.isEmpty()) mismatch_.clear();
        Q_EMIT attachmentChanged();
        Q_EMIT snapshotChanged();
        return;
    }
    mismatch_ = checkSession();
    if (!mismatch_.isEmpty()) {
        runs_.reset({});  // its "after" belonged to a session that fitted
        Q_EMIT attachmentChanged();
        Q_EMIT snapshotChanged();
        return;
    }
    startRun();
}

void HeadLink::startRun()
{
    const attn::HeadResult& hr = workbench_->result().heads.front();
    attn::model::HeadOverride o;
    o.layer = attachedTo_->layer;
    o.head = attachedTo_->head;
    o.weights = hr.weights.cast<float>();
    o.output = hr.output.cast<float>();
    runs_.submit({std::move(o)});
}

HeadLink::Runs::Work HeadLink::prepare(const attn::model::HeadOverride& head) const
{
    return [loaded = loaded_, base = base_, o = head](JobControl&) {
        Runs::Outcome out;
        auto snap = std::make_shared<ModelSnapshot>();
        snap->text = base->text;
        snap->tokens = base->tokens;
        snap->labels = base->labels;
        snap->display = base->display;
        snap->fromWorkbench = true;
        const attn::Status s = attn::model::runWithHead(loaded->model, base->result, o,
                                                        runOptions(*loaded), snap->result);
        if (!s.ok()) {
            out.error =
                tr("The model could not run with the workbench's head: %1").arg(statusMessage(s));
            return out;
        }
        // The edited run is shown, never re-run from: its layer inputs go (the link caches
        // only the unedited run's, n x d per layer).
        for (attn::model::LayerTrace& t : snap->result.layers) t.hidden = {};
        snap->change = attn::model::attentionChange(base->result, snap->result);
        snap->predictions = guessesOf(*loaded->tokenizer, snap->result, &base->result);
        out.result = std::shared_ptr<const ModelSnapshot>(std::move(snap));
        return out;
    };
}

void HeadLink::flush()
{
    while (!idle()) {
        take_.wait();
        attach_.wait();
        runs_.flush();
    }
}

}  // namespace attnlab
