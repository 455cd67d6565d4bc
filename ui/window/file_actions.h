// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The File side of the main window: Open, Save, Save As, recent files, dropping a file on
// the window, the question before closing or opening over unsaved changes, and the
// autosave/crash-recovery hookup. It watches the window's close and drag-and-drop events
// through an event filter, so MainWindow only creates it.

#include <functional>

#include <QMessageBox>
#include <QObject>
#include <QStringList>

#include "ui/io/autosave.h"
#include "ui/readers/session_file.h"

class QMenu;

namespace attnlab {

class Document;

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
    FileActions(QWidget* window, Document* doc);

    // Adds Open, Open Recent, Save and Save As to the File menu.
    void addToMenu(QMenu* menu);

    // Opens a session file; on failure warns, keeps the current session and returns false.
    // Asks first when the current session has unsaved changes.
    bool openFile(const QString& path);
    bool open();  // asks for a file
    // Opens a GPT-2 or BERT checkpoint folder in the real-model window (shown when it opens;
    // a warning naming the file and the tensor or field when it does not).
    bool openModelFolder(const QString& folder);
    bool save();  // to the current file, else as Save As
    bool saveAs();
    bool saveTo(const QString& path);
    // Save / Discard / Cancel when there are unsaved changes; true = go ahead.
    bool confirmDiscard();
    // The session has changes that no file holds (a lesson opened as it is has none).
    [[nodiscard]] bool hasUnsavedChanges() const;
    // What the session is called in the title bar and in questions: the file's name, else
    // the open lesson's numbered title, else "Untitled".
    [[nodiscard]] QString sessionName() const;
    // The next close of the window asks nothing (File ▸ Quit asked once for every window).
    void closeWithoutAsking() { askOnClose_ = false; }
    [[nodiscard]] const FileDialogs& dialogs() const { return dialogs_; }
    // Offers to restore the newest recovery file of a crashed run; `withoutAsking` restores
    // it directly (attnlab --recover). Returns true when a session was restored.
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

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void setCurrentFile(const QString& path);
    void addRecent(const QString& path);
    void fillRecentMenu();
    void apply(const SessionFile& file);
    void fail(const FileError& error, const QString& title);

    QWidget* window_;
    Document* doc_;
    Autosave* autosave_;
    QMenu* recentMenu_ = nullptr;
    QString current_;
    FileError lastError_;
    FileDialogs dialogs_;
    bool askOnClose_ = true;
};

}  // namespace attnlab
