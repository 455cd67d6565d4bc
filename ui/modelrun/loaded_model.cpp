// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/modelrun/loaded_model.h"

#include <QCryptographicHash>
#include <QFile>

#include "ui/readers/bounded_read.h"
#include "ui/readers/status_text.h"

namespace attnlab {

namespace {

// The cap core/model/safetensors.cpp opens a checkpoint under (1 TiB): a file as large as it
// maps can be hashed.
constexpr qint64 kMaxCheckpointBytes = qint64{1} << 40;

}  // namespace

QString LoadedModel::sha256() const
{
    const std::lock_guard<std::mutex> lock(shaMutex_);
    if (!shaDone_) {
        QString unreadable;  // the hash stays empty, as loaded_model.h says
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

std::shared_ptr<const LoadedModel> loadModelFolder(const QString& folder, attn::Status& problem)
{
    auto loaded = std::make_shared<LoadedModel>();
    const std::string native = QFile::encodeName(folder).toStdString();
    problem = attn::model::Model::load(native, loaded->model);
    if (!problem.ok()) return nullptr;
    auto tokenizer = attn::tok::loadTokenizer(native, loaded->model.config().modelType,
                                              loaded->model.config().vocab);
    if (const auto* e = std::get_if<attn::Status>(&tokenizer)) {
        problem = *e;
        return nullptr;
    }
    loaded->tokenizer = std::make_unique<attn::tok::Tokenizer>(
        std::move(std::get<attn::tok::Tokenizer>(tokenizer)));
    return loaded;
}

std::shared_ptr<const LoadedModel> loadModelFolder(const QString& folder, QString& error)
{
    attn::Status problem;
    std::shared_ptr<const LoadedModel> loaded = loadModelFolder(folder, problem);
    if (!loaded) error = statusMessage(problem);
    return loaded;
}

long modelPoolAbove()
{
    bool ok = false;
    const long set = qEnvironmentVariable("ATTNLAB_POOL_ABOVE").toLong(&ok);
    return ok && set > 0 ? set : kModelPoolAbove;
}

attn::model::ForwardOptions runOptions(const LoadedModel& loaded, bool wholeMaps)
{
    attn::model::ForwardOptions options;
    if (const attn::tok::BertTokenizer* bert = loaded.tokenizer->bert())
        options.maskTokenId = bert->maskId().value_or(-1);
    if (!wholeMaps) {
        options.poolAbove = modelPoolAbove();
        options.poolSide = kModelPoolSide;
    }
    return options;
}

attn::Status detectHeadsOf(const LoadedModel& loaded, attn::model::DetectSpec spec,
                           attn::HeadScoreTable& table,
                           const attn::model::ProgressCallback& progress)
{
    if (loaded.tokenizer)
        spec.candidates =
            attn::tok::ordinaryTokenIds(*loaded.tokenizer, loaded.model.config().vocab);
    return attn::model::detectHeads(loaded.model, spec, table, progress);
}

}  // namespace attnlab
