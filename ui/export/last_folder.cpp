// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/export/last_folder.h"

#include <QDir>
#include <QFileInfo>
#include <QSettings>
#include <QStandardPaths>

namespace attnlab {

namespace {
const QString kKey = QStringLiteral("files/lastFolder");
}  // namespace

QString lastFolder()
{
    const QString saved = QSettings().value(kKey).toString();
    if (!saved.isEmpty() && QFileInfo(saved).isDir()) return saved;
    const QString documents = QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation);
    return !documents.isEmpty() && QFileInfo(documents).isDir() ? documents : QDir::homePath();
}

void rememberFolderOf(const QString& path)
{
    if (path.isEmpty()) return;
    const QFileInfo info(path);
    const QString folder = info.isDir() ? info.absoluteFilePath() : info.absolutePath();
    QSettings().setValue(kKey, folder);
}

QString inLastFolder(const QString& fileName)
{
    return QDir(lastFolder()).filePath(fileName);
}

}  // namespace attnlab
