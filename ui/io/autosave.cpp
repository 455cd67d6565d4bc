#include "ui/io/autosave.h"

#include <sys/file.h>

#include <QCoreApplication>
#include <QDir>
#include <QRegularExpression>
#include <QStandardPaths>

#include "ui/document/document.h"
#include "ui/io/atomic_file.h"
#include "ui/io/bounded_read.h"

namespace attnlab {

namespace {

QString baseName(const QString& dir, const QString& id)
{
    return QDir(dir).filePath(QStringLiteral("autosave-") + id);
}

QString ownId()
{
    return QString::number(QCoreApplication::applicationPid());
}

}  // namespace

Autosave::Autosave(Document* doc, Snapshot snapshot, QObject* parent)
    : QObject(parent), doc_(doc), snapshot_(std::move(snapshot)), dir_(defaultDirectory())
{
    bool ok = false;
    const int ms = qEnvironmentVariableIntValue("ATTNLAB_AUTOSAVE_MS", &ok);
    timer_.setInterval(ok && ms > 0 ? ms : 5000);
    timer_.setSingleShot(true);
    connect(&timer_, &QTimer::timeout, this, &Autosave::writeNow);
    connect(doc_->undoStack(), &QUndoStack::indexChanged, this, &Autosave::onStackChanged);
    connect(doc_->undoStack(), &QUndoStack::cleanChanged, this, &Autosave::onStackChanged);
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
    onStackChanged();
}

void Autosave::setSourceFile(const QString& path)
{
    source_ = path;
}

QString Autosave::recoveryPath() const
{
    return baseName(dir_, ownId()) + QStringLiteral(".attnlab.json");
}

void Autosave::onStackChanged()
{
    if (doc_->undoStack()->isClean()) {
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
    lock_.setFileName(baseName(dir_, ownId()) + QStringLiteral(".lock"));
    if (!lock_.open(QIODevice::ReadWrite)) return false;
    if (::flock(lock_.handle(), LOCK_EX | LOCK_NB) != 0) {
        lock_.close();
        return false;
    }
    return true;
}

bool Autosave::writeNow()
{
    if (doc_->undoStack()->isClean() || !holdLock()) return false;
    FileError error;
    if (!writeSessionFile(recoveryPath(), snapshot_(), error)) {
        qWarning("autosave: %s", qUtf8Printable(error.message()));
        return false;
    }
    if (QString problem; !writeFileAtomically(baseName(dir_, ownId()) + QStringLiteral(".source"),
                                              source_.toUtf8(), problem))
        qWarning("autosave: %s", qUtf8Printable(problem));
    Q_EMIT written(recoveryPath());
    return true;
}

void Autosave::discard()
{
    QFile::remove(recoveryPath());
    QFile::remove(baseName(dir_, ownId()) + QStringLiteral(".source"));
}

QList<Autosave::Orphan> Autosave::findOrphans(const QString& dir)
{
    removeStaleLocks(dir);
    static const QRegularExpression name(QStringLiteral("^autosave-(\\d+)\\.attnlab\\.json$"));
    QList<Orphan> out;
    const QFileInfoList files = QDir(dir).entryInfoList({QStringLiteral("autosave-*.attnlab.json")},
                                                        QDir::Files, QDir::Time);
    for (const QFileInfo& info : files) {
        const QRegularExpressionMatch m = name.match(info.fileName());
        if (!m.hasMatch()) continue;
        const QString id = m.captured(1);
        // A lock that can be taken belongs to no running process. Our own lock is held on
        // another open file description, so flock() refuses it here too.
        QFile lock(baseName(dir, id) + QStringLiteral(".lock"));
        if (lock.exists()) {
            if (!lock.open(QIODevice::ReadWrite)) continue;
            if (::flock(lock.handle(), LOCK_EX | LOCK_NB) != 0) continue;
            ::flock(lock.handle(), LOCK_UN);
        }
        Orphan o;
        o.sessionPath = info.filePath();
        o.written = info.lastModified();
        // A path, so a few kB; whatever else is there is not read.
        QByteArray source;
        if (QString ignored;
            readUserFile(baseName(dir, id) + QStringLiteral(".source"), 64 << 10, source, ignored))
            o.sourceFile = QString::fromUtf8(source);
        out << o;
    }
    return out;
}

void Autosave::removeStaleLocks(const QString& dir)
{
    // A process killed with nothing unsaved leaves only its lock (and maybe its .source): once
    // nobody holds the lock, nothing refers to them any more.
    const QFileInfoList locks =
        QDir(dir).entryInfoList({QStringLiteral("autosave-*.lock")}, QDir::Files);
    for (const QFileInfo& info : locks) {
        const QString base = info.filePath().chopped(static_cast<qsizetype>(sizeof(".lock") - 1));
        if (QFileInfo::exists(base + QStringLiteral(".attnlab.json"))) continue;  // an orphan
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
    const QString base =
        orphan.sessionPath.chopped(static_cast<qsizetype>(sizeof(".attnlab.json") - 1));
    const QString aside = base + QStringLiteral(".unrestorable.attnlab.json");
    QFile::remove(aside);
    if (!QFile::rename(orphan.sessionPath, aside)) return {};
    QFile::remove(base + QStringLiteral(".source"));
    QFile::remove(base + QStringLiteral(".lock"));
    return aside;
}

void Autosave::removeOrphan(const Orphan& orphan)
{
    const QString base =
        orphan.sessionPath.chopped(static_cast<qsizetype>(sizeof(".attnlab.json") - 1));
    QFile::remove(orphan.sessionPath);
    QFile::remove(base + QStringLiteral(".source"));
    QFile::remove(base + QStringLiteral(".lock"));
}

}  // namespace attnlab
