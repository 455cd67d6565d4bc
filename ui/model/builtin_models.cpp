// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/model/builtin_models.h"

#include <QCoreApplication>
#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QStandardPaths>

#include "ui/export/numbers_export.h"

namespace attnlab {

namespace {

class BuiltinModelsTr {
    Q_DECLARE_TR_FUNCTIONS(attnlab::BuiltinModels)
};

const QString kPrefix = QStringLiteral("builtin:");
const char* const kFiles[] = {"config.json", "model.safetensors", "vocab.json", "merges.txt",
                              "training.json"};

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
         QStringLiteral("白日依山尽，黄河入海流。\n欲穷千里目，更上一层楼。")}};
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
    QCryptographicHash hash(QCryptographicHash::Sha256);
    QList<QByteArray> contents;
    for (const char* file : kFiles) {
        QFile f(resourceDir(name) + QLatin1Char('/') + QLatin1String(file));
        if (!f.open(QIODevice::ReadOnly)) {
            error = BuiltinModelsTr::tr("the built-in model \"%1\" lacks %2")
                        .arg(name, QLatin1String(file));
            return {};
        }
        contents << f.readAll();
        hash.addData(contents.back());
    }
    const QString dir = cacheDir(name, hash.result());
    if (!QDir().mkpath(dir)) {
        error = BuiltinModelsTr::tr("could not create the folder %1").arg(dir);
        return {};
    }
    for (int i = 0; i < contents.size(); ++i) {
        const QString path = dir + QLatin1Char('/') + QLatin1String(kFiles[i]);
        if (QFileInfo(path).size() == contents[i].size()) continue;
        if (!writeBytes(path, contents[i], error)) return {};
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
