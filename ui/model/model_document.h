#pragma once
// The model window's document: the open checkpoint (weights mapped, tokenizer read), the text,
// the published run (ModelSnapshot) and what is selected. Views only read from it and call its
// named operations.
//
// Runs go to a worker thread: typing re-runs the model after kDebounceMs without a keystroke;
// a change while a run is going cancels it (through the forward pass's progress callback) and
// starts the new text once it has stopped. The last published snapshot stays on screen until
// the next one is complete; a refused text (too long) leaves it there and says why. Opening a
// folder that is not a usable checkpoint leaves the open model, its text and its run as they
// were.

#include <atomic>
#include <memory>
#include <thread>

#include <QFutureWatcher>
#include <QObject>
#include <QTimer>
#include <QUndoStack>

#include "ui/model/model_snapshot.h"
#include "ui/model/run_source.h"

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

    // The text; a change re-runs the model after kDebounceMs (runNow: at once).
    void setText(const QString& text);
    [[nodiscard]] QString text() const { return text_; }
    void runNow();
    // Stops the run in progress; the previous snapshot stays.
    void cancel();
    [[nodiscard]] bool running() const { return running_; }
    // No run going and none waiting for the typing pause: the snapshot is the text's (or the
    // text was refused).
    [[nodiscard]] bool idle() const { return !running_ && !debounce_.isActive(); }
    // Layers finished by the run in progress, of layers() (+1 for the output).
    [[nodiscard]] int progressDone() const;

    [[nodiscard]] std::shared_ptr<const ModelSnapshot> snapshot() const override
    {
        return snapshot_;
    }

    // Head edits carried through the model (core/model/head_edit.h): each named operation is
    // one undo step and re-runs the model; the snapshot then holds the edited run beside the
    // unedited one. They are refused (false, errorOccurred) outside the model or the text.
    [[nodiscard]] const std::vector<attn::model::HeadEdit>& edits() const { return edits_; }
    bool ablateHead(int layer, int head, bool mean);
    bool restoreHead(int layer, int head);  // drops every edit of that head
    bool scaleVector(attn::model::HeadEditKind kind, int layer, int head, long index, float scale);
    bool clearEdits();
    [[nodiscard]] bool headEdited(int layer, int head) const;
    [[nodiscard]] bool headAblated(int layer, int head) const;
    [[nodiscard]] QUndoStack* undoStack() { return &undo_; }
    // Sets the edits as they are (the undo stack's commands call this).
    void applyEdits(std::vector<attn::model::HeadEdit> edits);

    // Hands head (layer, head) of the published run to the workbench (workbench_opener.h):
    // its real vectors become the workbench's session, with this model attached. False
    // (errorOccurred) without a run or a workbench.
    bool openInWorkbench(int layer, int head);

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
    // The matrix the large map shows (nullptr before a run) and its title.
    [[nodiscard]] const attn::model::FloatMatrix* focusedMatrix() const;
    [[nodiscard]] QString focusTitle() const;

Q_SIGNALS:
    void selectionChanged();
    void runningChanged(bool running);
    void errorOccurred(const QString& message);
    void noticed(const QString& message);

private:
    bool changeEdits(std::vector<attn::model::HeadEdit> edits, const QString& label);
    void startRun();
    void finishRun();
    void setSelection(ModelSelection s);
    [[nodiscard]] ModelSelection clamped(ModelSelection s) const;

    std::shared_ptr<const LoadedModel> loaded_;
    QString folder_;
    QString text_;
    std::shared_ptr<const ModelSnapshot> snapshot_;
    std::vector<attn::model::HeadEdit> edits_;
    QUndoStack undo_;
    ModelSelection selection_;
    QTimer debounce_;
    QFutureWatcher<ModelRunOutcome> watcher_;
    std::shared_ptr<std::atomic<bool>> cancel_;
    std::shared_ptr<std::atomic<int>> progress_;
    std::jthread hasher_;   // the open model's SHA-256, ahead of need (stopped and joined first)
    bool pending_ = false;  // the text changed during the run: run again when it ends
    bool running_ = false;  // from startRun() until its result is handled
    int generation_ = 0;    // of the run in progress; a late signal of an older one is dropped
};

}  // namespace attnlab
