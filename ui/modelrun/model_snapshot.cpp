// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/modelrun/model_snapshot.h"

#include <algorithm>
#include <cmath>

#include <QCoreApplication>
#include <QElapsedTimer>

#include "core/model/aggregate.h"
#include "ui/readers/status_text.h"

namespace attnlab {

namespace {

class ModelSnapshotTr {
    Q_DECLARE_TR_FUNCTIONS(attnlab::ModelSnapshot)
};

}  // namespace

QString tokenText(const ModelSnapshot& snapshot, long index)
{
    if (index < 0 || index >= static_cast<long>(snapshot.display.size()))
        return snapshot.labels.value(static_cast<qsizetype>(index));
    return QString::fromStdString(snapshot.display[static_cast<std::size_t>(index)].text);
}

QString tokenDetail(const ModelSnapshot& snapshot, long index)
{
    const QString quoted = ModelSnapshotTr::tr("“%1”").arg(tokenText(snapshot, index));
    if (index < 0 || index >= static_cast<long>(snapshot.display.size())) return quoted;
    const attn::tok::TokenDisplay& d = snapshot.display[static_cast<std::size_t>(index)];
    const bool hidden = d.split || d.cutOff || d.label.find('<') != std::string::npos;
    if (!hidden || d.bytes.empty()) return quoted;
    return ModelSnapshotTr::tr("%1 (bytes %2)").arg(quoted, QString::fromStdString(d.bytes));
}

QString modelMapName(int layer, int column, int heads)
{
    if (column < heads)
        return ModelSnapshotTr::tr("Layer %1, head %2").arg(layer + 1).arg(column + 1);
    if (column == heads)
        return ModelSnapshotTr::tr("Layer %1: mean of its %2 heads").arg(layer + 1).arg(heads);
    return ModelSnapshotTr::tr("Attention rollout through layer %1 (Abnar & Zuidema 2020)")
        .arg(layer + 1);
}

namespace {

// The typing cache (the attention input and [Q | K | V] of every layer) is kept while it
// fits in this: 8,192 tokens of Qwen3-0.6B would take 5.6 GB of it, 4,096 of SmolLM2-135M 1 GB.
constexpr double kTypingCacheBytes = 3.0 * (1 << 30);

bool typingCacheFits(const attn::model::ModelConfig& c, long n)
{
    const double perToken =
        static_cast<double>(2 * c.width + (c.heads + 2 * std::max(1L, c.kvHeads)) * c.headDim());
    return static_cast<double>(c.layers) * static_cast<double>(n) * perToken * 4.0 <=
           kTypingCacheBytes;
}

}  // namespace

std::vector<ModelPrediction> guessesOf(const attn::tok::Tokenizer& tokenizer,
                                       const std::vector<attn::model::Prediction>& predictions,
                                       const attn::model::FloatMatrix* beforeLogits)
{
    std::vector<ModelPrediction> out;
    for (std::size_t k = 0; k < predictions.size(); ++k) {
        const attn::model::Prediction& p = predictions[k];
        ModelPrediction row;
        row.position = p.position;
        for (const attn::model::TokenProbability& t : p.top) {
            const attn::tok::Token token = tokenizer.token(t.id);
            const attn::tok::TokenDisplay shown = tokenizer.display({t.id}).front();
            // The unedited run's logits of the same prediction (the same row k).
            const double was =
                beforeLogits != nullptr && static_cast<long>(k) < beforeLogits->rows()
                    ? attn::model::tokenProbability(
                          beforeLogits->row(static_cast<long>(k)).transpose(), t.id)
                    : t.probability;
            // A piece that only starts a character cannot show it: its bytes, and "…" for the
            // rest the next token would bring.
            QString label = QString::fromStdString(shown.label);
            if (shown.cutOff) label += QChar(0x2026);
            row.top.push_back({QString::fromStdString(token.text), label, shown.cutOff, t.id,
                               static_cast<double>(t.probability), was});
        }
        out.push_back(std::move(row));
    }
    return out;
}

std::vector<ModelPrediction> guessesOf(const attn::tok::Tokenizer& tokenizer,
                                       const attn::model::ForwardResult& after,
                                       const attn::model::ForwardResult* before)
{
    return guessesOf(tokenizer, after.predictions, before != nullptr ? &before->logits : nullptr);
}

QString droppedNotice(const std::vector<attn::tok::Dropped>& dropped)
{
    // At most a dozen of each, in the order of the text, each once.
    constexpr int kShown = 12;
    QStringList omitted, unknown;
    int more = 0;
    for (const attn::tok::Dropped& d : dropped) {
        QStringList& list = d.fate == attn::tok::Dropped::Fate::Unknown ? unknown : omitted;
        const QString quoted = QStringLiteral("“%1”").arg(QString::fromStdString(d.text));
        if (list.contains(quoted)) continue;
        if (list.size() < kShown)
            list << quoted;
        else
            ++more;
    }
    QStringList parts;
    if (!omitted.isEmpty())
        parts << ModelSnapshotTr::tr("not in this model's vocabulary, left out: %1")
                     .arg(omitted.join(QLatin1Char(' ')));
    if (!unknown.isEmpty())
        parts << ModelSnapshotTr::tr("read as the unknown token: %1")
                     .arg(unknown.join(QLatin1Char(' ')));
    if (more > 0) parts << ModelSnapshotTr::tr("and %n more", nullptr, more);
    if (parts.isEmpty()) return {};
    return ModelSnapshotTr::tr("Some of the text has no token of its own: %1.")
        .arg(parts.join(QStringLiteral("; ")));
}

QString percentPointChange(double before, double after)
{
    if (!isProbabilityChange(before, after))
        return QCoreApplication::translate("attnlab::PredictionsPanel", "%1 pp")
            .arg(QStringLiteral("0.0"));
    // One decimal, more while the difference would round to zero (at most three above the
    // noise floor of 0.001 points).
    const double change = (after - before) * 100.0;
    int decimals = 1;
    while (std::round(std::abs(change) * std::pow(10.0, decimals)) == 0.0) ++decimals;
    const QString sign = change > 0 ? QStringLiteral("+") : QString(QChar(0x2212));
    return QCoreApplication::translate("attnlab::PredictionsPanel", "%1 pp")
        .arg(sign + QString::number(std::abs(change), 'f', decimals));
}

ModelRunOutcome readText(const LoadedModel& loaded, const QString& text)
{
    QElapsedTimer clock;
    clock.start();
    ModelRunOutcome outcome;
    const attn::tok::Tokenizer& tokenizer = *loaded.tokenizer;
    const attn::model::ModelConfig& config = loaded.model.config();
    auto snap = std::make_shared<ModelSnapshot>();
    snap->text = text;
    snap->groupSize = static_cast<int>(std::max(1L, config.groupSize()));
    attn::tok::Encoded encoded = tokenizer.encodeReported(text.toStdString());
    if (!encoded.status.ok()) {
        outcome.status = encoded.status;
        outcome.error = statusMessage(encoded.status);
        return outcome;
    }
    snap->tokens = std::move(encoded.tokens);
    snap->dropped = std::move(encoded.dropped);
    if (snap->tokens.empty()) {
        outcome.empty = true;
        outcome.status = attn::failure(attn::StatusCode::EmptyInput, "", "ids", "no tokens to run");
        return outcome;
    }
    if (snap->tokenCount() > config.positions) {
        outcome.status = attn::failure(attn::StatusCode::TooLong, "", "ids",
                                       "more tokens than the model has positions");
        outcome.status.value = snap->tokenCount();
        outcome.status.limit = config.positions;
        outcome.error =
            ModelSnapshotTr::tr("The text has %1 tokens; this model reads at most %2. Shorten it.")
                .arg(snap->tokenCount())
                .arg(config.positions);
        return outcome;
    }
    std::vector<int> ids;
    for (const attn::tok::Token& t : snap->tokens) ids.push_back(t.id);
    snap->display = tokenizer.display(ids);
    for (const attn::tok::TokenDisplay& d : snap->display)
        snap->labels << QString::fromStdString(d.label);
    snap->milliseconds = static_cast<double>(clock.nsecsElapsed()) / 1e6;
    outcome.snapshot = std::move(snap);
    return outcome;
}

namespace {

// The edits `settings` asks for that the text has room for; refused (status) with
// refuseEditsOutside when one has none.
attn::Status keptEdits(const LoadedModel& loaded, const ModelRunSettings& settings, long n,
                       std::vector<attn::model::HeadEdit>& kept)
{
    if (settings.refuseEditsOutside) {
        if (attn::Status s = attn::model::checkEdits(loaded.model, n, settings.edits); !s.ok())
            return s;
        kept = settings.edits;
        return {};
    }
    for (const attn::model::HeadEdit& e : settings.edits)
        if (e.index < n) kept.push_back(e);
    return {};
}

}  // namespace

void aggregate(ModelSnapshot& snap)
{
    if (snap.pooled()) {
        // Rollout multiplies every layer's whole map (n^3 each): a pooled run has none.
        for (const attn::model::LayerTrace& layer : snap.result.layers)
            snap.averages.push_back(attn::model::pooledHeadAverage(layer).cells);
    } else {
        for (const attn::model::LayerTrace& layer : snap.result.layers)
            snap.averages.push_back(attn::model::headAverage(layer));
        snap.rollout = attn::model::attentionRollout(snap.averages);
    }
}

ModelRunOutcome runTokens(const LoadedModel& loaded, ModelSnapshot read,
                          const ModelRunSettings& settings)
{
    QElapsedTimer clock;
    clock.start();
    ModelRunOutcome outcome;
    auto snap = std::make_shared<ModelSnapshot>(std::move(read));
    const attn::model::ModelConfig& config = loaded.model.config();
    std::vector<int> ids;
    for (const attn::tok::Token& t : snap->tokens) ids.push_back(t.id);
    attn::model::ForwardOptions options = runOptions(loaded, settings.wholeMaps);
    options.progress = settings.progress;
    // The next keystroke reuses this run's rows, where keeping them fits.
    options.keepTypingCache = !settings.wholeMaps && typingCacheFits(config, snap->tokenCount());
    // Reuse the previous run's unedited rows (its edited ones belong to other edits).
    const ModelSnapshot* previous = settings.previous;
    const attn::model::ForwardResult* reusable =
        previous ? (previous->edited() ? &previous->unedited : &previous->result) : nullptr;
    attn::Status s = keptEdits(loaded, settings, snap->tokenCount(), snap->edits);
    if (s.ok())
        s = reusable
                ? attn::model::forwardReusing(loaded.model, ids, options, *reusable, snap->result)
                : attn::model::forward(loaded.model, ids, options, snap->result);
    if (s.ok() && snap->edited()) {
        snap->unedited = std::move(snap->result);
        s = attn::model::runEdited(loaded.model, snap->unedited, snap->edits, options,
                                   snap->result);
        snap->change = attn::model::attentionChange(snap->unedited, snap->result);
    }
    outcome.status = s;
    if (s.code == attn::StatusCode::Cancelled) {
        outcome.cancelled = true;
        return outcome;
    }
    if (!s.ok()) {
        outcome.error = ModelSnapshotTr::tr("The model could not run: %1").arg(statusMessage(s));
        return outcome;
    }
    aggregate(*snap);
    snap->predictions =
        guessesOf(*loaded.tokenizer, snap->result, snap->edited() ? &snap->unedited : nullptr);
    if (settings.progress && !settings.progress(snap->layers() + 1, snap->layers() + 1)) {
        outcome.cancelled = true;
        return outcome;
    }
    // Reading the text took the time readText() put here; the run adds its own.
    snap->milliseconds += static_cast<double>(clock.nsecsElapsed()) / 1e6;
    outcome.snapshot = std::move(snap);
    return outcome;
}

ModelRunOutcome runModelText(const LoadedModel& loaded, const QString& text,
                             const ModelRunSettings& settings)
{
    ModelRunOutcome read = readText(loaded, text);
    if (!read.snapshot) return read;
    return runTokens(loaded, *read.snapshot, settings);
}

}  // namespace attnlab

namespace attnlab {

bool WrittenTokens::leadsTo(const WrittenTokens& other) const
{
    if (seed != other.seed || steps.size() > other.steps.size()) return false;
    for (std::size_t i = 0; i < steps.size(); ++i) {
        const attn::model::SamplingSettings& a = steps[i];
        const attn::model::SamplingSettings& b = other.steps[i];
        if (a.temperature != b.temperature || a.topK != b.topK || a.topP != b.topP ||
            a.repetitionPenalty != b.repetitionPenalty || a.badWords != b.badWords)
            return false;
    }
    return true;
}

bool WrittenTokens::operator==(const WrittenTokens& other) const
{
    return steps.size() == other.steps.size() && leadsTo(other);
}

}  // namespace attnlab
