// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/model/model_snapshot.h"

#include <algorithm>

#include <QCoreApplication>
#include <QCryptographicHash>
#include <QElapsedTimer>
#include <QFile>

#include "core/model/aggregate.h"
#include "ui/model/model_grid_paint.h"
#include "ui/readers/bounded_read.h"
#include "ui/readers/status_text.h"

namespace attnlab {

namespace {

class ModelSnapshotTr {
    Q_DECLARE_TR_FUNCTIONS(attnlab::ModelSnapshot)
};

// The cap core/model/safetensors.cpp opens a checkpoint under (1 TiB): a file as large as it
// maps can be hashed.
constexpr qint64 kMaxCheckpointBytes = qint64{1} << 40;

}  // namespace

QString LoadedModel::sha256() const
{
    const std::lock_guard<std::mutex> lock(shaMutex_);
    if (!shaDone_) {
        QString unreadable;  // the hash stays empty, as model_snapshot.h says
        sha_ = fileSha256(QString::fromStdString(model.file().path()), unreadable);
        shaDone_ = true;
    }
    return sha_;
}

void LoadedModel::prefetchSha256(const std::atomic<bool>& stop) const
{
    const std::lock_guard<std::mutex> lock(shaMutex_);
    if (shaDone_) return;
    QString unreadable;
    const QString sha = fileSha256(QString::fromStdString(model.file().path()), unreadable, &stop);
    if (stop.load()) return;
    sha_ = sha;
    shaDone_ = true;
}

QString fileSha256(const QString& path, QString& problem, const std::atomic<bool>* stop)
{
    problem.clear();
    QCryptographicHash hash(QCryptographicHash::Sha256);
    bool stopped = false;
    const auto add = [&](QByteArrayView piece) {
        if (stop && stop->load()) {
            stopped = true;
            return false;
        }
        hash.addData(piece);
        return true;
    };
    if (!readUserFileInPieces(path, kMaxCheckpointBytes, add, problem) || stopped) return {};
    return QString::fromLatin1(hash.result().toHex());
}

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

std::shared_ptr<const LoadedModel> loadModelFolder(const QString& folder, QString& error)
{
    auto loaded = std::make_shared<LoadedModel>();
    const std::string native = QFile::encodeName(folder).toStdString();
    if (const attn::Status s = attn::model::Model::load(native, loaded->model); !s.ok()) {
        error = statusMessage(s);
        return nullptr;
    }
    auto tokenizer = attn::tok::loadTokenizer(native, loaded->model.config().modelType,
                                              loaded->model.config().vocab);
    if (const auto* e = std::get_if<attn::Status>(&tokenizer)) {
        error = statusMessage(*e);
        return nullptr;
    }
    loaded->tokenizer = std::make_unique<attn::tok::Tokenizer>(
        std::move(std::get<attn::tok::Tokenizer>(tokenizer)));
    return loaded;
}

long modelPoolAbove()
{
    bool ok = false;
    const long set = qEnvironmentVariable("ATTNLAB_POOL_ABOVE").toLong(&ok);
    return ok && set > 0 ? set : kModelPoolAbove;
}

attn::model::ForwardOptions runOptions(const LoadedModel& loaded)
{
    attn::model::ForwardOptions options;
    if (const attn::tok::BertTokenizer* bert = loaded.tokenizer->bert())
        options.maskTokenId = bert->maskId().value_or(-1);
    options.poolAbove = modelPoolAbove();
    options.poolSide = kModelPoolSide;
    return options;
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
                                       const attn::model::ForwardResult& after,
                                       const attn::model::ForwardResult* before)
{
    std::vector<ModelPrediction> out;
    for (std::size_t k = 0; k < after.predictions.size(); ++k) {
        const attn::model::Prediction& p = after.predictions[k];
        ModelPrediction row;
        row.position = p.position;
        for (const attn::model::TokenProbability& t : p.top) {
            const attn::tok::Token token = tokenizer.token(t.id);
            const attn::tok::TokenDisplay shown = tokenizer.display({t.id}).front();
            // The unedited run's logits of the same prediction (the same row k).
            const double was = before != nullptr && static_cast<long>(k) < before->logits.rows()
                                   ? attn::model::tokenProbability(
                                         before->logits.row(static_cast<long>(k)).transpose(), t.id)
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
    snap->groupSize = static_cast<int>(std::max(1L, config.groupSize()));
    attn::tok::Encoded encoded = tokenizer.encodeReported(text.toStdString());
    if (!encoded.status.ok()) {
        outcome.error = statusMessage(encoded.status);
        return outcome;
    }
    snap->tokens = std::move(encoded.tokens);
    snap->dropped = std::move(encoded.dropped);
    if (snap->tokens.empty()) {
        outcome.empty = true;
        return outcome;
    }
    if (snap->tokenCount() > config.positions) {
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
    attn::model::ForwardOptions options = runOptions(loaded);
    options.progress = progress;
    // The next keystroke reuses this run's rows, where keeping them fits.
    options.keepTypingCache = typingCacheFits(config, snap->tokenCount());
    // Reuse the previous run's unedited rows (its edited ones belong to other edits).
    const attn::model::ForwardResult* reusable =
        previous ? (previous->edited() ? &previous->unedited : &previous->result) : nullptr;
    attn::Status s =
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
    if (s.code == attn::StatusCode::Cancelled) {
        outcome.cancelled = true;
        return outcome;
    }
    if (!s.ok()) {
        outcome.error = ModelSnapshotTr::tr("The model could not run: %1").arg(statusMessage(s));
        return outcome;
    }
    if (snap->pooled()) {
        // Rollout multiplies every layer's whole map (n^3 each): a pooled run has none.
        for (const attn::model::LayerTrace& layer : snap->result.layers)
            snap->averages.push_back(attn::model::pooledHeadAverage(layer).cells);
    } else {
        for (const attn::model::LayerTrace& layer : snap->result.layers)
            snap->averages.push_back(attn::model::headAverage(layer));
        snap->rollout = attn::model::attentionRollout(snap->averages);
    }
    snap->predictions =
        guessesOf(tokenizer, snap->result, snap->edited() ? &snap->unedited : nullptr);
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
