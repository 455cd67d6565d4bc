// SPDX-License-Identifier: GPL-3.0-or-later
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
//
// The same machinery keeps other state than a workbench session: an AutosaveKind names the
// files (the model window's are DIR/model-PID-N.attnlab-model.json with their own lock, N
// counting the windows of the process; the translator window's are alike), a HasWork function says
// whether there is anything to keep, and a Writer writes it. Its owner calls changed() whenever the
// state changed; the file is written an interval later and removed as soon as there is nothing to
// keep.

#include <functional>

#include <QDateTime>
#include <QFile>
#include <QList>
#include <QObject>
#include <QTimer>

#include "ui/readers/session_file.h"

namespace attnlab {

class Document;

// How one kind of recovery file is named: PREFIX-ID.lock beside PREFIX-IDSUFFIX.
struct AutosaveKind {
    QString prefix;
    QString suffix;
    bool numbered = false;             // ID is PID-N, one per object, rather than the process's PID
    bool keepsSource = false;          // PREFIX-ID.source holds the file the state belongs to
    static AutosaveKind workbench();   // autosave-PID.attnlab.json with autosave-PID.source
    static AutosaveKind model();       // model-PID-N.attnlab-model.json
    static AutosaveKind translator();  // translator-PID-N.attnlab-translator.json
};

class Autosave : public QObject {
    Q_OBJECT
public:
    using Snapshot = std::function<SessionFile()>;
    using HasWork = std::function<bool()>;
    // Writes the state to `path`; false with `error` when it cannot.
    using Writer = std::function<bool(const QString& path, QString& error)>;

    struct Orphan {
        QString sessionPath;  // the recovery file
        QString sourceFile;   // the file the session was opened from or saved to; may be empty
        QDateTime written;
        QString suffix = QStringLiteral(".attnlab.json");  // of its kind: names its files
    };

    // The workbench's: the session while the undo stack is not clean.
    Autosave(Document* doc, Snapshot snapshot, QObject* parent = nullptr);
    Autosave(AutosaveKind kind, HasWork hasWork, Writer write, QObject* parent = nullptr);
    ~Autosave() override;

    // The state changed: write it an interval from now, or discard the file if there is
    // nothing to keep.
    void changed();

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
    static QList<Orphan> findOrphans(const QString& dir,
                                     const AutosaveKind& kind = AutosaveKind::workbench());
    static void removeOrphan(const Orphan& orphan);
    // Renames an orphan that cannot be restored to PREFIX-ID.unrestorable.SUFFIX (not
    // offered again) and drops its lock and .source; returns the new path, "" on failure.
    static QString setAside(const Orphan& orphan);
    // Removes the locks (and .source files) that killed processes left without a recovery
    // file; findOrphans() calls it. Locks still held are left alone.
    static void removeStaleLocks(const QString& dir,
                                 const AutosaveKind& kind = AutosaveKind::workbench());

Q_SIGNALS:
    void written(const QString& path);

private:
    bool holdLock();
    [[nodiscard]] QString base() const;

    AutosaveKind kind_;
    QString id_;
    HasWork hasWork_;
    Writer write_;
    QTimer timer_;
    QString dir_;
    QString source_;
    QFile lock_;
};

}  // namespace attnlab
