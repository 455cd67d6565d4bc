// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The translator window's document: an open encoder-decoder (BART, Marian, T5) with its
// tokenizers, the source text, the target (typed, or the model's own greedy translation), the
// head edits, the published run (Seq2SeqSnapshot) and the selected map. Views only read it and
// call its named operations.
//
// A SnapshotDocument over ((source, target, edits), run) whose policy is Supersede: typing
// re-runs after kDebounceMs; a change while a run is going cancels it and runs only the latest.
// Head edits are published with their run as one undo step, only when the run succeeded; a
// refused or failed run leaves everything as it was and says why.

#include <memory>
#include <vector>

#include <QTimer>

#include "core/model/attention_kind.h"
#include "core/model/head_edit.h"
#include "ui/document/document_base.h"
#include "ui/document/snapshot_document.h"
#include "ui/model/head_request.h"
#include "ui/modelrun/seq2seq_run.h"
#include "ui/readers/session.h"

namespace attnlab {

struct Seq2SeqSelection {
    attn::model::AttentionKind kind = attn::model::AttentionKind::Cross;
    int layer = 0;
    int head = 0;
    bool operator==(const Seq2SeqSelection&) const = default;
};

class Seq2SeqDocument : public DocumentBase {
    Q_OBJECT
public:
    static constexpr int kDebounceMs = 15;

    explicit Seq2SeqDocument(QObject* parent = nullptr);
    ~Seq2SeqDocument() override;

    // Opens an encoder-decoder folder; false with a message naming the file and the field. The
    // model that was open stays open. The first run translates the source.
    bool open(const QString& folder, QString& error);
    [[nodiscard]] bool hasModel() const { return loaded_ != nullptr; }
    [[nodiscard]] std::shared_ptr<const LoadedSeq2Seq> loaded() const { return loaded_; }
    [[nodiscard]] QString folder() const { return loaded_ ? loaded_->folder : QString(); }
    [[nodiscard]] QString modelType() const;
    [[nodiscard]] bool isT5() const { return loaded_ && loaded_->model.config().isT5(); }
    // "marian · 6 + 6 layers × 8 heads · width 512" (translated).
    [[nodiscard]] QString describeModel() const;
    [[nodiscard]] int layers(attn::model::AttentionKind kind) const;
    [[nodiscard]] int heads() const;

    // The source as typed; a change re-runs after kDebounceMs, keeping the target as it is
    // (typed, or translated again).
    void setSource(const QString& text);
    [[nodiscard]] QString source() const { return source_; }
    // A typed target: the decoder reads it (teacher forcing). Empty: the model translates.
    void setTarget(const QString& text);
    [[nodiscard]] QString target() const { return target_; }
    // Translate (Ctrl+T): the target becomes the model's greedy translation, word by word.
    void translate();
    // The published run's translation as text (its target tokens after the start token, and
    // the last prediction), for the target box; empty when the target was typed.
    [[nodiscard]] QString translationText() const;
    void cancel();
    [[nodiscard]] bool running() const { return doc_.computing(); }
    [[nodiscard]] bool idle() const { return !running() && !debounce_.isActive(); }

    [[nodiscard]] std::shared_ptr<const Seq2SeqSnapshot> snapshot() const
    {
        return doc_.result().value_or(nullptr);
    }

    // Head edits (seq2seq_edit.h): each re-runs the model (and the translation, when the model
    // writes the target) and is published with it as one undo step.
    [[nodiscard]] const std::vector<attn::model::HeadEdit>& edits() const
    {
        return doc_.state().edits;
    }
    bool ablateHead(attn::model::AttentionKind kind, int layer, int head);
    bool restoreHead(attn::model::AttentionKind kind, int layer, int head);
    bool scaleVector(attn::model::AttentionKind kind, attn::model::HeadEditKind role, int layer,
                     int head, long index, float scale);
    bool clearEdits();
    [[nodiscard]] bool headEdited(attn::model::AttentionKind kind, int layer, int head) const;
    [[nodiscard]] bool headAblated(attn::model::AttentionKind kind, int layer, int head) const;
    // Runs with these edits, without an undo step (the undo steps call it).
    void applyEdits(std::vector<attn::model::HeadEdit> edits);

    [[nodiscard]] const Seq2SeqSelection& selection() const { return selection_; }
    void select(Seq2SeqSelection s);
    // The selected map of the published run (nullptr without one) and its title.
    [[nodiscard]] const attn::model::FloatMatrix* selectedMap() const;
    [[nodiscard]] QString selectionTitle() const;
    // Which tokens are queries and which keys in a map of `kind` (translated, one line; T5's
    // position bias and missing 1/sqrt(d) said too).
    [[nodiscard]] QString explanation(attn::model::AttentionKind kind) const;

    // Open in Workbench on cross head `head` of decoder layer `layer`: its session in cross
    // mode (cross_session.h) goes to the workbench wired to workbenchRequested, where it is one
    // undo step. False with errorOccurred (why) without a run, without a workbench, or when the
    // workbench refuses it.
    bool openInWorkbench(int layer, int head);
    // A workbench is wired to workbenchRequested: the cross heads' menu offers Open in Workbench.
    [[nodiscard]] bool hasWorkbench() const;
    // The workbench's cross head carried in (CrossCarry): the run reads the target the head
    // was taken on, with the head's output and map replaced, as the change grid and the
    // predictions show; not an undo step (the workbench's history is the history). Typing
    // either text or Translate drops it. nullptr drops it now, and a `note` says why (noticed).
    void carry(std::shared_ptr<const CrossCarry> carry, const QString& note = {});
    [[nodiscard]] std::shared_ptr<const CrossCarry> carried() const { return carry_; }

Q_SIGNALS:
    // The workbench window, when it wired this (MainWindow::adoptTranslator), takes the session
    // and says in `reply` whether it did; both live on the GUI thread.
    void workbenchRequested(const attnlab::CrossHeadRequest& request, attnlab::HeadReply* reply);
    void modelChanged();
    void snapshotChanged();
    void selectionChanged();

private:
    using Edits = std::vector<attn::model::HeadEdit>;
    struct RunState {
        QString source;
        QString target;  // empty: the model translates
        Edits edits;
        std::shared_ptr<const CrossCarry> carry;
    };
    using Shown = std::shared_ptr<const Seq2SeqSnapshot>;
    using Runs = SnapshotDocument<RunState, Shown>;
    void startRun();
    [[nodiscard]] Runs::Work prepare(const RunState& next) const;
    bool changeEdits(Edits edits, Label label);
    void finished();
    [[nodiscard]] Seq2SeqSelection clamped(Seq2SeqSelection s) const;

    std::shared_ptr<const LoadedSeq2Seq> loaded_;
    QString source_;
    QString target_;
    std::shared_ptr<const CrossCarry> carry_;
    Runs doc_;
    Seq2SeqSelection selection_;
    QTimer debounce_;
};

}  // namespace attnlab
