#pragma once
// Crash recovery. While the document has unsaved changes (undo stack not clean) the
// session is written every few seconds to a recovery file of this process,
// DIR/autosave-PID.attnlab.json, with the file it came from in DIR/autosave-PID.source.
// The file is removed when the document becomes clean (saved) and when this object is
// destroyed (the window closed normally), so only a crash leaves it behind.
//
// Each process holds an flock() on DIR/autosave-PID.lock for its lifetime; the kernel
// releases it when the process dies, even by kill -9. A recovery file whose lock can be
// taken is an orphan of a crashed process, which the next start offers to restore; files
// of other running instances are left alone.
//
// DIR is $ATTNLAB_RECOVERY_DIR if set, else QStandardPaths::AppDataLocation/recovery; the
// interval is $ATTNLAB_AUTOSAVE_MS milliseconds if set, else 5000.

#include <functional>

#include <QDateTime>
#include <QFile>
#include <QList>
#include <QObject>
#include <QTimer>

#include "ui/io/session_file.h"

namespace attnlab {

class Document;

class Autosave : public QObject {
    Q_OBJECT
public:
    using Snapshot = std::function<SessionFile()>;

    struct Orphan {
        QString sessionPath;  // the recovery file
        QString sourceFile;   // the file the session was opened from or saved to; may be empty
        QDateTime written;
    };

    Autosave(Document* doc, Snapshot snapshot, QObject* parent = nullptr);
    ~Autosave() override;

    static QString defaultDirectory();
    [[nodiscard]] QString directory() const { return dir_; }
    void setDirectory(const QString& dir);
    [[nodiscard]] int interval() const { return timer_.interval(); }
    void setInterval(int milliseconds) { timer_.setInterval(milliseconds); }
    // The file the current session belongs to, stored beside the recovery file.
    void setSourceFile(const QString& path);
    [[nodiscard]] QString recoveryPath() const;

    // Writes the recovery file now if the document has unsaved changes.
    bool writeNow();
    // Removes this process's recovery file.
    void discard();

    // Recovery files of processes that are no longer running, newest first.
    static QList<Orphan> findOrphans(const QString& dir);
    static void removeOrphan(const Orphan& orphan);
    // Renames an orphan that cannot be restored to autosave-ID.unrestorable.attnlab.json (not
    // offered again) and drops its lock and .source; returns the new path, "" on failure.
    static QString setAside(const Orphan& orphan);
    // Removes the locks (and .source files) that killed processes left without a recovery
    // file; findOrphans() calls it. Locks still held are left alone.
    static void removeStaleLocks(const QString& dir);

Q_SIGNALS:
    void written(const QString& path);

private:
    void onStackChanged();
    bool holdLock();

    Document* doc_;
    Snapshot snapshot_;
    QTimer timer_;
    QString dir_;
    QString source_;
    QFile lock_;
};

}  // namespace attnlab
