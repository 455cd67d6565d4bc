// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/model/seq2seq_document.h"

#include <algorithm>

#include <QDir>
#include <QFileInfo>
#include <QMetaMethod>

#include "ui/document/away.h"
#include "ui/modelrun/cross_session.h"
#include "ui/readers/status_text.h"

namespace attnlab {

namespace {

using attn::model::AttentionKind;
using attn::model::HeadEdit;
using attn::model::HeadEditKind;

bool sameHead(const HeadEdit& e, AttentionKind kind, int layer, int head)
{
    return e.attention == kind && e.layer == layer && e.head == head;
}

bool ablation(HeadEditKind kind)
{
    return kind == HeadEditKind::AblateZero || kind == HeadEditKind::AblateMean;
}

QString kindWord(AttentionKind kind)
{
    switch (kind) {
    case AttentionKind::Encoder: return Seq2SeqDocument::tr("encoder");
    case AttentionKind::Decoder: return Seq2SeqDocument::tr("decoder");
    case AttentionKind::Cross: return Seq2SeqDocument::tr("cross-attention");
    }
    return {};
}

}  // namespace

Seq2SeqDocument::Seq2SeqDocument(QObject* parent)
    : DocumentBase(parent),
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
            .cancelled = {},
            .busy = [this](bool busy) { setBusy(busy); }})
{
    debounce_.setSingleShot(true);
    debounce_.setInterval(kDebounceMs);
    connect(&debounce_, &QTimer::timeout, this, &Seq2SeqDocument::startRun);
}

Seq2SeqDocument::~Seq2SeqDocument() = default;

bool Seq2SeqDocument::open(const QString& folder, QString& error)
{
    const QString path = QDir::cleanPath(QDir(folder).absolutePath());
    if (!QFileInfo(path).isDir()) {
        error = tr("%1 is not a folder. A model is a folder holding config.json, its weights "
                   "and its tokenizer's files.")
                    .arg(QDir::toNativeSeparators(path));
        return false;
    }
    attn::Status problem;
    std::shared_ptr<const LoadedSeq2Seq> loaded =
        runAway([&path, &problem] { return loadSeq2SeqFolder(path, problem); });
    if (!loaded) {
        error = statusMessage(problem);
        return false;
    }
    debounce_.stop();
    carry_.reset();
    doc_.reset(RunState{source_, target_, {}, {}});
    loaded_ = std::move(loaded);
    undo_.clear();
    selection_ = clamped(selection_);
    Q_EMIT modelChanged();
    Q_EMIT snapshotChanged();
    Q_EMIT selectionChanged();
    startRun();
    return true;
}

QString Seq2SeqDocument::modelType() const
{
    return loaded_ ? QString::fromStdString(loaded_->model.config().modelType) : QString();
}

QString Seq2SeqDocument::describeModel() const
{
    if (!loaded_) return tr("No model open");
    const attn::model::Seq2SeqConfig& c = loaded_->model.config();
    return tr("%1 · %2 + %3 layers × %4 heads · width %5")
        .arg(modelType())
        .arg(c.encoderLayers)
        .arg(c.decoderLayers)
        .arg(c.heads)
        .arg(c.width);
}

int Seq2SeqDocument::layers(AttentionKind kind) const
{
    if (!loaded_) return 0;
    const attn::model::Seq2SeqConfig& c = loaded_->model.config();
    return static_cast<int>(kind == AttentionKind::Encoder ? c.encoderLayers : c.decoderLayers);
}

int Seq2SeqDocument::heads() const
{
    return loaded_ ? static_cast<int>(loaded_->model.config().heads) : 0;
}

void Seq2SeqDocument::carry(std::shared_ptr<const CrossCarry> carry, const QString& note)
{
    if (!note.isEmpty()) Q_EMIT noticed(note);
    if (carry == carry_) return;
    carry_ = std::move(carry);
    debounce_.stop();
    startRun();
}

void Seq2SeqDocument::setSource(const QString& text)
{
    if (text == source_) return;
    source_ = text;
    carry_.reset();
    debounce_.start();
}

void Seq2SeqDocument::setTarget(const QString& text)
{
    if (text == target_) return;
    target_ = text;
    carry_.reset();
    debounce_.start();
}

void Seq2SeqDocument::translate()
{
    target_.clear();
    carry_.reset();
    debounce_.stop();
    startRun();
}

QString Seq2SeqDocument::translationText() const
{
    const Shown snap = snapshot();
    if (!snap || !snap->translated || !loaded_) return {};
    std::vector<int> ids(snap->target.ids.begin() + 1, snap->target.ids.end());
    if (!snap->predictions.empty() && !snap->predictions.back().top.empty())
        ids.push_back(snap->predictions.back().top.front().id);
    const attn::model::Seq2SeqConfig& c = loaded_->model.config();
    QString text;
    for (const int id : ids) {
        if (id == c.eosTokenId || id == c.padTokenId) continue;
        text += QString::fromStdString(loaded_->tokenizers->target.token(id).text);
    }
    return text.trimmed();
}

void Seq2SeqDocument::cancel()
{
    debounce_.stop();
    doc_.cancel();
}

void Seq2SeqDocument::startRun()
{
    if (!loaded_) return;
    doc_.submit({RunState{source_, target_, doc_.target().edits, carry_}, {}});
}

Seq2SeqDocument::Runs::Work Seq2SeqDocument::prepare(const RunState& next) const
{
    return [loaded = loaded_, next](JobControl& control) {
        Seq2SeqRequest request;
        request.source = next.source;
        request.target = next.target;
        request.edits = next.edits;
        request.carry = next.carry;
        request.progress = [&control](int done, int) {
            control.report(done);
            return !control.cancelled();
        };
        const Seq2SeqOutcome run = runSeq2SeqText(*loaded, request);
        Runs::Outcome out;
        out.cancelled = run.cancelled;
        if (run.snapshot)
            out.result = run.snapshot;
        else if (!run.cancelled)
            out.error = tr("The model could not run: %1").arg(statusMessage(run.status));
        return out;
    };
}

void Seq2SeqDocument::finished()
{
    selection_ = clamped(selection_);
    Q_EMIT snapshotChanged();
    Q_EMIT selectionChanged();
}

void Seq2SeqDocument::applyEdits(std::vector<HeadEdit> edits)
{
    debounce_.stop();
    if (!loaded_) return;
    doc_.submit({RunState{source_, target_, std::move(edits), carry_}, {}});
}

bool Seq2SeqDocument::changeEdits(Edits edits, Label label)
{
    if (!loaded_) return false;
    const Shown snap = snapshot();
    const long m = snap ? snap->source.count() : 0;
    const long n = snap ? snap->target.count() : 0;
    if (const attn::Status s = attn::model::checkSeq2SeqEdits(loaded_->model, m, n, edits);
        !s.ok()) {
        Q_EMIT errorOccurred(tr("The edit was refused: %1").arg(statusMessage(s)));
        return false;
    }
    debounce_.stop();
    doc_.submit({RunState{source_, target_, std::move(edits), carry_}, std::move(label)});
    return true;
}

bool Seq2SeqDocument::ablateHead(AttentionKind kind, int layer, int head)
{
    Edits edits;
    for (const HeadEdit& e : doc_.target().edits)
        if (!(sameHead(e, kind, layer, head) && ablation(e.kind))) edits.push_back(e);
    HeadEdit e;
    e.kind = HeadEditKind::AblateZero;
    e.attention = kind;
    e.layer = layer;
    e.head = head;
    edits.push_back(e);
    return changeEdits(std::move(edits), [kind, layer, head] {
        return tr("Switch off %1 layer %2, head %3")
            .arg(kindWord(kind))
            .arg(layer + 1)
            .arg(head + 1);
    });
}

bool Seq2SeqDocument::restoreHead(AttentionKind kind, int layer, int head)
{
    Edits edits;
    for (const HeadEdit& e : doc_.target().edits)
        if (!sameHead(e, kind, layer, head)) edits.push_back(e);
    if (edits.size() == doc_.target().edits.size()) return false;
    return changeEdits(std::move(edits), [kind, layer, head] {
        return tr("Restore %1 layer %2, head %3").arg(kindWord(kind)).arg(layer + 1).arg(head + 1);
    });
}

bool Seq2SeqDocument::scaleVector(AttentionKind kind, HeadEditKind role, int layer, int head,
                                  long index, float scale)
{
    Edits edits;
    float total = scale;  // scaling the same vector again multiplies
    for (const HeadEdit& e : doc_.target().edits) {
        if (sameHead(e, kind, layer, head) && e.kind == role && e.index == index)
            total *= e.scale;
        else
            edits.push_back(e);
    }
    HeadEdit e;
    e.kind = role;
    e.attention = kind;
    e.layer = layer;
    e.head = head;
    e.index = index;
    e.scale = total;
    if (total != 1.0f) edits.push_back(e);
    return changeEdits(std::move(edits), [kind, role, index, layer, head, scale] {
        const QString what = role == HeadEditKind::Key     ? tr("key")
                             : role == HeadEditKind::Query ? tr("query")
                                                           : tr("value");
        return tr("Scale %1 %2 of %3 layer %4, head %5 by %6")
            .arg(what)
            .arg(index + 1)
            .arg(kindWord(kind))
            .arg(layer + 1)
            .arg(head + 1)
            .arg(static_cast<double>(scale));
    });
}

bool Seq2SeqDocument::clearEdits()
{
    if (doc_.target().edits.empty()) return false;
    return changeEdits({}, [] { return tr("Clear the head edits"); });
}

bool Seq2SeqDocument::headEdited(AttentionKind kind, int layer, int head) const
{
    return std::any_of(edits().begin(), edits().end(),
                       [&](const HeadEdit& e) { return sameHead(e, kind, layer, head); });
}

bool Seq2SeqDocument::headAblated(AttentionKind kind, int layer, int head) const
{
    return std::any_of(edits().begin(), edits().end(), [&](const HeadEdit& e) {
        return sameHead(e, kind, layer, head) && ablation(e.kind);
    });
}

Seq2SeqSelection Seq2SeqDocument::clamped(Seq2SeqSelection s) const
{
    s.layer = std::clamp(s.layer, 0, std::max(0, layers(s.kind) - 1));
    s.head = std::clamp(s.head, 0, std::max(0, heads() - 1));
    return s;
}

void Seq2SeqDocument::select(Seq2SeqSelection s)
{
    s = clamped(s);
    if (s == selection_) return;
    selection_ = s;
    Q_EMIT selectionChanged();
}

const attn::model::FloatMatrix* Seq2SeqDocument::selectedMap() const
{
    const Shown snap = snapshot();
    if (!snap) return nullptr;
    const auto l = static_cast<std::size_t>(selection_.layer);
    const auto h = static_cast<std::size_t>(selection_.head);
    const attn::model::Seq2SeqResult& r = snap->result;
    switch (selection_.kind) {
    case AttentionKind::Encoder:
        return l < r.encoder.size() && h < r.encoder[l].attention.size()
                   ? &r.encoder[l].attention[h]
                   : nullptr;
    case AttentionKind::Decoder:
        return l < r.decoder.size() && h < r.decoder[l].attention.size()
                   ? &r.decoder[l].attention[h]
                   : nullptr;
    case AttentionKind::Cross:
        return l < r.cross.size() && h < r.cross[l].size() ? &r.cross[l][h] : nullptr;
    }
    return nullptr;
}

QString Seq2SeqDocument::selectionTitle() const
{
    const QString kind = selection_.kind == AttentionKind::Encoder   ? tr("Encoder")
                         : selection_.kind == AttentionKind::Decoder ? tr("Decoder")
                                                                     : tr("Cross-attention");
    return tr("%1, layer %2, head %3").arg(kind).arg(selection_.layer + 1).arg(selection_.head + 1);
}

QString Seq2SeqDocument::explanation(AttentionKind kind) const
{
    QString line;
    switch (kind) {
    case AttentionKind::Encoder:
        line =
            tr("Encoder self-attention: queries, keys and values all come from the source; "
               "every source token sees every other.");
        break;
    case AttentionKind::Decoder:
        line =
            tr("Decoder masked self-attention: queries, keys and values come from the "
               "target; future positions are set to −∞ before the softmax (the triangle).");
        break;
    case AttentionKind::Cross:
        line =
            tr("Cross-attention: the queries come from the decoder (target rows), the keys "
               "and values from the encoder's output (source columns).");
        break;
    }
    if (isT5() && kind != AttentionKind::Cross)
        line += QLatin1Char(' ') + tr("T5 adds a learned bias per distance instead of "
                                      "positions, and does not divide by √d.");
    else if (isT5())
        line += QLatin1Char(' ') + tr("T5 does not divide its scores by √d.");
    return line;
}

bool Seq2SeqDocument::hasWorkbench() const
{
    return isSignalConnected(QMetaMethod::fromSignal(&Seq2SeqDocument::workbenchRequested));
}

bool Seq2SeqDocument::openInWorkbench(int layer, int head)
{
    QString error;
    CrossHeadRequest request;
    const Shown snap = snapshot();
    if (!loaded_ || !snap) {
        error = tr("Translate a text first.");
    } else if (!hasWorkbench()) {
        error = tr("There is no workbench window to open the head in.");
    } else if (crossHeadSession(*loaded_, *snap, layer, head, request.session, error)) {
        request.translator = this;
        request.title = crossHeadTitle(*loaded_, layer, head);
        request.taken = {layer, head, loaded_->model.config().headDim, snap->source.ids,
                         snap->target.ids};
        HeadReply reply;
        Q_EMIT workbenchRequested(request, &reply);
        if (reply.taken) return true;
        error = reply.error;
    }
    Q_EMIT errorOccurred(error);
    return false;
}

}  // namespace attnlab
