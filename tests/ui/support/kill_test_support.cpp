// SPDX-License-Identifier: GPL-3.0-or-later
#include "support/kill_test_support.h"

#include <QDeadlineTimer>
#include <QDir>
#include <QFileInfo>
#include <QProcess>
#include <QThread>

#include "ui/io/autosave.h"

namespace attnlab::testing {

QString attnlabBinary()
{
    const QString env = qEnvironmentVariable("ATTNLAB_BINARY");
    if (!env.isEmpty()) return env;
    return QStringLiteral(ATTNLAB_BINARY);
}

::testing::AssertionResult attnlabBuilt()
{
    const QString binary = attnlabBinary();
    if (QFileInfo(binary).isExecutable()) return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure()
           << "no attnlab program at " << binary.toStdString()
           << ": build the attnlab target (ui_tests depends on it), or set ATTNLAB_BINARY";
}

bool waitForFile(const QString& path, int ms, bool present)
{
    QDeadlineTimer deadline(ms);
    while (QFileInfo::exists(path) != present) {
        if (deadline.hasExpired()) return false;
        QThread::msleep(50);
    }
    return true;
}

KillRestart killAndRestart(const QString& recovery, const QString& planted, const QString& home,
                           int ms)
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    env.insert(QStringLiteral("ATTNLAB_RECOVERY_DIR"), recovery);
    env.insert(QStringLiteral("ATTNLAB_AUTOSAVE_MS"), QStringLiteral("100"));
    env.insert(QStringLiteral("XDG_CONFIG_HOME"), QDir(home).filePath(QStringLiteral("config")));
    env.insert(QStringLiteral("XDG_DATA_HOME"), QDir(home).filePath(QStringLiteral("data")));
    const auto start = [&](QProcess& p) {
        p.setProcessEnvironment(env);
        p.setProcessChannelMode(QProcess::ForwardedErrorChannel);
        p.start(attnlabBinary(), {QStringLiteral("--recover")});
        return p.waitForStarted(10000);
    };
    const auto fileOf = [&](const QProcess& p) {
        return QDir(recovery).filePath(
            QStringLiteral("autosave-%1.attnlab.json").arg(p.processId()));
    };

    KillRestart out;
    QProcess first;
    if (!start(first)) return {QStringLiteral("the first program did not start"), {}, {}};
    out.firstFile = fileOf(first);
    if (!waitForFile(out.firstFile, ms))
        out.failure = QStringLiteral("the running program never autosaved");
    // The program writes its own copy first and drops the one it restored from after.
    else if (!waitForFile(planted, ms, false))
        out.failure = QStringLiteral("the restored orphan was kept");
    first.kill();  // SIGKILL: no destructor, no clean-up
    if (!first.waitForFinished(10000) && out.failure.isEmpty())
        out.failure = QStringLiteral("the killed program did not end");
    if (!out.failure.isEmpty()) return out;
    const QList<Autosave::Orphan> orphans = Autosave::findOrphans(recovery);
    if (!QFileInfo::exists(out.firstFile) || orphans.size() != 1 ||
        orphans.front().sessionPath != out.firstFile) {
        out.failure = QStringLiteral("the killed program's file is not the one orphan");
        return out;
    }

    QProcess second;
    if (!start(second)) return {QStringLiteral("the second program did not start"), {}, {}};
    out.secondFile = fileOf(second);
    if (!waitForFile(out.secondFile, ms))
        out.failure = QStringLiteral("the second program restored nothing");
    else if (!waitForFile(out.firstFile, ms, false))
        out.failure = QStringLiteral("the first program's file was kept");
    second.kill();
    second.waitForFinished(10000);
    return out;
}

}  // namespace attnlab::testing
