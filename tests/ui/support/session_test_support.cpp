// SPDX-License-Identifier: GPL-3.0-or-later
#include "support/session_test_support.h"

#include <gtest/gtest.h>

#include <QDir>
#include <QFile>
#include <QSettings>
#include <QTemporaryDir>

#include "ui/readers/lesson_catalog.h"
#include "ui/readers/session_file.h"

namespace attnlab::testing {

void isolateSettings()
{
    static QTemporaryDir dir;
    QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, dir.path());
    QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, dir.path());
}

FileDialogs RecordingDialogs::dialogs()
{
    FileDialogs d;
    d.ask = [this](const QString&, const QString& text, QMessageBox::StandardButtons) {
        questions << text;
        return answer;
    };
    d.warn = [this](const QString&, const QString& text) { warnings << text; };
    d.openPath = [](const QString&) { return QString(); };
    d.savePath = [this](const QString&) { return savePath; };
    return d;
}

Session tokenSession(int n)
{
    Session s;
    s.dModel = 16;
    for (int i = 1; i <= n; ++i) s.targetTokens << QStringLiteral("t%1").arg(i);
    s.input.X = embeddingsFor(s.targetTokens, {}, attn::Matrix(), s.dModel, 3);
    randomiseProjections(s, 1, 16, 16, 3);
    return s;
}

QString plantOrphan(const QString& dir, const QString& id, const Session& s, const QString& source)
{
    QDir().mkpath(dir);
    const QString path = QDir(dir).filePath(QStringLiteral("autosave-%1.attnlab.json").arg(id));
    FileError error;
    if (!writeSessionFile(path, SessionFile{s, {}}, error)) return {};
    writeBytes(dir, QStringLiteral("autosave-%1.source").arg(id), source.toUtf8());
    return path;
}

Session lessonSession(const char* id)
{
    Session s;
    ViewState view;
    FileError error;
    EXPECT_TRUE(loadLesson(QLatin1String(id), s, view, error)) << error.message().toStdString();
    return s;
}

}  // namespace attnlab::testing
