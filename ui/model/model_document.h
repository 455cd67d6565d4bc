// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The model window's document: the open checkpoint (weights mapped, tokenizer read), the text,
// the published run (ModelSnapshot) and what is selected. Views only read from it and call its
// named operations.
//
// It is a SnapshotDocument over ((text, head edits), run) whose policy is Supersede: typing
// re-runs the model after kDebounceMs without a keystroke; a change while a run is going
// cancels it (through the forward pass's progress callback) and runs only the latest text and
// edits. The last published snapshot stays on screen until the next one is complete. The head
// edits, the run and the edit's undo step are published together, only when the run
// succeeded: a refused text (too long), a failed or a cancelled run leaves the edits, the
// snapshot and the undo stack as they were, and says why. Opening a folder that is not a
// usable checkpoint leaves the open model, its text and its run as they were.

#include <memory>
#include <vector>

#include <QImage>
#include <QObject>
#include <QThreadPool>
#include <QTimer>
#include <QUndoStack>

#include "core/model/head_edit.h"
#include "ui/document/snapshot_document.h"
#include "ui/model/head_request.h"
#include "ui/model/run_source.h"
#include "ui/modelrun/model_snapshot.h"
#include "ui/modelrun/model_writing.h"

namespace attnlab {

// What the large map shows: one head, the mean of a layer's heads, or the rollout through a
// layer.
enum class ModelFocus { Head, LayerAverage, Rollout };

struct ModelSelection {
    int layer = 0;
    int head = 0;
    ModelFocus focus = ModelFocus::Head;
    int query = -1;  // the selected row (query token) of the large map, -1 for none
    bool operator==(const ModelSelection&) const = default;
    // Its column in the model view (model_grid_paint.h): the head, then the mean, the rollout.
    [[nodiscard]] int column(int heads) const
    {
        return focus == ModelFocus::Head           ? head
               : focus == ModelFocus::LayerAverage ? heads
                                                   : heads + 1;
    }
};

class ModelDocument : public RunSource {
    Q_OBJECT
public:
    static constexpr int kDebounceMs = 15;

    explicit ModelDocument(QObject* parent = nullptr);
    ~ModelDocument() override;

    // Opens a checkpoint folder (config.json, model.safetensors, the tokenizer's files). On
    // failure returns false with a message naming the file and the tensor or field; the model
    // that was open stays open.
    bool open(const QString& folder, QString& error);
    [[nodiscard]] bool hasModel() const override { return loaded_ != nullptr; }
    [[nodiscard]] QString folder() const { return folder_; }
    [[nodiscard]] QString modelType() const override;
    // The open checkpoint (weights and tokenizer), shared with whoever needs it; nullptr
    // without one.
    [[nodiscard]] std::shared_ptr<const LoadedModel> loaded() const { return loaded_; }
    [[nodiscard]] int layers() const;
    [[nodiscard]] int heads() const;
    [[nodiscard]] long positions() const;
    // "gpt2 · 12 layers × 12 heads · width 768" (translated).
    [[nodiscard]] QString describeModel() const;

    // The text as typed; a change re-runs the model after kDebounceMs (runNow: at once).
    void setText(const QString& text);
    [[nodiscard]] QString text() const { return text_; }
    void runNow();
    // Stops the run in progress; the previous snapshot stays.
    void cancel();
    [[nodiscard]] bool running() const { return doc_.computing(); }
    // No run going and none waiting for the typing pause: the snapshot is the text's (or the
    // text was refused).
    [[nodiscard]] bool idle() const { return !running() && !debounce_.isActive(); }
    // Layers finished by the run in progress, of layers() (+1 for the output).
    [[nodiscard]] int progressDone() const;

    [[nodiscard]] std::shared_ptr<const ModelSnapshot> snapshot() const override
    {
        const Shown shown = doc_.result().value_or(nullptr);
        return shown ? shown->run : nullptr;
    }
    // The model view's thumbnails of snapshot() (model_grid_paint.h), published with it; empty
    // without a run.
    [[nodiscard]] std::shared_ptr<const std::vector<QImage>> thumbnails() const
    {
        const Shown shown = doc_.result().value_or(nullptr);
        return shown ? std::shared_ptr<const std::vector<QImage>>(shown, &shown->thumbnails)
                     : nullptr;
    }

    // Head edits carried through the model (core/model/head_edit.h): each named operation
    // re-runs the model and, once the run succeeded, is published with it as one undo step;
    // the snapshot then holds the edited run beside the unedited one. They are refused (false,
    // errorOccurred) outside the model or the text. edits() are the published run's.
    [[nodiscard]] const std::vector<attn::model::HeadEdit>& edits() const
    {
        return doc_.state().edits;
    }
    bool ablateHead(int layer, int head, bool mean);
    bool restoreHead(int layer, int head);  // drops every edit of that head
    bool scaleVector(attn::model::HeadEditKind kind, int layer, int head, long index, float scale);
    bool clearEdits();
    [[nodiscard]] bool headEdited(int layer, int head) const;
    [[nodiscard]] bool headAblated(int layer, int head) const;
    // Runs with the edits as they are, without an undo step (the undo stack's steps call this).
    void applyEdits(std::vector<attn::model::HeadEdit> edits);

    // Hands head (layer, head) of the published run to the workbench (head_request.h): its
    // real vectors become the workbench's session, with this model attached. False
    // (errorOccurred) without a run, without a workbench wired to workbenchRequested, or when
    // the workbench refused it.
    bool openInWorkbench(int layer, int head);
    // A workbench is wired to workbenchRequested: the menus offer Open in Workbench.
    [[nodiscard]] bool hasWorkbench() const;

    // The position of the token that spells `word` in the published run (a GPT-2 token without
    // its leading space, a BERT piece; a CJK word also matches the token of its first character),
    // the first or the last one; -1 when there is none.
    [[nodiscard]] int findToken(const QString& word, bool last) const;
    // Selects the head where the token spelling one of `queries` reads one of `keys` most
    // (attn::model::strongestHead) and that query's row. False when the text has neither.
    bool selectStrongestHead(const QStringList& queries, const QStringList& keys);

    [[nodiscard]] const ModelSelection& selection() const { return selection_; }
    void selectHead(int layer, int head);
    void selectAggregate(int layer, ModelFocus focus);
    void selectQuery(int row);
    // The matrix the large map shows (nullptr before a run, and for a pooled run's rollout) and
    // its title. A pooled run (model_snapshot.h) keeps no whole map: a head's is made on demand
    // from its layer's kept input (attn::model::exactMap), a layer mean from its
    // heads', and kept until the selection or the run changes.
    [[nodiscard]] std::shared_ptr<const attn::model::FloatMatrix> focusedMatrix() const;
    [[nodiscard]] QString focusTitle() const;
    // Why focusedMatrix() is null (translated): no run, or a rollout not computed.
    [[nodiscard]] QString focusAbsence() const;
    // The selected head's scaled score q_i . k_j / sqrt(d_h) where the run kept its queries and
    // keys (a decoder's pooled or typing-cached run without edits); false otherwise.
    bool focusedScore(long query, long key, float& score) const;

    // The model writes after the text (ui/modelrun/model_writing.h). The tokens written are
    // part of the document's state (the sampling each was drawn with, and the seed): replayed on
    // the same text and edits they come out the same, so a head edit made afterwards writes the
    // text again under the edit. step() writes one token as its own undo step; generate(n)
    // writes up to n, one published snapshot per token (the maps grow a row and a column each),
    // the whole run one undo step; stopWriting() (or typing) stops it. The next token is drawn
    // with sampling() and, for a text not yet written after, seed().
    void setSampling(const attn::model::SamplingSettings& sampling);
    [[nodiscard]] const attn::model::SamplingSettings& sampling() const { return sampling_; }
    void setSeed(std::uint64_t seed);
    [[nodiscard]] std::uint64_t seed() const { return seed_; }
    bool step();
    bool generate(int count);
    // generate(count) after the text alone: what was written is dropped in the same undo step,
    // so that writings at several temperatures start from the same text.
    bool generateAfterText(int count);
    void stopWriting();
    [[nodiscard]] bool writing() const { return toWrite_ > 0; }
    // Tokens still to write in the running generate() (0 when none runs), and how many it asked.
    [[nodiscard]] int writingLeft() const { return toWrite_; }
    [[nodiscard]] int writingAsked() const { return asked_; }
    // The text with what the model wrote after it (the text alone when it wrote nothing).
    [[nodiscard]] QString shownText() const;
    // The next-token distribution for the Generate panel's bars (core/model/sampling.h): right
    // after a token was written, the draw that chose it (`drawn`); otherwise what the sampling
    // would keep of the published run's next-token logits, nothing drawn. Empty `ranked` for a
    // model that does not write.
    struct NextToken {
        attn::model::TokenDraw draw;
        bool drawn = false;
    };
    [[nodiscard]] NextToken nextToken() const;
    // What the checkpoint says about writing (generation_config.json, else config.json), read
    // when it was opened: the end-of-text ids and bad words are honoured, the rest listed.
    [[nodiscard]] const attn::model::GenerationSettings& generationSettings() const
    {
        return generation_;
    }

    // Attention sinks: heads whose queries put at least kSinkMark (model_grid_paint.h) of their
    // weight on the first token (LayerTrace::firstShare). Selects the next one after the
    // selection, strongest first, and says how many there are (noticed); false without a run.
    // With none, selects the head that comes closest and says so.
    bool selectNextSink();

Q_SIGNALS:
    void selectionChanged();
    // Open in Workbench: the receiver (on this thread) takes the head or says why not in
    // `reply`.
    void workbenchRequested(const attnlab::HeadRequest& request, attnlab::HeadReply* reply);
    // generate() started, wrote a token, or ended; step() wrote one.
    void writingChanged();
    // What the text box shows changed without typing: the model wrote after the text, or an
    // undo took written tokens back.
    void shownTextChanged(const QString& text);

private:
    using Edits = std::vector<attn::model::HeadEdit>;
    struct RunState {
        QString text;
        Edits edits;
        WrittenTokens written;
    };
    // What an undo step restores: the edits and the written tokens.
    struct Marks {
        Edits edits;
        WrittenTokens written;
    };
    void applyMarks(const Marks& marks);
    bool submitWriting(WrittenTokens written, Label label, bool merged);
    bool startGenerating(int count, bool afterText);
    void continueWriting();
    // A run with its thumbnails, drawn on the worker too.
    struct ShownRun {
        std::shared_ptr<const ModelSnapshot> run;
        std::vector<QImage> thumbnails;
    };
    using Shown = std::shared_ptr<const ShownRun>;
    using Runs = SnapshotDocument<RunState, Shown>;
    bool changeEdits(Edits edits, Label label);
    void startRun();
    [[nodiscard]] Runs::Work prepare(const RunState& next) const;
    [[nodiscard]] Runs::Work writingWork(const RunState& next) const;
    // What a worker's run publishes: the snapshot with its thumbnails (drawn there too), none
    // for a text without tokens, or why not.
    static Runs::Outcome shownOutcome(const ModelRunOutcome& run);
    void finished();
    void setSelection(ModelSelection s);
    [[nodiscard]] ModelSelection clamped(ModelSelection s) const;
    // The selected layer's vectors in `snap` (a pooled run), made once per layer and run.
    [[nodiscard]] std::shared_ptr<const attn::model::LayerVectors> layerVectors(
        const std::shared_ptr<const ModelSnapshot>& snap, bool values) const;

    std::shared_ptr<const LoadedModel> loaded_;
    QString folder_;
    QString text_;  // as typed; the published run's is doc_.state().text
    Runs doc_;
    ModelSelection selection_;
    QTimer debounce_;
    attn::model::SamplingSettings sampling_;
    attn::model::GenerationSettings generation_;
    std::uint64_t seed_ = 0;
    int toWrite_ = 0;            // tokens generate() still writes
    int asked_ = 0;              // tokens the running generate() asked for
    long long writeRun_ = 0;     // one undo step per generate(): its merge key
    QString shown_;              // the text box's text as the last publication left it
    bool shownWritten_ = false;  // and whether the model had written in it
    // focusedMatrix()'s whole map of a pooled run, and what it was made for.
    mutable std::shared_ptr<const attn::model::FloatMatrix> exact_;
    mutable std::weak_ptr<const ModelSnapshot> exactRun_;
    mutable ModelSelection exactFor_;
    // The queries and keys of the layer last enlarged in a pooled run, so that its other heads
    // need not project them again; dropped with the run they were made from.
    mutable std::shared_ptr<const attn::model::LayerVectors> vectors_;
    mutable std::weak_ptr<const ModelSnapshot> vectorsRun_;
    // The open model's SHA-256, ahead of need, on a thread of its own: hashing gigabytes takes
    // seconds, and the runs the typing starts must not wait for a thread of the global pool.
    // Last: dropped (cancelled and waited for) first.
    QThreadPool hashThread_;
    AsyncJob<bool> hasher_{this, &hashThread_};
};

}  // namespace attnlab
