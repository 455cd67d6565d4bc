// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// One run of a real model on one text, as the model window, the command line and the tests
// see it: the tokens with their on-screen labels, every layer's and head's attention
// (core/model), the layer averages and the attention rollout (core/model/aggregate.h) and the
// predictions with their tokens as text. Made on a worker by runModelText(); immutable once
// published. QtCore only (library attnlab_modelrun).

#include <algorithm>
#include <cmath>
#include <memory>
#include <vector>

#include <QString>
#include <QStringList>

#include "core/model/forward.h"
#include "core/model/generate.h"
#include "core/model/head_edit.h"
#include "core/tokenize/tokenizer_loader.h"
#include "ui/modelrun/loaded_model.h"

namespace attnlab {

struct ModelGuess {
    QString token;  // as text (GPT-2 decoded, BERT as in the vocabulary)
    QString label;  // as the window shows tokens (a leading space as ␣, control bytes named)
    // GPT-2: the token holds only the first bytes of a character (the next token would complete
    // it); `label` then shows the bytes and an ellipsis ("<E5><AE>…").
    bool cutOff = false;
    int id = 0;
    double probability = 0.0;
    double before = 0.0;  // with head edits: the token's probability in the unedited run
};

struct ModelPrediction {
    long position = 0;  // counts from 0, like the ids
    std::vector<ModelGuess> top;
};

// Tokens the model wrote after a text (ModelDocument's Generate and Step): the seed of the draws
// and, per token in order, the sampling it was drawn with. Replaying it on the same text, model
// and edits writes the same tokens (core/model/sampling.h).
struct WrittenTokens {
    std::uint64_t seed = 0;
    std::vector<attn::model::SamplingSettings> steps;
    [[nodiscard]] bool empty() const { return steps.empty(); }
    [[nodiscard]] long count() const { return static_cast<long>(steps.size()); }
    // `other` holds these steps and perhaps more, with the same seed.
    [[nodiscard]] bool leadsTo(const WrittenTokens& other) const;
    bool operator==(const WrittenTokens& other) const;
};

struct ModelSnapshot {
    QString text;
    std::vector<attn::tok::Token> tokens;
    // What of the text no token stands for: left out, or become the unknown token.
    std::vector<attn::tok::Dropped> dropped;
    // One per token: how the maps label it (a leading space as ␣; a character GPT-2 split over
    // several tokens on its first piece, a continuation mark on the others) and the long form
    // and raw bytes for hover text (core/tokenize/token_display.h).
    QStringList labels;
    std::vector<attn::tok::TokenDisplay> display;
    attn::model::ForwardResult result;  // with head edits, the edited run
    // Head edits (ablations, scaled vectors) applied to `result`; `unedited` is the run without
    // them and `change` the largest change of a weight per [layer][head]. Empty without edits.
    std::vector<attn::model::HeadEdit> edits;
    attn::model::ForwardResult unedited;
    std::vector<std::vector<float>> change;
    std::vector<attn::model::FloatMatrix> averages;  // per layer, the mean of its heads
    std::vector<attn::model::FloatMatrix> rollout;   // per layer, rollout through it
    std::vector<ModelPrediction> predictions;
    double milliseconds = 0.0;  // tokenizing, the forward pass and the aggregates
    // Tokens the model wrote after `text` (their ids end `tokens`, from writtenFrom() on), with
    // the generation that wrote them (its key/value cache, the draws): the next token appends to
    // a copy of it. Null for a run of a text alone.
    WrittenTokens written;
    std::shared_ptr<const attn::model::Generation> generation;
    [[nodiscard]] bool wrote() const { return generation != nullptr; }
    // The first written token's position (the prompt's length); -1 without a generation.
    [[nodiscard]] long writtenFrom() const { return generation ? generation->promptLength : -1; }
    // `text` and what the model wrote after it, as text.
    QString writtenText;
    // Query heads per key/value head: above 1, consecutive heads share their keys and values
    // (grouped-query attention) and the model view groups them.
    int groupSize = 1;

    [[nodiscard]] int layers() const { return static_cast<int>(result.layers.size()); }
    [[nodiscard]] int heads() const
    {
        if (result.layers.empty()) return 0;
        const attn::model::LayerTrace& t = result.layers.front();
        return static_cast<int>(std::max(t.attention.size(), t.pooled.size()));
    }
    // A long text's run: every head's map is kept pooled (LayerTrace::pooled), `averages` holds
    // the heads' pooled cells averaged, there is no rollout, and a whole map is made on demand
    // (ModelDocument::focusedMatrix).
    [[nodiscard]] bool pooled() const
    {
        return !result.layers.empty() && result.layers.front().isPooled();
    }
    [[nodiscard]] long tokenCount() const { return static_cast<long>(tokens.size()); }
    [[nodiscard]] bool edited() const { return !edits.empty(); }
    // A run of the workbench's head (HeadLink): `result` has that head's weights and output
    // from the workbench; the unedited run stays with the link (`unedited` is empty), the
    // predictions carry its probabilities as `before` and `change` is against it.
    bool fromWorkbench = false;
    // Before and after are shown side by side: head edits, or the workbench's head.
    [[nodiscard]] bool compared() const { return edited() || fromWorkbench; }
};

// What a run came to: a snapshot, or a reason (English from the core, or translated here).
// "Not in this model's vocabulary, left out: “X” “Y”; became [UNK]: “Crème”" (translated),
// or empty when nothing was dropped.
QString droppedNotice(const std::vector<attn::tok::Dropped>& dropped);

struct ModelRunOutcome {
    std::shared_ptr<const ModelSnapshot> snapshot;
    bool cancelled = false;
    bool empty = false;  // the text has no tokens
    QString error;
    attn::Status status;  // the core's, when it refused the text, an edit or the run
};

// Below these a change is the float rounding of running the same numbers again, not a change:
// a head carried back from the workbench unedited differs from the model's own run by less
// than 1e-6 in a weight (5e-7 in GPT-2 small's worst head, 4.5e-8 in the tests' tiny GPT-2),
// because the workbench computes its map in double and the model in float. The floor is ten
// times that bound, and below the smallest value the change grid prints (0.0001), so no change
// that reads as one loses its colour. A next-token probability is a float softmax output too
// (1.5e-8 apart in the tiny GPT-2): the same floor, 0.001 percentage points, still shows a real
// change of "−0.004 pp" (1.2 % and 1.1 % as printed) while rounding reads as none.
inline constexpr float kAttentionNoiseFloor = 1e-5f;
inline constexpr double kProbabilityNoiseFloor = 1e-5;

// The largest change of a weight in a head (ModelSnapshot::change) is a change.
[[nodiscard]] inline bool isAttentionChange(float largest)
{
    return largest >= kAttentionNoiseFloor;
}
// A probability moved from `before` to `after`.
[[nodiscard]] inline bool isProbabilityChange(double before, double after)
{
    return std::abs(after - before) >= kProbabilityNoiseFloor;
}

// How a change of probability reads: "+2.3 pp", "−0.004 pp" (as many decimals as it takes),
// "0.0 pp" when it is no change (isProbabilityChange).
QString percentPointChange(double before, double after);

// What a run differs in between the window and the command line.
struct ModelRunSettings {
    attn::model::ProgressCallback progress;
    // An earlier run of the same model: the rows before the first changed token are reused
    // (attn::model::forwardReusing: typing at the end costs about one token's pass).
    const ModelSnapshot* previous = nullptr;
    // Head edits, applied after the unedited run (attn::model::runEdited).
    std::vector<attn::model::HeadEdit> edits;
    // The window leaves out edits of a position the text no longer has; the command line
    // refuses them (the status says which).
    bool refuseEditsOutside = false;
    // Every map whole, however long the text (the command line writes them all); the window
    // pools long decoder runs (runOptions).
    bool wholeMaps = false;
};

// Token `index` of `snapshot` for hover text and lists: its long readable form ("它 (2/3)").
QString tokenText(const ModelSnapshot& snapshot, long index);
// The same in quotation marks, with the raw bytes where the label alone hides them (a piece of
// a character, a byte that forms none): "“它 (2/3)” (bytes AE)".
QString tokenDetail(const ModelSnapshot& snapshot, long index);

// The name of a model-view map: column < heads is that head, `heads` the layer mean and
// `heads + 1` the rollout through the layer ("Layer 3, head 5"; layer and column from 0).
QString modelMapName(int layer, int column, int heads);

// The predictions of `after` with their tokens as text; with `before` (an unedited run of the
// same ids), each token's probability there too.
std::vector<ModelPrediction> guessesOf(const attn::tok::Tokenizer& tokenizer,
                                       const attn::model::ForwardResult& after,
                                       const attn::model::ForwardResult* before);
// The same from a run's predictions, with `beforeLogits` (a row per prediction) for `before`.
std::vector<ModelPrediction> guessesOf(const attn::tok::Tokenizer& tokenizer,
                                       const std::vector<attn::model::Prediction>& predictions,
                                       const attn::model::FloatMatrix* beforeLogits);

// The first half of runModelText: the tokens of `text` with their labels and what was dropped,
// no run yet. `empty` for a text without tokens; an error for one longer than the model reads.
ModelRunOutcome readText(const LoadedModel& loaded, const QString& text);
// The second half: runs the tokens of a readText() snapshot; `progress` is the forward pass's
// (core/model/forward.h), and reports once more for the aggregates.
ModelRunOutcome runTokens(const LoadedModel& loaded, ModelSnapshot read,
                          const ModelRunSettings& settings);
// The layer means and the rollout of snap.result (a pooled run: its pooled means, no rollout).
void aggregate(ModelSnapshot& snap);
// Tokenizes and runs `text`.
ModelRunOutcome runModelText(const LoadedModel& loaded, const QString& text,
                             const ModelRunSettings& settings = {});

}  // namespace attnlab
