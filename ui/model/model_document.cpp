#include "ui/model/model_document.h"

#include <sys/resource.h>
#include <unistd.h>

#include <QDir>
#include <QFile>
#include <QtConcurrent/QtConcurrentRun>

#include "core/model/aggregate.h"
#include "ui/model/model_loader.h"
#include "ui/model/workbench_opener.h"

namespace attnlab {

ModelDocument::ModelDocument(QObject* parent)
    : RunSource(parent),
      cancel_(std::make_shared<std::atomic<bool>>(false)),
      progress_(std::make_shared<std::atomic<int>>(0))
{
    debounce_.setSingleShot(true);
    debounce_.setInterval(kDebounceMs);
    connect(&debounce_, &QTimer::timeout, this, &ModelDocument::startRun);
    connect(&watcher_, &QFutureWatcher<ModelRunOutcome>::finished, this, &ModelDocument::finishRun);
}

ModelDocument::~ModelDocument()
{
    cancel_->store(true);
    watcher_.waitForFinished();
}

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
    hasher_ = {};
    cancel_->store(true);
    watcher_.waitForFinished();
    running_ = pending_ = false;
    loaded_ = std::move(loaded);
    // Sessions taken from it record its SHA-256: hash it now, on a thread of its own at the
    // lowest priority, so that it takes nothing from the runs that the typing starts.
    hasher_ = std::jthread([model = loaded_](std::stop_token stop) {
        (void)::setpriority(PRIO_PROCESS, static_cast<id_t>(::gettid()), 19);
        std::atomic<bool> stopped{false};
        const std::stop_callback onStop(stop, [&stopped] { stopped.store(true); });
        model->prefetchSha256(stopped);
    });
    edits_.clear();  // they were the other model's
    undo_.clear();
    folder_ = path;
    snapshot_.reset();
    selection_ = clamped(selection_);
    Q_EMIT modelChanged();
    Q_EMIT snapshotChanged();
    Q_EMIT selectionChanged();
    runNow();
    return true;
}

bool ModelDocument::openInWorkbench(int layer, int head)
{
    QString error;
    if (!loaded_ || !snapshot_) {
        error = tr("Run the model on a text first.");
    } else if (attnlab::openInWorkbench({loaded_, snapshot_, layer, head}, error)) {
        return true;
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
    if (running_) cancel_->store(true);  // it will be followed by this text
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
    pending_ = false;
    if (running_) cancel_->store(true);
}

int ModelDocument::progressDone() const
{
    return progress_->load();
}

void ModelDocument::startRun()
{
    if (!loaded_) return;
    if (running_) {
        pending_ = true;
        cancel_->store(true);
        return;
    }
    pending_ = false;
    cancel_ = std::make_shared<std::atomic<bool>>(false);
    progress_->store(0);
    const int generation = ++generation_;
    watcher_.setFuture(
        QtConcurrent::run([loaded = loaded_, text = text_, cancel = cancel_, progress = progress_,
                           generation, previous = snapshot_, edits = edits_] {
            ModelRunOutcome outcome = runModelText(
                *loaded, text,
                [&](int done, int) {
                    progress->store(done);
                    return !cancel->load();
                },
                previous.get(), edits);
            outcome.generation = generation;
            return outcome;
        }));
    running_ = true;
    Q_EMIT runningChanged(true);
}

void ModelDocument::finishRun()
{
    if (!running_ || !watcher_.isFinished()) return;  // a signal of a run already dropped
    const ModelRunOutcome outcome = watcher_.result();
    if (outcome.generation != generation_) return;
    running_ = false;
    if (pending_) {
        startRun();
        return;
    }
    Q_EMIT runningChanged(false);
    if (outcome.cancelled) {
        // A keystroke cancelled it and its text runs when the pause is over: nothing to say.
        if (!debounce_.isActive())
            Q_EMIT noticed(tr("Run cancelled; the maps show the last completed text."));
        return;
    }
    if (!outcome.error.isEmpty()) {
        Q_EMIT errorOccurred(outcome.error);
        return;
    }
    snapshot_ = outcome.snapshot;  // null for a text without tokens
    if (outcome.empty) Q_EMIT noticed(tr("Type a text to see the model's attention."));
    selection_ = clamped(selection_);
    Q_EMIT snapshotChanged();
    Q_EMIT selectionChanged();
}

ModelSelection ModelDocument::clamped(ModelSelection s) const
{
    s.layer = std::clamp(s.layer, 0, std::max(0, layers() - 1));
    s.head = std::clamp(s.head, 0, std::max(0, heads() - 1));
    const int n = snapshot_ ? static_cast<int>(snapshot_->tokenCount()) : 0;
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

const attn::model::FloatMatrix* ModelDocument::focusedMatrix() const
{
    if (!snapshot_ || snapshot_->layers() == 0) return nullptr;
    const auto l = static_cast<std::size_t>(selection_.layer);
    switch (selection_.focus) {
    case ModelFocus::Head:
        return &snapshot_->result.layers[l].attention[static_cast<std::size_t>(selection_.head)];
    case ModelFocus::LayerAverage: return &snapshot_->averages[l];
    case ModelFocus::Rollout: return &snapshot_->rollout[l];
    }
    return nullptr;
}

QString ModelDocument::focusTitle() const
{
    return modelMapName(selection_.layer, selection_.column(heads()), heads());
}

namespace {

// One change of the head edits: the list before and after. The first redo (the push) only
// records it: the document already applied the change.
class EditsCommand : public QUndoCommand {
public:
    EditsCommand(ModelDocument* doc, std::vector<attn::model::HeadEdit> before,
                 std::vector<attn::model::HeadEdit> after, const QString& label)
        : QUndoCommand(label), doc_(doc), before_(std::move(before)), after_(std::move(after))
    {
    }
    void undo() override { doc_->applyEdits(before_); }
    void redo() override
    {
        if (!first_) doc_->applyEdits(after_);
        first_ = false;
    }

private:
    ModelDocument* doc_;
    std::vector<attn::model::HeadEdit> before_, after_;
    bool first_ = true;
};

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
    edits_ = std::move(edits);
    runNow();
}

bool ModelDocument::changeEdits(std::vector<attn::model::HeadEdit> edits, const QString& label)
{
    if (!loaded_) return false;
    const long n = snapshot_ ? snapshot_->tokenCount() : 0;
    if (const attn::model::ModelStatus s = attn::model::checkEdits(loaded_->model, n, edits);
        !s.ok()) {
        Q_EMIT errorOccurred(tr("The edit was refused: %1").arg(QString::fromStdString(s.message)));
        return false;
    }
    std::vector<attn::model::HeadEdit> before = edits_;
    applyEdits(edits);
    undo_.push(new EditsCommand(this, std::move(before), std::move(edits), label));
    return true;
}

bool ModelDocument::ablateHead(int layer, int head, bool mean)
{
    std::vector<attn::model::HeadEdit> edits;
    for (const attn::model::HeadEdit& e : edits_)
        if (!(sameHead(e, layer, head) && ablation(e.kind))) edits.push_back(e);
    attn::model::HeadEdit e;
    e.kind = mean ? attn::model::HeadEditKind::AblateMean : attn::model::HeadEditKind::AblateZero;
    e.layer = layer;
    e.head = head;
    edits.push_back(e);
    const QString label =
        mean ? tr("Replace layer %1, head %2 by its mean") : tr("Switch off layer %1, head %2");
    return changeEdits(std::move(edits), label.arg(layer + 1).arg(head + 1));
}

bool ModelDocument::restoreHead(int layer, int head)
{
    std::vector<attn::model::HeadEdit> edits;
    for (const attn::model::HeadEdit& e : edits_)
        if (!sameHead(e, layer, head)) edits.push_back(e);
    if (edits.size() == edits_.size()) return false;
    return changeEdits(std::move(edits),
                       tr("Restore layer %1, head %2").arg(layer + 1).arg(head + 1));
}

bool ModelDocument::scaleVector(attn::model::HeadEditKind kind, int layer, int head, long index,
                                float scale)
{
    std::vector<attn::model::HeadEdit> edits;
    float total = scale;  // scaling the same vector again multiplies
    for (const attn::model::HeadEdit& e : edits_) {
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
    const QString role = kind == attn::model::HeadEditKind::Key     ? tr("key")
                         : kind == attn::model::HeadEditKind::Query ? tr("query")
                                                                    : tr("value");
    return changeEdits(std::move(edits), tr("Scale %1 %2 of layer %3, head %4 by %5")
                                             .arg(role)
                                             .arg(index + 1)
                                             .arg(layer + 1)
                                             .arg(head + 1)
                                             .arg(static_cast<double>(scale)));
}

bool ModelDocument::clearEdits()
{
    if (edits_.empty()) return false;
    return changeEdits({}, tr("Clear the head edits"));
}

bool ModelDocument::headEdited(int layer, int head) const
{
    return std::any_of(edits_.begin(), edits_.end(),
                       [&](const attn::model::HeadEdit& e) { return sameHead(e, layer, head); });
}

bool ModelDocument::headAblated(int layer, int head) const
{
    return std::any_of(edits_.begin(), edits_.end(), [&](const attn::model::HeadEdit& e) {
        return sameHead(e, layer, head) && ablation(e.kind);
    });
}

int ModelDocument::findToken(const QString& word, bool last) const
{
    if (!snapshot_) return -1;
    const QString want = word.toLower();
    const bool cjk = !want.isEmpty() && want.at(0).script() == QChar::Script_Han;
    int found = -1;
    for (int i = 0; i < snapshot_->labels.size(); ++i) {
        QString t = snapshot_->labels[i].toLower();
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
    if (!snapshot_) return false;
    for (const QString& q : queries) {
        const int query = findToken(q, true);
        if (query < 0) continue;
        for (const QString& k : keys) {
            const int key = findToken(k, false);
            if (key < 0) continue;
            const attn::model::HeadWeight best =
                attn::model::strongestHead(snapshot_->result.layers, query, key);
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
                               .arg(snapshot_->labels[query], snapshot_->labels[key])
                               .arg(static_cast<double>(best.weight), 0, 'f', 3));
            return true;
        }
    }
    return false;
}

}  // namespace attnlab
