// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/modelrun/builtin_models.h"

#include <QCoreApplication>
#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QStandardPaths>

#include "core/model/model_cache.h"
#include "ui/readers/atomic_file.h"

namespace attnlab {

namespace {

class BuiltinModelsTr {
    Q_DECLARE_TR_FUNCTIONS(attnlab::BuiltinModels)
};

const QString kPrefix = QStringLiteral("builtin:");
// The files every built-in model has; the rest of its folder (a GPT-2's merges.txt, a
// translator's SentencePiece models) is copied out with them.
const char* const kNeeded[] = {"config.json", "model.safetensors", "vocab.json", "training.json"};

QString resourceDir(const QString& name)
{
    return QStringLiteral(":/models/") + name;
}

// Where the copy of `name` lives: a folder named by a hash of the model's bytes, so that a
// newer program's model never meets an older copy.
QString cacheDir(const QString& name, const QByteArray& digest)
{
    QString base = QStandardPaths::writableLocation(QStandardPaths::CacheLocation);
    if (base.isEmpty()) base = QDir::tempPath() + QStringLiteral("/attnlab");
    return base + QStringLiteral("/models/") + name + QLatin1Char('-') +
           QString::fromLatin1(digest.toHex().left(12));
}

}  // namespace

QList<BuiltinModel> builtinModels()
{
    QList<BuiltinModel> all{
        {QStringLiteral("induction"),
         BuiltinModelsTr::tr("Induction heads (2 attention-only layers, random letters)"),
         QStringLiteral("qwertyuiopasdfghqwertyuiopasdfgh")},
        {QStringLiteral("tang"), BuiltinModelsTr::tr("Tang poems 唐诗 (trained on 300 poems)"),
         QStringLiteral("白日依山尽，黄河入海流。\n欲穷千里目，更上一层楼。")},
        {QStringLiteral("dates"),
         BuiltinModelsTr::tr("Dates translator 日期 → English (an encoder-decoder, 2 + 2 layers)"),
         QStringLiteral("二〇二六年十二月四日")}};
    QList<BuiltinModel> present;
    for (const BuiltinModel& m : all)
        if (QFileInfo::exists(resourceDir(m.name) + QStringLiteral("/config.json"))) present << m;
    return present;
}

QString builtinReference(const QString& name)
{
    return kPrefix + name;
}

QString resolveModelFolder(const QString& arg, QString& error)
{
    if (!arg.startsWith(kPrefix)) return arg;
    const QString name = arg.mid(kPrefix.size());
    QStringList names;
    for (const BuiltinModel& m : builtinModels()) names << m.name;
    if (!names.contains(name)) {
        error = BuiltinModelsTr::tr("there is no built-in model \"%1\" (there are: %2)")
                    .arg(name, names.join(QStringLiteral(", ")));
        return {};
    }
    const QStringList present = QDir(resourceDir(name)).entryList(QDir::Files, QDir::Name);
    for (const char* file : kNeeded)
        if (!present.contains(QLatin1String(file))) {
            error = BuiltinModelsTr::tr("the built-in model \"%1\" lacks %2")
                        .arg(name, QLatin1String(file));
            return {};
        }
    QCryptographicHash all(QCryptographicHash::Sha256);
    QList<QByteArray> contents;
    std::vector<std::string> fileNames;
    for (const QString& file : present) {
        QFile f(resourceDir(name) + QLatin1Char('/') + file);
        if (!f.open(QIODevice::ReadOnly)) {
            error = BuiltinModelsTr::tr("the built-in model \"%1\" lacks %2").arg(name, file);
            return {};
        }
        contents << f.readAll();
        fileNames.push_back(file.toStdString());
        all.addData(contents.back());
    }
    const QString dir = cacheDir(name, all.result());
    std::vector<attn::io::FolderFile> files;
    for (int i = 0; i < contents.size(); ++i)
        files.push_back({fileNames[static_cast<std::size_t>(i)],
                         std::string_view(contents[i].constData(),
                                          static_cast<std::size_t>(contents[i].size()))});
    const std::string path = QFile::encodeName(dir).toStdString();
    if (attn::model::cachedCopyIntact(path, files)) return dir;
    const attn::io::WriteStatus w = attn::model::writeCachedCopy(path, files);
    if (!w.ok()) {
        error = QStringLiteral("%1: %2").arg(dir, writeProblemText(w));
        return {};
    }
    return dir;
}

QString builtinNameOf(const QString& folder)
{
    const QString leaf = QFileInfo(folder).fileName();
    for (const BuiltinModel& m : builtinModels())
        if (leaf.startsWith(m.name + QLatin1Char('-')) &&
            QFileInfo(folder).absolutePath().endsWith(QStringLiteral("/models")))
            return m.name;
    return {};
}

}  // namespace attnlab
