// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/io/autosave.h"

#include <atomic>
#include <sys/file.h>

#include <QCoreApplication>
#include <QDir>
#include <QRegularExpression>
#include <QStandardPaths>

#include "ui/document/document.h"
#include "ui/readers/atomic_file.h"
#include "ui/readers/bounded_read.h"

namespace attnlab {

namespace {

QString baseName(const QString& dir, const AutosaveKind& kind, const QString& id)
{
    return QDir(dir).filePath(kind.prefix + QLatin1Char('-') + id);
}

QString newId(const AutosaveKind& kind)
{
    const QString pid = QString::number(QCoreApplication::applicationPid());
    if (!kind.numbered) return pid;
    static std::atomic<int> next{1};
    return pid + QLatin1Char('-') + QString::number(next++);
}

// The recovery file's path without its kind's suffix.
QString orphanBase(const Autosave::Orphan& orphan)
{
    return orphan.sessionPath.chopped(orphan.suffix.size());
}

}  // namespace

AutosaveKind AutosaveKind::workbench()
{
    return {QStringLiteral("autosave"), QStringLiteral(".attnlab.json"), false, true};
}

AutosaveKind AutosaveKind::model()
{
    return {QStringLiteral("model"), QStringLiteral(".attnlab-model.json"), true, false};
}

AutosaveKind AutosaveKind::translator()
{
    return {QStringLiteral("translator"), QStringLiteral(".attnlab-translator.json"), true, false};
}

Autosave::Autosave(Document* doc, Snapshot snapshot, QObject* parent)
    : Autosave(
          AutosaveKind::workbench(), [doc] { return !doc->undoStack()->isClean(); },
          [snapshot = std::move(snapshot)](const QString& path, QString& error) {
              FileError e;
              if (writeSessionFile(path, snapshot(), e)) return true;
              error = e.message();
              return false;
          },
          parent)
{
    connect(doc->undoStack(), &QUndoStack::indexChanged, this, &Autosave::changed);
    connect(doc->undoStack(), &QUndoStack::cleanChanged, this, &Autosave::changed);
}

Autosave::Autosave(AutosaveKind kind, HasWork hasWork, Writer write, QObject* parent)
    : QObject(parent),
      kind_(std::move(kind)),
      id_(newId(kind_)),
      hasWork_(std::move(hasWork)),
      write_(std::move(write)),
      dir_(defaultDirectory())
{
    bool ok = false;
    const int ms = qEnvironmentVariableIntValue("ATTNLAB_AUTOSAVE_MS", &ok);
    timer_.setInterval(ok && ms > 0 ? ms : 5000);
    timer_.setSingleShot(true);
    connect(&timer_, &QTimer::timeout, this, &Autosave::writeNow);
}

Autosave::~Autosave()
{
    discard();
    if (lock_.isOpen()) {
        lock_.close();
        QFile::remove(lock_.fileName());
    }
}

QString Autosave::defaultDirectory()
{
    const QString env = qEnvironmentVariable("ATTNLAB_RECOVERY_DIR");
    if (!env.isEmpty()) return env;
    return QDir(QStandardPaths::writableLocation(QStandardPaths::AppDataLocation))
        .filePath(QStringLiteral("recovery"));
}

void Autosave::setDirectory(const QString& dir)
{
    discard();
    if (lock_.isOpen()) {
        const QString old = lock_.fileName();
        lock_.close();
        QFile::remove(old);
    }
    dir_ = dir;
    changed();
}

void Autosave::setSourceFile(const QString& path)
{
    source_ = path;
}

QString Autosave::base() const
{
    return baseName(dir_, kind_, id_);
}

QString Autosave::recoveryPath() const
{
    return base() + kind_.suffix;
}

void Autosave::changed()
{
    if (!hasWork_()) {
        timer_.stop();
        discard();
    } else if (!timer_.isActive()) {
        timer_.start();
    }
}

bool Autosave::holdLock()
{
    if (lock_.isOpen()) return true;
    if (!QDir().mkpath(dir_)) return false;
    lock_.setFileName(base() + QStringLiteral(".lock"));
    if (!lock_.open(QIODevice::ReadWrite)) return false;
    if (::flock(lock_.handle(), LOCK_EX | LOCK_NB) != 0) {
        lock_.close();
        return false;
    }
    return true;
}

bool Autosave::writeNow()
{
    if (!hasWork_() || !holdLock()) return false;
    if (QString error; !write_(recoveryPath(), error)) {
        qWarning("autosave: %s", qUtf8Printable(error));
        return false;
    }
    if (QString problem;
        kind_.keepsSource &&
        !writeFileAtomically(base() + QStringLiteral(".source"), source_.toUtf8(), problem))
        qWarning("autosave: %s", qUtf8Printable(problem));
    Q_EMIT written(recoveryPath());
    return true;
}

void Autosave::discard()
{
    QFile::remove(recoveryPath());
    QFile::remove(base() + QStringLiteral(".source"));
}

QList<Autosave::Orphan> Autosave::findOrphans(const QString& dir, const AutosaveKind& kind)
{
    removeStaleLocks(dir, kind);
    const QRegularExpression name(QStringLiteral("^%1-(\\d+%2)%3$")
                                      .arg(QRegularExpression::escape(kind.prefix),
                                           kind.numbered ? QStringLiteral("-\\d+") : QString(),
                                           QRegularExpression::escape(kind.suffix)));
    QList<Orphan> out;
    const QFileInfoList files = QDir(dir).entryInfoList(
        {kind.prefix + QStringLiteral("-*") + kind.suffix}, QDir::Files, QDir::Time);
    for (const QFileInfo& info : files) {
        const QRegularExpressionMatch m = name.match(info.fileName());
        if (!m.hasMatch()) continue;
        const QString id = m.captured(1);
        // A lock that can be taken belongs to no running process. Our own lock is held on
        // another open file description, so flock() refuses it here too.
        QFile lock(baseName(dir, kind, id) + QStringLiteral(".lock"));
        if (lock.exists()) {
            if (!lock.open(QIODevice::ReadWrite)) continue;
            if (::flock(lock.handle(), LOCK_EX | LOCK_NB) != 0) continue;
            ::flock(lock.handle(), LOCK_UN);
        }
        Orphan o;
        o.sessionPath = info.filePath();
        o.written = info.lastModified();
        o.suffix = kind.suffix;
        // A path, so a few kB; whatever else is there is not read.
        QByteArray source;
        if (QString ignored; readUserFile(baseName(dir, kind, id) + QStringLiteral(".source"),
                                          64 << 10, source, ignored))
            o.sourceFile = QString::fromUtf8(source);
        out << o;
    }
    return out;
}

void Autosave::removeStaleLocks(const QString& dir, const AutosaveKind& kind)
{
    // A process killed with nothing unsaved leaves only its lock (and maybe its .source): once
    // nobody holds the lock, nothing refers to them any more.
    const QFileInfoList locks =
        QDir(dir).entryInfoList({kind.prefix + QStringLiteral("-*.lock")}, QDir::Files);
    for (const QFileInfo& info : locks) {
        const QString base = info.filePath().chopped(static_cast<qsizetype>(sizeof(".lock") - 1));
        if (QFileInfo::exists(base + kind.suffix)) continue;  // an orphan
        QFile lock(info.filePath());
        if (!lock.open(QIODevice::ReadWrite)) continue;
        if (::flock(lock.handle(), LOCK_EX | LOCK_NB) != 0) continue;  // its process lives
        QFile::remove(base + QStringLiteral(".source"));
        QFile::remove(info.filePath());
        ::flock(lock.handle(), LOCK_UN);
    }
}

QString Autosave::setAside(const Orphan& orphan)
{
    const QString base = orphanBase(orphan);
    const QString aside = base + QStringLiteral(".unrestorable") + orphan.suffix;
    QFile::remove(aside);
    if (!QFile::rename(orphan.sessionPath, aside)) return {};
    QFile::remove(base + QStringLiteral(".source"));
    QFile::remove(base + QStringLiteral(".lock"));
    return aside;
}

void Autosave::removeOrphan(const Orphan& orphan)
{
    const QString base = orphanBase(orphan);
    QFile::remove(orphan.sessionPath);
    QFile::remove(base + QStringLiteral(".source"));
    QFile::remove(base + QStringLiteral(".lock"));
}

}  // namespace attnlab
