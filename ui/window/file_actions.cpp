// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/window/file_actions.h"

#include <QAction>
#include <QCloseEvent>
#include <QDir>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QLocale>
#include <QMenu>
#include <QMimeData>
#include <QSettings>
#include <QUndoStack>

#include "ui/document/document.h"
#include "ui/document/long_document.h"
#include "ui/export/last_folder.h"
#include "ui/model/model_window.h"
#include "ui/model/model_windows.h"
#include "ui/model/seq2seq_window.h"
#include "ui/modelrun/head_session.h"
#include "ui/readers/lesson_catalog.h"

namespace attnlab {

namespace {

const QString kRecentKey = QStringLiteral("files/recent");
const QString kSuffix = QStringLiteral(".attnlab.json");

FileDialogs defaultDialogs(QWidget* window)
{
    FileDialogs d;
    d.ask = [window](const QString& title, const QString& text,
                     QMessageBox::StandardButtons buttons) {
        return QMessageBox::question(window, title, text, buttons);
    };
    d.warn = [window](const QString& title, const QString& text) {
        QMessageBox::warning(window, title, text);
    };
    d.openPath = [window](const QString& startDir) {
        return QFileDialog::getOpenFileName(
            window, FileActions::tr("Open session"), startDir,
            FileActions::tr(
                "AttnLab sessions (*.attnlab.json);;JSON files (*.json);;All files (*)"));
    };
    d.savePath = [window](const QString& suggestion) {
        return QFileDialog::getSaveFileName(window, FileActions::tr("Save session as"), suggestion,
                                            FileActions::tr("AttnLab sessions (*.attnlab.json)"));
    };
    return d;
}

QString localFileOf(const QMimeData* mime)
{
    if (!mime || !mime->hasUrls()) return {};
    for (const QUrl& url : mime->urls()) {
        if (url.isLocalFile()) return url.toLocalFile();
    }
    return {};
}

}  // namespace

FileActions::FileActions(QWidget* window, Document* doc, LongDocument* longDoc,
                         ModelWindows* models)
    : QObject(window),
      window_(window),
      doc_(doc),
      long_(longDoc),
      models_(models),
      autosave_(new Autosave(
          AutosaveKind::workbench(), [this] { return !stack()->isClean(); },
          [this](const QString& path, QString& error) {
              FileError e;
              if (writeSessionFile(path, snapshot(), e)) return true;
              error = e.message();
              return false;
          },
          this)),
      reader_(this),
      dialogs_(defaultDialogs(window))
{
    for (QUndoStack* s : {doc_->undoStack(), long_->undoStack()}) {
        connect(s, &QUndoStack::indexChanged, autosave_, &Autosave::changed);
        connect(s, &QUndoStack::cleanChanged, autosave_, &Autosave::changed);
    }
    connect(long_, &LongDocument::openChanged, autosave_, &Autosave::changed);
    window_->setAcceptDrops(true);
    window_->installEventFilter(this);
}

void FileActions::addToMenu(QMenu* menu)
{
    QAction* open = menu->addAction(tr("&Open…"), this, &FileActions::open);
    open->setShortcut(QKeySequence::Open);
    QAction* model = menu->addAction(tr("Open &Model…"), this, [this] {
        ModelWindow* w = models_->window();
        if (w->openFolderDialog()) w->present();
    });
    model->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O));
    model->setToolTip(tr("Open a GPT-2 or BERT checkpoint folder and see its attention"));
    QAction* train = menu->addAction(tr("&Train a Whole Model…"), this, [this] {
        ModelWindow* w = models_->window();
        w->present();
        w->showTrainer();
    });
    train->setToolTip(
        tr("Train a small GPT-2 in the model window and watch its induction heads form"));
    recentMenu_ = menu->addMenu(tr("Open &Recent"));
    connect(recentMenu_, &QMenu::aboutToShow, this, &FileActions::fillRecentMenu);
    fillRecentMenu();
    menu->addSeparator();
    QAction* save = menu->addAction(tr("&Save"), this, &FileActions::save);
    save->setShortcut(QKeySequence::Save);
    QAction* saveAs = menu->addAction(tr("Save &As…"), this, &FileActions::saveAs);
    saveAs->setShortcut(QKeySequence::SaveAs);
    menu->addSeparator();
}

QUndoStack* FileActions::stack() const
{
    return long_->isOpen() ? long_->undoStack() : doc_->undoStack();
}

SessionFile FileActions::snapshot() const
{
    if (long_->isOpen()) return SessionFile{long_->session(), {}};
    SessionFile f;
    f.session = doc_->session();
    f.view = doc_->view();
    return f;
}

void FileActions::apply(const SessionFile& file)
{
    doc_->flush();
    doc_->setHead(file.view.head);
    doc_->select(file.view.row, file.view.column);
    doc_->setWeightColors(file.view.colors);
}

void FileActions::fail(const FileError& error, const QString& title)
{
    lastError_ = error;
    dialogs_.warn(title, error.message());
}

bool FileActions::openFile(const QString& path)
{
    readThen(path, [this, path](Read read) {
        if (read.ok) return publish(path, read.file);
        fail(read.error, tr("Cannot open the session"));
        return false;
    });
    return true;
}

void FileActions::readThen(const QString& path, std::function<bool(Read)> use)
{
    reader_.drop();  // a newer request replaces the file being read
    window_->setCursor(Qt::BusyCursor);
    Q_EMIT readingChanged(true, path);
    reader_.start(
        [path](JobControl&) {
            Read r;
            r.ok = readSessionFile(path, r.file, r.error);
            return r;
        },
        [this, path, use = std::move(use)](Read read) {
            window_->unsetCursor();
            Q_EMIT readingChanged(false, path);
            lastOpenOk_ = use(std::move(read));
            Q_EMIT opened(lastOpenOk_);
        });
}

bool FileActions::waitForOpen()
{
    reader_.wait();
    doc_->flush();
    return lastOpenOk_;
}

bool FileActions::publish(const QString& path, const SessionFile& file)
{
    if (!confirmDiscard()) return false;
    if (file.onlyWeightsFit) {
        // Too long for every stage: the long path computes only the weights, in float.
        if (!long_->open(file.session)) {
            fail(FileError{path, QString(), long_->lastError()}, tr("Cannot open the session"));
            return false;
        }
        // The workbench's session waits behind it; its changes were just saved or let go.
        doc_->undoStack()->setClean();
    } else {
        // A newly opened file starts a fresh history, saved as it is on disk.
        if (!doc_->openSession(file.session)) {
            fail(FileError{path, QString(), doc_->lastError()}, tr("Cannot open the session"));
            return false;
        }
        if (long_->isOpen()) long_->close();
        apply(file);
    }
    setCurrentFile(path);
    addRecent(path);
    lastError_ = FileError{};
    return true;
}

void FileActions::closeLongSession()
{
    if (!long_->isOpen()) return;
    long_->close();
    setCurrentFile(QString());
}

bool FileActions::open()
{
    const QString path = dialogs_.openPath(lastFolder());
    rememberFolderOf(path);
    return !path.isEmpty() && openFile(path);
}

bool FileActions::save()
{
    return current_.isEmpty() ? saveAs() : saveTo(current_);
}

bool FileActions::saveAs()
{
    const QString suggestion =
        current_.isEmpty() ? inLastFolder(tr("untitled") + kSuffix) : current_;
    QString path = dialogs_.savePath(suggestion);
    if (path.isEmpty()) return false;
    rememberFolderOf(path);
    if (!path.endsWith(QStringLiteral(".json"), Qt::CaseInsensitive)) path += kSuffix;
    return saveTo(path);
}

bool FileActions::saveTo(const QString& path)
{
    FileError error;
    if (!writeSessionFile(path, snapshot(), error)) {
        fail(error, tr("Cannot save the session"));
        return false;
    }
    setCurrentFile(path);
    stack()->setClean();
    addRecent(path);
    lastError_ = FileError{};
    return true;
}

bool FileActions::hasUnsavedChanges() const
{
    return !stack()->isClean();
}

QString FileActions::sessionName() const
{
    if (!current_.isEmpty()) return QFileInfo(current_).fileName();
    if (long_->isOpen()) return tr("Long session");
    // A head taken from a model is what is open, even over the lesson that asked for it.
    if (const auto& p = doc_->session().provenance) return headTitle(*p);
    if (const Lesson* lesson = findLessonById(doc_->view().lesson)) return lesson->numberedTitle();
    return tr("Untitled");
}

bool FileActions::confirmDiscard()
{
    if (stack()->isClean()) return true;
    const bool untitled = current_.isEmpty() && doc_->view().lesson.isEmpty() && !long_->isOpen() &&
                          !doc_->session().provenance;
    const QString name = untitled ? tr("The untitled session") : sessionName();
    const QMessageBox::StandardButton answer = dialogs_.ask(
        tr("Unsaved changes"), tr("%1 has changes that are not saved. Save them?").arg(name),
        QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel);
    if (answer == QMessageBox::Save) return save();
    return answer == QMessageBox::Discard;
}

bool FileActions::offerRecovery(bool withoutAsking)
{
    const QList<Autosave::Orphan> orphans = Autosave::findOrphans(autosave_->directory());
    if (orphans.isEmpty()) return false;
    const Autosave::Orphan& newest = orphans.front();
    if (!withoutAsking) {
        const QString what = newest.sourceFile.isEmpty() ? tr("an untitled session")
                                                         : QFileInfo(newest.sourceFile).fileName();
        const QMessageBox::StandardButton answer = dialogs_.ask(
            tr("Restore unsaved work?"),
            tr("AttnLab did not close normally. Unsaved changes to %1 were saved "
               "automatically at %2.\n\nRestore them? Discard deletes them; Cancel keeps "
               "them for the next start.")
                .arg(what, QLocale().toString(newest.written, QLocale::ShortFormat)),
            QMessageBox::Yes | QMessageBox::Discard | QMessageBox::Cancel);
        if (answer == QMessageBox::Discard) Autosave::removeOrphan(newest);
        if (answer != QMessageBox::Yes) return false;
    }
    // A long session's recovery file runs to tens of megabytes: read on a worker, as a file
    // opened by the user is.
    readThen(newest.sessionPath,
             [this, newest](Read read) { return restore(newest, std::move(read)); });
    return true;
}

bool FileActions::restore(const Autosave::Orphan& orphan, Read read)
{
    if (!read.ok) {
        // Asked at every start it would never open: set aside, and say where it is.
        const QString aside = Autosave::setAside(orphan);
        read.error.problem +=
            QLatin1Char(' ') + (aside.isEmpty()
                                    ? tr("It could not be set aside either.")
                                    : tr("It was kept as %1 and will not be offered again.")
                                          .arg(QDir::toNativeSeparators(aside)));
        fail(read.error, tr("Cannot restore the session"));
        return false;
    }
    const SessionFile& file = read.file;
    if (!confirmDiscard()) return false;
    if (file.onlyWeightsFit) {
        if (!long_->open(file.session)) {
            fail(FileError{orphan.sessionPath, QString(), long_->lastError()},
                 tr("Cannot restore the session"));
            return false;
        }
        // Not clean: it has not been saved, and autosave keeps it until it is.
        long_->undoStack()->resetClean();
    } else {
        // One undo step on top of the current session, and not clean: it has not been saved.
        if (!doc_->replaceSession(file.session, Label([] { return tr("Restore unsaved work"); }))) {
            fail(FileError{orphan.sessionPath, QString(), doc_->lastError()},
                 tr("Cannot restore the session"));
            return false;
        }
        if (long_->isOpen()) long_->close();
        apply(file);
    }
    setCurrentFile(orphan.sourceFile);
    // Keep the work on disk under this process's name before dropping the orphan.
    autosave_->writeNow();
    if (orphan.sessionPath != autosave_->recoveryPath()) Autosave::removeOrphan(orphan);
    return true;
}

QStringList FileActions::recentFiles() const
{
    return QSettings().value(kRecentKey).toStringList();
}

void FileActions::setCurrentFile(const QString& path)
{
    current_ = path.isEmpty() ? QString() : QFileInfo(path).absoluteFilePath();
    autosave_->setSourceFile(current_);
    Q_EMIT currentFileChanged(current_);
}

void FileActions::addRecent(const QString& path)
{
    const QString absolute = QFileInfo(path).absoluteFilePath();
    QStringList list = recentFiles();
    list.removeAll(absolute);
    list.prepend(absolute);
    while (list.size() > kMaxRecent) list.removeLast();
    QSettings().setValue(kRecentKey, list);
    fillRecentMenu();
}

void FileActions::fillRecentMenu()
{
    if (!recentMenu_) return;
    recentMenu_->clear();
    const QStringList list = recentFiles();
    for (int i = 0; i < list.size(); ++i) {
        const QString path = list[i];
        QAction* a = recentMenu_->addAction(tr("&%1 %2").arg(i + 1).arg(QFileInfo(path).fileName()),
                                            this, [this, path] { openFile(path); });
        a->setToolTip(path);
        a->setStatusTip(path);
    }
    if (list.isEmpty()) recentMenu_->addAction(tr("No recent files"))->setEnabled(false);
    recentMenu_->addSeparator();
    QAction* clear = recentMenu_->addAction(tr("&Clear the list"), this, [this] {
        QSettings().remove(kRecentKey);
        fillRecentMenu();
    });
    clear->setEnabled(!list.isEmpty());
}

bool FileActions::openModelFolder(const QString& folder)
{
    // An encoder-decoder opens in a translator window of its own, not the model window.
    if (isEncoderDecoderFolder(folder)) {
        QString error;
        if (models_->openTranslator(folder, error)) return true;
        dialogs_.warn(tr("Could not open the model"), error);
        return false;
    }
    ModelWindow* w = models_->window();
    if (!w->openFolder(folder)) return false;
    w->present();
    return true;
}

bool FileActions::eventFilter(QObject* watched, QEvent* event)
{
    if (watched != window_) return false;
    switch (event->type()) {
    case QEvent::DragEnter: {
        auto* e = static_cast<QDragEnterEvent*>(event);
        if (localFileOf(e->mimeData()).isEmpty()) return false;
        e->acceptProposedAction();
        return true;
    }
    case QEvent::Drop: {
        auto* e = static_cast<QDropEvent*>(event);
        const QString path = localFileOf(e->mimeData());
        if (path.isEmpty()) return false;
        e->acceptProposedAction();
        if (QFileInfo(path).isDir())
            openModelFolder(path);  // a checkpoint folder: the real-model window
        else
            openFile(path);
        return true;
    }
    case QEvent::Close:
        if (askOnClose_ && !confirmDiscard()) {
            event->ignore();
            return true;
        }
        autosave_->discard();
        return false;
    default: return false;
    }
}

}  // namespace attnlab
