// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The File side of the main window: Open, Save, Save As, recent files, dropping a file on
// the window, the question before closing or opening over unsaved changes, and the
// autosave/crash-recovery hookup. It watches the window's close and drag-and-drop events
// through an event filter, so MainWindow only creates it.
//
// A file is read and parsed on a worker (AsyncJob); the window stays live meanwhile, with a
// busy cursor and a status line, and the session is published on the window's thread through
// one document operation: Document::openSession, or LongDocument::open for a session that only
// the long path can hold. File, autosave and recovery serve whichever of the two is open.

#include <functional>

#include <QMessageBox>
#include <QObject>
#include <QStringList>

#include "ui/document/async_job.h"
#include "ui/io/autosave.h"
#include "ui/readers/session_file.h"

class QMenu;
class QUndoStack;

namespace attnlab {

class Document;
class LongDocument;
class ModelWindows;

// The dialogs FileActions shows; tests replace them to answer without a modal loop.
struct FileDialogs {
    // A question; returns the button pressed.
    std::function<QMessageBox::StandardButton(const QString& title, const QString& text,
                                              QMessageBox::StandardButtons buttons)>
        ask;
    std::function<void(const QString& title, const QString& text)> warn;
    // A path to open or to save to ("" = cancelled).
    std::function<QString(const QString& startDir)> openPath;
    std::function<QString(const QString& suggestion)> savePath;
};

class FileActions : public QObject {
    Q_OBJECT
public:
    FileActions(QWidget* window, Document* doc, LongDocument* longDoc, ModelWindows* models);

    // Adds Open, Open Recent, Save and Save As to the File menu.
    void addToMenu(QMenu* menu);

    // Starts opening a session file: it is read on a worker, then (asking first when the
    // current session has unsaved changes) published. On failure it warns and keeps the
    // current session. Returns false only when nothing was started; opened() tells the end.
    bool openFile(const QString& path);
    // Waits for the file being read and publishes it; returns whether the last open succeeded
    // (tests, the command line).
    bool waitForOpen();
    [[nodiscard]] bool reading() const { return reader_.running(); }
    bool open();  // asks for a file
    // Opens a GPT-2 or BERT checkpoint folder in the real-model window (shown when it opens;
    // a warning naming the file and the tensor or field when it does not).
    bool openModelFolder(const QString& folder);
    bool save();  // to the current file, else as Save As
    bool saveAs();
    bool saveTo(const QString& path);
    // Save / Discard / Cancel when there are unsaved changes; true = go ahead.
    bool confirmDiscard();
    // Drops the open long session (the workbench session takes the window again); the
    // window has no file then.
    void closeLongSession();
    // The session has changes that no file holds (a lesson opened as it is has none).
    [[nodiscard]] bool hasUnsavedChanges() const;
    // What the session is called in the title bar and in questions: the file's name, else
    // the head of a model it holds ("Layer 3, head 1 of gpt2"), else the open lesson's
    // numbered title, else "Untitled".
    [[nodiscard]] QString sessionName() const;
    // The next close of the window asks nothing (File ▸ Quit asked once for every window).
    void closeWithoutAsking() { askOnClose_ = false; }
    [[nodiscard]] const FileDialogs& dialogs() const { return dialogs_; }
    // Offers to restore the newest recovery file of a crashed run; `withoutAsking` restores
    // it directly (attnlab --recover). Returns true when a restoration was started: the file
    // is read on a worker like an opened one, and opened() (or waitForOpen()) tells whether
    // the session was restored.
    bool offerRecovery(bool withoutAsking = false);

    [[nodiscard]] QString currentFile() const { return current_; }
    // The session no longer belongs to a file (a lesson was opened): Save asks for a name.
    void detachFromFile() { setCurrentFile(QString()); }
    [[nodiscard]] QStringList recentFiles() const;
    [[nodiscard]] FileError lastError() const { return lastError_; }
    [[nodiscard]] Autosave* autosave() const { return autosave_; }
    [[nodiscard]] SessionFile snapshot() const;
    void setDialogs(const FileDialogs& dialogs) { dialogs_ = dialogs; }

    static constexpr int kMaxRecent = 8;

Q_SIGNALS:
    void currentFileChanged(const QString& path);
    // A file is being read (`path`), or no longer.
    void readingChanged(bool reading, const QString& path);
    void opened(bool ok);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    struct Read {
        SessionFile file;
        FileError error;
        bool ok = false;
    };
    // What File, autosave and recovery serve: the long session's history while one is open.
    [[nodiscard]] QUndoStack* stack() const;
    bool publish(const QString& path, const SessionFile& file);
    // Reads the session file `path` on the worker (busy cursor, readingChanged), then hands
    // it to `use` on this thread; what `use` returns is the open's outcome (opened()).
    void readThen(const QString& path, std::function<bool(Read)> use);
    bool restore(const Autosave::Orphan& orphan, Read read);
    void setCurrentFile(const QString& path);
    void addRecent(const QString& path);
    void fillRecentMenu();
    void apply(const SessionFile& file);
    void fail(const FileError& error, const QString& title);

    QWidget* window_;
    Document* doc_;
    LongDocument* long_;
    ModelWindows* models_;
    Autosave* autosave_;
    AsyncJob<Read> reader_;
    bool lastOpenOk_ = false;
    QMenu* recentMenu_ = nullptr;
    QString current_;
    FileError lastError_;
    FileDialogs dialogs_;
    bool askOnClose_ = true;
};

}  // namespace attnlab
