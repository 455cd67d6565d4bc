// SPDX-License-Identifier: GPL-3.0-or-later
#include "support/cli_test_support.h"

#include <gtest/gtest.h>

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QProcess>
#include <QProcessEnvironment>
#include <QTemporaryDir>

namespace attnlab::test {

QJsonObject readJsonFile(const QString& path)
{
    QFile f(path);
    EXPECT_TRUE(f.open(QIODevice::ReadOnly)) << path.toStdString();
    return QJsonDocument::fromJson(f.readAll()).object();
}

namespace {

// A fontconfig configuration that reads the system's but writes its cache into a folder of its
// own. A program whose address space is limited cannot map the font files, finds no fonts in
// their folders and, run as root, writes that finding into the system's cache, which then counts
// as current: every later program, the layout tests among them, sees no font at all.
QString privateFontCacheConfig()
{
    static QTemporaryDir dir;
    static const QString file = [] {
        const QString path = dir.filePath(QStringLiteral("fonts.conf"));
        QFile f(path);
        if (f.open(QIODevice::WriteOnly))
            f.write(
                QStringLiteral("<?xml version=\"1.0\"?>\n<fontconfig>\n"
                               "  <cachedir>%1</cachedir>\n"
                               "  <include ignore_missing=\"yes\">/etc/fonts/fonts.conf</include>\n"
                               "</fontconfig>\n")
                    .arg(dir.filePath(QStringLiteral("cache")))
                    .toUtf8());
        return path;
    }();
    return file;
}

CliRun run(const QString& program, const QStringList& args, bool privateFontCache = false)
{
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    if (privateFontCache) env.insert(QStringLiteral("FONTCONFIG_FILE"), privateFontCacheConfig());
    env.remove(QStringLiteral("QT_QPA_PLATFORM"));
    env.remove(QStringLiteral("DISPLAY"));
    env.remove(QStringLiteral("WAYLAND_DISPLAY"));
    p.setProcessEnvironment(env);
    p.start(program, args);
    CliRun r;
    if (!p.waitForFinished(60000)) return r;
    r.code = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -2;
    r.out = p.readAllStandardOutput();
    r.err = QString::fromUtf8(p.readAllStandardError());
    return r;
}

}  // namespace

CliRun runAttnlab(const QStringList& args)
{
    return run(QStringLiteral(ATTNLAB_BINARY), args);
}

CliRun runAttnlabWithAddressLimit(qint64 kib, const QStringList& args)
{
    return run(QStringLiteral("/bin/sh"),
               QStringList{QStringLiteral("-c"),
                           QStringLiteral("ulimit -v %1 && exec \"$0\" \"$@\"").arg(kib),
                           QStringLiteral(ATTNLAB_BINARY)} +
                   args,
               true);
}

CliRun runAttnlabScript(const QString& script)
{
    return run(QStringLiteral("/bin/sh"),
               QStringList{QStringLiteral("-c"), script, QStringLiteral(ATTNLAB_BINARY)});
}

qint64 attnlabAddressBaseline(const QStringList& args)
{
    qint64 low = 0, high = qint64{8} << 20;  // KiB: fails at low, succeeds at high
    if (runAttnlabWithAddressLimit(high, args).code != 0) return -1;
    while (high - low > 4096) {
        const qint64 mid = (low + high) / 2;
        if (runAttnlabWithAddressLimit(mid, args).code == 0)
            high = mid;
        else
            low = mid;
    }
    return high;
}

}  // namespace attnlab::test
