#include "ui/model/model_snapshot.h"

#include <QCoreApplication>
#include <QElapsedTimer>

#include "core/model/aggregate.h"
#include "ui/model/model_grid_paint.h"

namespace attnlab {

namespace {

class Tr {
    Q_DECLARE_TR_FUNCTIONS(attnlab::ModelSnapshot)
};

}  // namespace

QString modelMapName(int layer, int column, int heads)
{
    if (column < heads) return Tr::tr("Layer %1, head %2").arg(layer + 1).arg(column + 1);
    if (column == heads) return Tr::tr("Layer %1: mean of its %2 heads").arg(layer + 1).arg(heads);
    return Tr::tr("Attention rollout through layer %1 (Abnar & Zuidema 2020)").arg(layer + 1);
}

ModelRunOutcome runModelText(const LoadedModel& loaded, const QString& text,
                             const attn::model::ProgressCallback& progress,
                             const ModelSnapshot* previous,
                             const std::vector<attn::model::HeadEdit>& edits)
{
    QElapsedTimer clock;
    clock.start();
    ModelRunOutcome outcome;
    const attn::tok::Tokenizer& tokenizer = *loaded.tokenizer;
    const attn::model::ModelConfig& config = loaded.model.config();
    auto snap = std::make_shared<ModelSnapshot>();
    snap->text = text;
    snap->tokens = tokenizer.encodeTokens(text.toStdString());
    if (snap->tokens.empty()) {
        outcome.empty = true;
        return outcome;
    }
    if (snap->tokenCount() > config.positions) {
        outcome.error = Tr::tr("The text has %1 tokens; this model reads at most %2. Shorten it.")
                            .arg(snap->tokenCount())
                            .arg(config.positions);
        return outcome;
    }
    std::vector<int> ids;
    for (const attn::tok::Token& t : snap->tokens) {
        ids.push_back(t.id);
        snap->labels << QString::fromStdString(t.label);
    }
    attn::model::ForwardOptions options;
    if (const attn::tok::BertTokenizer* bert = tokenizer.bert())
        options.maskTokenId = bert->maskId().value_or(-1);
    options.progress = progress;
    // Reuse the previous run's unedited rows (its edited ones belong to other edits).
    const attn::model::ForwardResult* reusable =
        previous ? (previous->edited() ? &previous->unedited : &previous->result) : nullptr;
    attn::model::ModelStatus s =
        reusable ? attn::model::forwardReusing(loaded.model, ids, options, *reusable, snap->result)
                 : attn::model::forward(loaded.model, ids, options, snap->result);
    for (const attn::model::HeadEdit& e : edits)
        if (e.index < snap->tokenCount()) snap->edits.push_back(e);
    if (s.ok() && snap->edited()) {
        snap->unedited = std::move(snap->result);
        s = attn::model::runEdited(loaded.model, snap->unedited, snap->edits, options,
                                   snap->result);
        snap->change = attn::model::attentionChange(snap->unedited, snap->result);
    }
    if (s.code == attn::model::ModelError::Cancelled) {
        outcome.cancelled = true;
        return outcome;
    }
    if (!s.ok()) {
        outcome.error =
            Tr::tr("The model could not run: %1").arg(QString::fromStdString(s.message));
        return outcome;
    }
    for (const attn::model::LayerTrace& layer : snap->result.layers)
        snap->averages.push_back(attn::model::headAverage(layer));
    snap->rollout = attn::model::attentionRollout(snap->averages);
    for (std::size_t k = 0; k < snap->result.predictions.size(); ++k) {
        const attn::model::Prediction& p = snap->result.predictions[k];
        ModelPrediction row;
        row.position = p.position;
        for (const attn::model::TokenProbability& t : p.top) {
            const attn::tok::Token token = tokenizer.token(t.id);
            // With edits, the unedited run's logits of the same prediction (same row k).
            const double before =
                snap->edited()
                    ? attn::model::tokenProbability(
                          snap->unedited.logits.row(static_cast<long>(k)).transpose(), t.id)
                    : t.probability;
            row.top.push_back({QString::fromStdString(token.text),
                               QString::fromStdString(token.label), t.id,
                               static_cast<double>(t.probability), before});
        }
        snap->predictions.push_back(std::move(row));
    }
    if (progress && !progress(snap->layers() + 1, snap->layers() + 1)) {
        outcome.cancelled = true;
        return outcome;
    }
    snap->thumbnails = modelGridImages(*snap, kModelThumbnailPixels);
    snap->milliseconds = static_cast<double>(clock.nsecsElapsed()) / 1e6;
    outcome.snapshot = std::move(snap);
    return outcome;
}

}  // namespace attnlab
