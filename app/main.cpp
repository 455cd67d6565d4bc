// attnlab: the workbench window, or a headless command.
//   attnlab [--recover] [--lesson ID] [FILE|MODEL_DIR]  open the window (and FILE, a session, a
//                                       lesson, or a GPT-2/BERT checkpoint folder)
//   attnlab bench-ui [options]  drive the real window offscreen and time slider updates
//   attnlab bench-ui --train [--seconds S]  time the window while the Trainer dock trains
//   attnlab bench-model DIR [--tokens N] [--keys K]  time typing into the real-model window
//   attnlab render|compute|lessons|--help|--version   headless commands (app/cli.h)
#include <cerrno>
#include <cstring>
#include <sys/stat.h>
#include <unistd.h>

#include <QApplication>
#include <QCommandLineParser>
#include <QFileInfo>
#include <QIcon>

#include "app/cli.h"
#include "ui/model/model_presenter.h"
#include "ui/model/model_window.h"
#include "ui/panels/walkthrough_panel.h"
#include "ui/tools/head_benchmark.h"
#include "ui/tools/model_typing_benchmark.h"
#include "ui/tools/slider_benchmark.h"
#include "ui/tools/train_benchmark.h"
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

bool isHeadless(int argc, char** argv)
{
    return argc > 1 &&
           (std::strcmp(argv[1], "bench-ui") == 0 || std::strcmp(argv[1], "bench-model") == 0);
}

// --present VIEW: the presenter view of a workbench view (walkthrough:N on step N), or of a
// model window's figure when a model folder was opened. False for an unknown view.
bool presentAtStart(attnlab::MainWindow& window, const QString& value)
{
    const QString view = value.section(QLatin1Char(':'), 0, 0);
    const int step = value.section(QLatin1Char(':'), 1, 1).toInt();
    if (attnlab::ModelPresenter::viewNames().contains(view)) {
        return attnlab::ModelWindow::instance()->presenter()->present(view);
    }
    auto* actions = window.findChild<attnlab::PresenterActions*>();
    if (!actions || !attnlab::PresenterActions::viewNames().contains(view)) return false;
    auto* walkthrough = window.findChild<attnlab::WalkthroughActions*>();
    if (step > 0 && walkthrough && walkthrough->tabPanel()) walkthrough->tabPanel()->setStep(step);
    return actions->present(view);
}

int benchUi(const QStringList& args)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QApplication::translate(
        "main", "Moves a key slider in the real window and times each repaint."));
    parser.addHelpOption();
    parser.addPositionalArgument(QStringLiteral("bench-ui"), QString());
    const QCommandLineOption sizes(
        QStringLiteral("sizes"), QApplication::translate("main", "Comma-separated n values."),
        QStringLiteral("list"), QStringLiteral("16,128,512,1024,2048,4096,8192"));
    const QCommandLineOption steps(QStringLiteral("steps"),
                                   QApplication::translate("main", "Slider steps per n."),
                                   QStringLiteral("count"), QStringLiteral("200"));
    const QCommandLineOption dk(QStringLiteral("dk"), QApplication::translate("main", "d_k."),
                                QStringLiteral("d"), QStringLiteral("64"));
    const QCommandLineOption model(
        QStringLiteral("model"),
        QApplication::translate("main", "A model folder: time a real head in the workbench."),
        QStringLiteral("dir"));
    const QCommandLineOption text(QStringLiteral("text"),
                                  QApplication::translate("main", "The model's text."),
                                  QStringLiteral("text"));
    const QCommandLineOption layers(
        QStringLiteral("layers"),
        QApplication::translate("main",
                                "Layers (from 1) whose head is opened; default first "
                                "and last."),
        QStringLiteral("list"));
    const QCommandLineOption head(QStringLiteral("head"),
                                  QApplication::translate("main", "The head (from 1)."),
                                  QStringLiteral("h"), QStringLiteral("1"));
    const QCommandLineOption train(
        QStringLiteral("train"),
        QApplication::translate("main",
                                "Train previous-token in the Trainer dock and time the window."));
    const QCommandLineOption seconds(QStringLiteral("seconds"),
                                     QApplication::translate("main", "How long to train."),
                                     QStringLiteral("s"), QStringLiteral("5"));
    parser.addOptions({sizes, steps, dk, model, text, layers, head, train, seconds});
    parser.process(args);
    if (parser.isSet(train)) {
        attnlab::TrainBenchmarkOptions t;
        t.seconds = std::max(0.5, parser.value(seconds).toDouble());
        QTextStream out(stdout);
        const attnlab::TrainBenchmarkResult r = attnlab::runTrainBenchmark(t, out);
        if (!r.error.isEmpty()) {
            qCritical("bench-ui: %s", qUtf8Printable(r.error));
            return 3;
        }
        return 0;
    }
    if (parser.isSet(model)) {
        attnlab::HeadBenchmarkOptions h;
        h.folder = parser.value(model);
        if (parser.isSet(text)) h.text = parser.value(text);
        for (const QString& s : parser.value(layers).split(QLatin1Char(','), Qt::SkipEmptyParts))
            h.layers << s.toInt();
        h.head = std::max(1, parser.value(head).toInt());
        h.steps = std::max(1, parser.isSet(steps) ? parser.value(steps).toInt() : 100);
        QTextStream out(stdout);
        const attnlab::HeadBenchmarkResult r = attnlab::runHeadBenchmark(h, out);
        if (!r.error.isEmpty()) {
            qCritical("bench-ui: %s", qUtf8Printable(r.error));
            return 3;
        }
        return 0;
    }
    attnlab::UiBenchmarkOptions o;
    o.sizes.clear();
    for (const QString& s : parser.value(sizes).split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        bool ok = false;
        const int n = s.toInt(&ok);
        if (!ok || n < 1) {
            qCritical("bench-ui: --sizes takes positive whole numbers");
            return 2;
        }
        o.sizes << n;
    }
    o.steps = std::max(1, parser.value(steps).toInt());
    o.dK = std::max(1, parser.value(dk).toInt());
    QTextStream out(stdout);
    attnlab::runUiBenchmark(o, out);
    return 0;
}

int benchModel(const QStringList& args)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QApplication::translate(
        "main", "Types into the real model window and times each re-run and repaint."));
    parser.addHelpOption();
    parser.addPositionalArgument(QStringLiteral("bench-model"), QString());
    parser.addPositionalArgument(QStringLiteral("dir"),
                                 QApplication::translate("main", "A model folder."));
    const QCommandLineOption tokens(QStringLiteral("tokens"),
                                    QApplication::translate("main", "Tokens of the text."),
                                    QStringLiteral("n"), QStringLiteral("32"));
    const QCommandLineOption keys(QStringLiteral("keys"),
                                  QApplication::translate("main", "Keystrokes to time."),
                                  QStringLiteral("count"), QStringLiteral("20"));
    parser.addOptions({tokens, keys});
    parser.process(args);
    if (parser.positionalArguments().size() < 2) {
        qCritical("bench-model: give a model folder");
        return 2;
    }
    attnlab::ModelTypingOptions o;
    o.folder = parser.positionalArguments().at(1);
    o.tokens = std::max(1, parser.value(tokens).toInt());
    o.keys = std::max(1, parser.value(keys).toInt());
    QTextStream out(stdout);
    const attnlab::ModelTypingResult r = attnlab::runModelTypingBenchmark(o, out);
    if (!r.error.isEmpty()) {
        qCritical("bench-model: %s", qUtf8Printable(r.error));
        return 3;
    }
    return 0;
}

}  // namespace

int main(int argc, char** argv)
{
    const bool headless = isHeadless(argc, argv);
    const bool cli = attnlab::cli::isCliCommand(argc, argv);
    if ((headless || cli) && qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    if (headless || cli) provideRuntimeDir();
    // Before QApplication, which takes arguments of its own (such as --session).
    const QStringList cliArgs = cli ? attnlab::cli::rawArguments(argc, argv) : QStringList();
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("AttnLab"));
    QApplication::setOrganizationName(QStringLiteral("AttnLab"));
    QApplication::setApplicationVersion(QStringLiteral(ATTNLAB_VERSION));
    if (headless && std::strcmp(argv[1], "bench-model") == 0)
        return benchModel(QApplication::arguments());
    if (headless) return benchUi(QApplication::arguments());
    if (cli) return attnlab::cli::runCli(cliArgs);
    // The saved language (View > Language), else the system's (LANG=zh_CN.UTF-8 → Chinese).
    attnlab::applySavedLanguage();
    // The installed menu entry and icon (cmake/AttnLabInstall.cmake): Wayland matches the
    // window to the desktop file by this name; X11 taskbars show the window icon. From the
    // build tree the themed icon is not found and the window has none, as before.
    QGuiApplication::setDesktopFileName(QStringLiteral("io.github.attnlab.AttnLab"));
    QApplication::setWindowIcon(QIcon::fromTheme(QStringLiteral("io.github.attnlab.AttnLab")));

    // attnlab [--recover] [FILE]: open FILE; --recover restores a crashed run's autosave
    // without asking (otherwise the window asks).
    QCommandLineParser gui;
    gui.addPositionalArgument(
        QStringLiteral("file"),
        QApplication::translate("main", "A session file, or a model folder, to open."),
        QStringLiteral("[FILE|MODEL_DIR]"));
    const QCommandLineOption recover(
        QStringLiteral("recover"),
        QApplication::translate("main", "Restore unsaved work of a crashed run without asking."));
    gui.addOption(recover);
    const QCommandLineOption lesson(
        QStringLiteral("lesson"),
        QApplication::translate("main", "Open a built-in lesson (see attnlab lessons)."),
        QStringLiteral("id"));
    gui.addOption(lesson);
    const QCommandLineOption present(
        QStringLiteral("present"),
        QApplication::translate(
            "main",
            "Start in the presenter view of a view: weights, difference, pipeline, heads, "
            "walkthrough (walkthrough:4 for step 4) or trainer; with a model folder: focus, grid "
            "or head-view."),
        QStringLiteral("view"));
    gui.addOption(present);
    gui.process(app);
    attnlab::MainWindow window;
    window.show();
    // Without a window manager (a bare X server, some kiosk setups) nothing activates a new
    // window, and its shortcuts do nothing until it is clicked.
    window.activateWindow();
    const bool recovered = window.fileActions()->offerRecovery(gui.isSet(recover));
    // First launch: the start page with the lessons (not over a file or a restored session).
    auto* lessons = window.findChild<attnlab::LessonActions*>();
    if (lessons && gui.isSet(lesson)) {
        if (!lessons->openLesson(gui.value(lesson))) {
            qCritical("attnlab: no lesson \"%s\" (attnlab lessons lists them)",
                      qUtf8Printable(gui.value(lesson)));
            return 2;
        }
    } else if (lessons && !recovered && gui.positionalArguments().isEmpty()) {
        lessons->showStartPageOnFirstLaunch();
    }
    if (!gui.positionalArguments().isEmpty()) {
        const QString path = gui.positionalArguments().first();
        // attnlab MODEL_DIR: a checkpoint folder opens in the real-model window.
        if (QFileInfo(path).isDir())
            window.fileActions()->openModelFolder(path);
        else
            window.openFile(path);
    }
    if (gui.isSet(present) && !presentAtStart(window, gui.value(present))) {
        qCritical("attnlab: cannot present \"%s\" (see attnlab --help)",
                  qUtf8Printable(gui.value(present)));
        return 2;
    }
    return QApplication::exec();
}
