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
                [this](const RunState& before, const RunState& after, const Label& label, int) {
                    return new StateStep<Edits>(label, before.edits, after.edits,
                                                [this](const Edits& e) { applyEdits(e); });
                },
            .synchronous = {},
            .published = [this](const RunState&, const QStringList&, bool) { finished(); },
            .failed = [this](const QString& message) { Q_EMIT errorOccurred(message); },
            .cancelled =
                [this] {
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
    doc_.reset(RunState{text_, {}});  // the edits were the other model's
    loaded_ = std::move(loaded);
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
    if (text == text_) return;
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
    doc_.cancel();
}

int ModelDocument::progressDone() const
{
    return running() ? static_cast<int>(doc_.progress()) : 0;
}

void ModelDocument::startRun()
{
    if (!loaded_) return;
    doc_.submit({RunState{text_, doc_.target().edits}, {}});
}

ModelDocument::Runs::Work ModelDocument::prepare(const RunState& next) const
{
    return [loaded = loaded_, next, previous = snapshot()](JobControl& control) {
        ModelRunSettings settings;
        settings.progress = [&control](int done, int) {
            control.report(done);
            return !control.cancelled();
        };
        settings.previous = previous.get();
        settings.edits = next.edits;
        const ModelRunOutcome run = runModelText(*loaded, next.text, settings);
        Runs::Outcome out;
        out.cancelled = run.cancelled;
        out.error = run.error;
        if (!run.cancelled && run.error.isEmpty() && run.snapshot) {
            // The thumbnails are drawn here too, so that a long text does not hold up the
            // window.
            auto shown = std::make_shared<ShownRun>();
            shown->run = run.snapshot;
            shown->thumbnails = modelGridImages(*run.snapshot, kModelThumbnailPixels);
            out.result = std::move(shown);
        } else if (!run.cancelled && run.error.isEmpty()) {
            out.result = Shown();  // the text has no tokens: no run to show
        }
        return out;
    };
}

void ModelDocument::finished()
{
    if (!snapshot()) Q_EMIT noticed(tr("Type a text to see the model's attention."));
    selection_ = clamped(selection_);
    Q_EMIT snapshotChanged();
    Q_EMIT selectionChanged();
}

ModelSelection ModelDocument::clamped(ModelSelection s) const
{
    s.layer = std::clamp(s.layer, 0, std::max(0, layers() - 1));
    s.head = std::clamp(s.head, 0, std::max(0, heads() - 1));
    const int n = snapshot() ? static_cast<int>(snapshot()->tokenCount()) : 0;
    if (s.query >= n) s.query = -1;
    return s;
}

void ModelDocument::setSelection(ModelSelection s)
{
    s = clamped(s);
    if (s == selection_) return;
    selection_ = s;
    Q_EMIT selectionChanged();
}

void ModelDocument::selectHead(int layer, int head)
{
    ModelSelection s = selection_;
    s.layer = layer;
    s.head = head;
    s.focus = ModelFocus::Head;
    setSelection(s);
}

void ModelDocument::selectAggregate(int layer, ModelFocus focus)
{
    ModelSelection s = selection_;
    s.layer = layer;
    s.focus = focus;
    setSelection(s);
}

void ModelDocument::selectQuery(int row)
{
    ModelSelection s = selection_;
    s.query = row;
    setSelection(s);
}

std::shared_ptr<const attn::model::FloatMatrix> ModelDocument::focusedMatrix() const
{
    const auto snap = snapshot();
    if (!snap || snap->layers() == 0) return nullptr;
    const auto l = static_cast<std::size_t>(selection_.layer);
    using Matrix = attn::model::FloatMatrix;
    if (!snap->pooled()) {
        // Views into the published run, which they keep alive.
        switch (selection_.focus) {
        case ModelFocus::Head:
            return std::shared_ptr<const Matrix>(
                snap, &snap->result.layers[l].attention[static_cast<std::size_t>(selection_.head)]);
        case ModelFocus::LayerAverage:
            return std::shared_ptr<const Matrix>(snap, &snap->averages[l]);
        case ModelFocus::Rollout: return std::shared_ptr<const Matrix>(snap, &snap->rollout[l]);
        }
        return nullptr;
    }
    if (selection_.focus == ModelFocus::Rollout) return nullptr;
    ModelSelection key = selection_;
    key.query = -1;
    if (exact_ && exactRun_.lock() == snap && exactFor_ == key) return exact_;
    exact_.reset();  // the old map goes before the new one is made
    auto made = std::make_shared<Matrix>();
    const attn::model::Model& model = loaded_->model;
    // The run's edits of queries and keys, made again with the head's vectors.
    const attn::model::HeadHook hook =
        snap->edited() ? attn::model::withEdits({}, snap->edits, snap->groupSize).hook
                       : attn::model::HeadHook{};
    const auto headMap = [&](int head, Matrix& out) {
        return attn::model::exactMap(model, snap->result, selection_.layer, head, out, hook).ok();
    };
    if (selection_.focus == ModelFocus::Head) {
        if (!headMap(selection_.head, *made)) return nullptr;
    } else {
        Matrix one;
        for (int h = 0; h < snap->heads(); ++h) {
            if (!headMap(h, one)) return nullptr;
            if (h == 0)
                made->swap(one);
            else
                *made += one;
        }
        *made /= static_cast<float>(snap->heads());
    }
    exact_ = std::move(made);
    exactRun_ = snap;
    exactFor_ = key;
    return exact_;
}

QString ModelDocument::focusAbsence() const
{
    const auto snap = snapshot();
    if (!snap) return tr("Type a text to see the model's attention.");
    if (snap->pooled() && selection_.focus == ModelFocus::Rollout)
        return tr("Rollout multiplies every layer's whole map; from %1 tokens on the model view "
                  "keeps each map at screen resolution, and rollout is not computed.")
            .arg(modelPoolAbove() + 1);
    return {};
}

bool ModelDocument::focusedScore(long query, long key, float& score) const
{
    const auto snap = snapshot();
    if (!snap || !loaded_ || snap->edited() || selection_.focus != ModelFocus::Head) return false;
    return attn::model::headScore(loaded_->model, snap->result, selection_.layer, selection_.head,
                                  query, key, score);
}

bool ModelDocument::selectNextSink()
{
    const auto snap = snapshot();
    if (!snap) return false;
    struct Share {
        int layer, head;
        float share;
    };
    std::vector<Share> heads;
    for (int l = 0; l < snap->layers(); ++l) {
        const std::vector<float>& f = snap->result.layers[static_cast<std::size_t>(l)].firstShare;
        for (int h = 0; h < static_cast<int>(f.size()); ++h)
            heads.push_back({l, h, f[static_cast<std::size_t>(h)]});
    }
    if (heads.empty()) return false;
    std::stable_sort(heads.begin(), heads.end(),
                     [](const Share& a, const Share& b) { return a.share > b.share; });
    const auto sinks = std::count_if(heads.begin(), heads.end(),
                                     [](const Share& s) { return s.share >= kSinkMark; });
    std::size_t next = 0;
    if (sinks > 0) {
        // The one after the selected head in the ranking, round the sinks.
        for (std::size_t k = 0; k < static_cast<std::size_t>(sinks); ++k)
            if (selection_.focus == ModelFocus::Head && heads[k].layer == selection_.layer &&
                heads[k].head == selection_.head)
                next = (k + 1) % static_cast<std::size_t>(sinks);
    }
    const Share& s = heads[next];
    selectHead(s.layer, s.head);
    const QString share = QString::number(100.0 * s.share, 'f', 0);
    if (sinks > 0)
        Q_EMIT noticed(tr("Layer %1, head %2 puts %3 % of its attention on the first token "
                          "(attention sink %4 of %5).")
                           .arg(s.layer + 1)
                           .arg(s.head + 1)
                           .arg(share)
                           .arg(next + 1)
                           .arg(sinks));
    else
        Q_EMIT noticed(tr("No head puts half of its attention on the first token; layer %1, "
                          "head %2 comes closest with %3 %.")
                           .arg(s.layer + 1)
                           .arg(s.head + 1)
                           .arg(share));
    return true;
}

QString ModelDocument::focusTitle() const
{
    return modelMapName(selection_.layer, selection_.column(heads()), heads());
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
    doc_.submit({RunState{text_, std::move(edits)}, {}});
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
    doc_.submit({RunState{text_, std::move(edits)}, std::move(label)});
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

int ModelDocument::findToken(const QString& word, bool last) const
{
    if (!snapshot()) return -1;
    const QString want = word.toLower();
    const bool cjk = !want.isEmpty() && want.at(0).script() == QChar::Script_Han;
    int found = -1;
    for (int i = 0; i < snapshot()->labels.size(); ++i) {
        QString t = snapshot()->labels[i].toLower();
        t.remove(QChar(0x2423));  // GPT-2's leading space mark
        if (t.startsWith(QLatin1String("##"))) t = t.mid(2);
        if (t.isEmpty()) continue;
        if (t == want || (cjk && want.startsWith(t))) {
            found = i;
            if (!last) break;
        }
    }
    return found;
}

bool ModelDocument::selectStrongestHead(const QStringList& queries, const QStringList& keys)
{
    if (!snapshot()) return false;
    for (const QString& q : queries) {
        const int query = findToken(q, true);
        if (query < 0) continue;
        for (const QString& k : keys) {
            const int key = findToken(k, false);
            if (key < 0) continue;
            const attn::model::HeadWeight best =
                attn::model::strongestHead(snapshot()->result.layers, query, key);
            if (best.layer < 0) continue;
            ModelSelection s = selection_;
            s.layer = best.layer;
            s.head = best.head;
            s.focus = ModelFocus::Head;
            s.query = query;
            setSelection(s);
            Q_EMIT noticed(tr("Layer %1, head %2: “%3” gives “%4” the weight %5, the most of any "
                              "head. Right-click “%4” in the map to double or halve its key.")
                               .arg(best.layer + 1)
                               .arg(best.head + 1)
                               .arg(snapshot()->labels[query], snapshot()->labels[key])
                               .arg(static_cast<double>(best.weight), 0, 'f', 3));
            return true;
        }
    }
    return false;
}

}  // namespace attnlab
