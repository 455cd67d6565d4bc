// SPDX-License-Identifier: GPL-3.0-or-later
// attnlab: the workbench window, or a headless command.
//   attnlab [--recover] [--lesson ID] [FILE|MODEL_DIR]  open the window (and FILE, a session, a
//                                       lesson, or a GPT-2/BERT checkpoint folder)
//   attnlab render|compute|lessons|model|train|train-model|heads|models|--help|--version
//                                       headless commands (app/cli.h)
#include <cerrno>
#include <sys/stat.h>
#include <unistd.h>

#include <QApplication>
#include <QCommandLineParser>
#include <QFileInfo>
#include <QIcon>

#include "app/cli.h"
#include "core/memory_advice.h"
#include "ui/io/autosave.h"
#include "ui/model/model_presenter.h"
#include "ui/model/model_recovery.h"
#include "ui/model/model_window.h"
#include "ui/model/model_windows.h"
#include "ui/model/seq2seq_recovery.h"
#include "ui/modelrun/builtin_models.h"
#include "ui/panels/walkthrough_panel.h"
#include "ui/window/file_actions.h"
#include "ui/window/language.h"
#include "ui/window/lesson_actions.h"
#include "ui/window/main_window.h"
#include "ui/window/presenter_actions.h"
#include "ui/window/walkthrough_actions.h"

namespace {

// Headless commands run where no session manager set XDG_RUNTIME_DIR (ssh, cron, CI); Qt then
// warns on every run before using /tmp/runtime-UID. Make that folder (private) and say so.
void provideRuntimeDir()
{
    if (!qEnvironmentVariableIsEmpty("XDG_RUNTIME_DIR")) return;
    const QByteArray dir = QByteArray("/tmp/runtime-") + QByteArray::number(::getuid());
    struct stat st {};
    if (::mkdir(dir.constData(), 0700) != 0 && errno != EEXIST) return;
    if (::stat(dir.constData(), &st) != 0 || st.st_uid != ::getuid() || (st.st_mode & 077) != 0)
        return;  // someone else's or open to others: leave it to Qt to say so
    qputenv("XDG_RUNTIME_DIR", dir);
}

// --present VIEW: the presenter view of a workbench view (walkthrough:N on step N), or of a
// model window's figure when a model folder was opened. False for an unknown view.
bool presentAtStart(attnlab::MainWindow& window, const QString& value)
{
    const QString view = value.section(QLatin1Char(':'), 0, 0);
    const int step = value.section(QLatin1Char(':'), 1, 1).toInt();
    if (attnlab::ModelPresenter::viewNames().contains(view)) {
        return window.modelWindows()->window()->presenter()->present(view);
    }
    auto* actions = window.findChild<attnlab::PresenterActions*>();
    if (!actions || !attnlab::PresenterActions::viewNames().contains(view)) return false;
    auto* walkthrough = window.findChild<attnlab::WalkthroughActions*>();
    if (step > 0 && walkthrough && walkthrough->tabPanel()) walkthrough->tabPanel()->setStep(step);
    return actions->present(view);
}

// attnlab [--recover] [--lesson ID] [--present VIEW] [FILE]: the window's own arguments;
// --recover restores a crashed run's autosave without asking (otherwise the window asks).
void addWindowOptions(QCommandLineParser& gui)
{
    gui.addPositionalArgument(
        QStringLiteral("file"),
        QApplication::translate("main", "A session file, or a model folder, to open."),
        QStringLiteral("[FILE|MODEL_DIR]"));
    gui.addOption(QCommandLineOption(
        QStringLiteral("recover"),
        QApplication::translate("main", "Restore unsaved work of a crashed run without asking.")));
    gui.addOption(QCommandLineOption(
        QStringLiteral("lesson"),
        QApplication::translate("main", "Open a built-in lesson (see attnlab lessons)."),
        QStringLiteral("id")));
    gui.addOption(QCommandLineOption(
        QStringLiteral("present"),
        QApplication::translate(
            "main",
            "Start in the presenter view of a view: weights, difference, pipeline, heads, "
            "walkthrough (walkthrough:4 for step 4) or trainer; with a model folder: focus, grid "
            "or head-view."),
        QStringLiteral("view")));
}

void setUpWindowIdentity()
{
    // The saved language (View > Language), else the system's (LANG=zh_CN.UTF-8 → Chinese).
    attnlab::applySavedLanguage();
    // The installed menu entry and icon (cmake/AttnLabInstall.cmake): Wayland matches the
    // window to the desktop file by this name; X11 taskbars show the window icon. From the
    // build tree the themed icon is not found and the window has none, as before.
    QGuiApplication::setDesktopFileName(QStringLiteral("io.github.attnlab.AttnLab"));
    QApplication::setWindowIcon(QIcon::fromTheme(QStringLiteral("io.github.attnlab.AttnLab")));
}

// A crashed run's workbench, model window and translator window; true when either was restored.
// `restoring` says whether the workbench's session is being restored.
bool recoverCrashedRun(attnlab::MainWindow& window, bool withoutAsking, bool& restoring)
{
    restoring = window.fileActions()->offerRecovery(withoutAsking);
    bool recovered = restoring;
    // A crashed run's model window too (made only when there is one to offer).
    if (!attnlab::Autosave::findOrphans(attnlab::Autosave::defaultDirectory(),
                                        attnlab::AutosaveKind::model())
             .isEmpty())
        recovered |= attnlab::offerModelRecovery(window.modelWindows()->window(), withoutAsking,
                                                 attnlab::defaultModelRecoveryDialogs());
    // And a crashed run's translator window, in a window of its own.
    recovered |= attnlab::offerSeq2SeqRecovery(
        attnlab::Autosave::defaultDirectory(), withoutAsking, attnlab::defaultRecoveryDialogs(),
        [&window] { return window.modelWindows()->newTranslator(); });
    return recovered;
}

// --lesson ID, else on first launch the start page with the lessons (not over a file or a
// restored session). False for an unknown lesson.
bool openLessonOrStartPage(attnlab::MainWindow& window, const QCommandLineParser& gui,
                           bool recovered)
{
    auto* lessons = window.findChild<attnlab::LessonActions*>();
    const QString lesson = QStringLiteral("lesson");
    if (lessons && gui.isSet(lesson)) {
        if (!lessons->openLesson(gui.value(lesson))) {
            qCritical("attnlab: no lesson \"%s\" (attnlab lessons lists them)",
                      qUtf8Printable(gui.value(lesson)));
            return false;
        }
    } else if (lessons && !recovered && gui.positionalArguments().isEmpty()) {
        lessons->showStartPageOnFirstLaunch();
    }
    return true;
}

// FILE or MODEL_DIR from the command line. False for an unknown built-in model.
bool openArgument(attnlab::MainWindow& window, QString path, bool restoring, bool presenting)
{
    // The restored session first: the file opens over it (asking to save it).
    if (restoring) window.fileActions()->waitForOpen();
    // attnlab builtin:NAME: a model built into the program (attnlab models lists them).
    if (path.startsWith(QLatin1String("builtin:"))) {
        QString error;
        path = attnlab::resolveModelFolder(path, error);
        if (path.isEmpty()) {
            qCritical("attnlab: %s", qUtf8Printable(error));
            return false;
        }
    }
    // attnlab MODEL_DIR: a checkpoint folder opens in the real-model window.
    if (QFileInfo(path).isDir())
        window.fileActions()->openModelFolder(path);
    else if (window.openFile(path) && presenting)
        window.fileActions()->waitForOpen();  // the presenter shows the file's session
    return true;
}

}  // namespace

int main(int argc, char** argv)
{
    attn::keepFreedMemoryForReuse();
    const bool cli = attnlab::cli::isCliCommand(argc, argv);
    if (cli && qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    if (cli) provideRuntimeDir();
    if (cli) {
        if (const int code = attnlab::cli::refuseNonUtf8(argc, argv); code != attnlab::cli::Success)
            return code;
    }
    // Before QApplication, which takes arguments of its own (such as --session).
    const QStringList cliArgs = cli ? attnlab::cli::rawArguments(argc, argv) : QStringList();
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("AttnLab"));
    QApplication::setOrganizationName(QStringLiteral("AttnLab"));
    QApplication::setApplicationVersion(QStringLiteral(ATTNLAB_VERSION));
    if (cli) return attnlab::cli::runCli(cliArgs);
    setUpWindowIdentity();

    QCommandLineParser gui;
    addWindowOptions(gui);
    gui.process(app);
    const QString present = QStringLiteral("present");
    attnlab::MainWindow window;
    window.show();
    // Without a window manager (a bare X server, some kiosk setups) nothing activates a new
    // window, and its shortcuts do nothing until it is clicked.
    window.activateWindow();
    bool restoring = false;
    const bool recovered =
        recoverCrashedRun(window, gui.isSet(QStringLiteral("recover")), restoring);
    if (!openLessonOrStartPage(window, gui, recovered)) return 2;
    if (!gui.positionalArguments().isEmpty() &&
        !openArgument(window, gui.positionalArguments().first(), restoring, gui.isSet(present)))
        return 2;
    if (gui.isSet(present) && !presentAtStart(window, gui.value(present))) {
        qCritical("attnlab: cannot present \"%s\" (see attnlab --help)",
                  qUtf8Printable(gui.value(present)));
        return 2;
    }
    return QApplication::exec();
}
