// SPDX-License-Identifier: GPL-3.0-or-later
// attnlab-bench: the window's own benchmarks, kept out of the installed program. It drives the
// real window offscreen, so it measures what a user waits for: the repaint, not just the core.
//   attnlab-bench ui [--sizes LIST] [--steps N] [--dk D]       time slider updates
//   attnlab-bench ui --model DIR [--text T] [--layers LIST] [--head H] [--steps N]
//   attnlab-bench ui --train [--seconds S]                     the window while the Trainer trains
//   attnlab-bench model DIR [--tokens N] [--keys K]            typing into the real-model window
//   attnlab-bench model DIR --long N                           a long text's first model view
#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <sys/stat.h>
#include <unistd.h>

#include <QApplication>
#include <QCommandLineParser>
#include <QTextStream>

#include "bench/ui/head_benchmark.h"
#include "bench/ui/model_long_benchmark.h"
#include "bench/ui/model_typing_benchmark.h"
#include "bench/ui/slider_benchmark.h"
#include "bench/ui/train_benchmark.h"

namespace {

// Benchmarks run where no session manager set XDG_RUNTIME_DIR (ssh, CI); Qt then warns on every
// run before using /tmp/runtime-UID. Make that folder (private) as the program does.
void provideRuntimeDir()
{
    if (!qEnvironmentVariableIsEmpty("XDG_RUNTIME_DIR")) return;
    const QByteArray dir = QByteArray("/tmp/runtime-") + QByteArray::number(::getuid());
    struct stat st {};
    if (::mkdir(dir.constData(), 0700) != 0 && errno != EEXIST) return;
    if (::stat(dir.constData(), &st) != 0 || st.st_uid != ::getuid() || (st.st_mode & 077) != 0)
        return;
    qputenv("XDG_RUNTIME_DIR", dir);
}

const char* kUsage =
    "Usage: attnlab-bench ui [--sizes LIST] [--steps N] [--dk D]\n"
    "  Times slider updates in the real window (offscreen).\n"
    "       attnlab-bench ui --model DIR [--text T] [--layers LIST] [--head H] [--steps N]\n"
    "  Times a key slider on a real head in the workbench, carried through the\n"
    "  model (the map, the later layers and the predictions).\n"
    "       attnlab-bench ui --train [--seconds S]\n"
    "  Trains previous-token in the Trainer dock at full speed and times the\n"
    "  window's frames and the training steps per second.\n"
    "       attnlab-bench model DIR [--tokens N] [--keys K]\n"
    "  Types into the real model window and times each re-run and repaint.\n"
    "       attnlab-bench model DIR --long N\n"
    "  Times a text of N tokens to its first model view, then every head's whole map.\n";

int benchUi(const QStringList& args)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Moves a key slider in the real window and times each repaint."));
    parser.addHelpOption();
    parser.addPositionalArgument(QStringLiteral("ui"), QString());
    const QCommandLineOption sizes(
        QStringLiteral("sizes"), QStringLiteral("Comma-separated n values."),
        QStringLiteral("list"), QStringLiteral("16,128,512,1024,2048,4096,8192"));
    const QCommandLineOption steps(QStringLiteral("steps"), QStringLiteral("Slider steps per n."),
                                   QStringLiteral("count"), QStringLiteral("200"));
    const QCommandLineOption dk(QStringLiteral("dk"), QStringLiteral("d_k."), QStringLiteral("d"),
                                QStringLiteral("64"));
    const QCommandLineOption model(QStringLiteral("model"),
                                   QStringLiteral("A model folder: time a real head in the "
                                                  "workbench."),
                                   QStringLiteral("dir"));
    const QCommandLineOption text(QStringLiteral("text"), QStringLiteral("The model's text."),
                                  QStringLiteral("text"));
    const QCommandLineOption layers(
        QStringLiteral("layers"),
        QStringLiteral("Layers (from 1) whose head is opened; default first and last."),
        QStringLiteral("list"));
    const QCommandLineOption head(QStringLiteral("head"), QStringLiteral("The head (from 1)."),
                                  QStringLiteral("h"), QStringLiteral("1"));
    const QCommandLineOption train(
        QStringLiteral("train"),
        QStringLiteral("Train previous-token in the Trainer dock and time the window."));
    const QCommandLineOption seconds(QStringLiteral("seconds"),
                                     QStringLiteral("How long to train."), QStringLiteral("s"),
                                     QStringLiteral("5"));
    parser.addOptions({sizes, steps, dk, model, text, layers, head, train, seconds});
    parser.process(args);
    QTextStream out(stdout);
    if (parser.isSet(train)) {
        attnlab::TrainBenchmarkOptions t;
        t.seconds = std::max(0.5, parser.value(seconds).toDouble());
        const attnlab::TrainBenchmarkResult r = attnlab::runTrainBenchmark(t, out);
        if (!r.error.isEmpty()) {
            qCritical("attnlab-bench ui: %s", qUtf8Printable(r.error));
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
        const attnlab::HeadBenchmarkResult r = attnlab::runHeadBenchmark(h, out);
        if (!r.error.isEmpty()) {
            qCritical("attnlab-bench ui: %s", qUtf8Printable(r.error));
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
            qCritical("attnlab-bench ui: --sizes takes positive whole numbers");
            return 2;
        }
        o.sizes << n;
    }
    o.steps = std::max(1, parser.value(steps).toInt());
    o.dK = std::max(1, parser.value(dk).toInt());
    attnlab::runUiBenchmark(o, out);
    return 0;
}

int benchModel(const QStringList& args)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Types into the real model window and times each re-run and repaint."));
    parser.addHelpOption();
    parser.addPositionalArgument(QStringLiteral("model"), QString());
    parser.addPositionalArgument(QStringLiteral("dir"), QStringLiteral("A model folder."));
    const QCommandLineOption tokens(QStringLiteral("tokens"), QStringLiteral("Tokens of the text."),
                                    QStringLiteral("n"), QStringLiteral("32"));
    const QCommandLineOption keys(QStringLiteral("keys"), QStringLiteral("Keystrokes to time."),
                                  QStringLiteral("count"), QStringLiteral("20"));
    const QCommandLineOption longText(
        QStringLiteral("long"),
        QStringLiteral("Time a text of this many tokens to its first model view, then every "
                       "head's whole map, instead of typing."),
        QStringLiteral("n"));
    parser.addOptions({tokens, keys, longText});
    parser.process(args);
    if (parser.positionalArguments().size() < 2) {
        qCritical("attnlab-bench model: give a model folder");
        return 2;
    }
    QTextStream out(stdout);
    if (parser.isSet(longText)) {
        attnlab::ModelLongOptions lo;
        lo.folder = parser.positionalArguments().at(1);
        lo.tokens = std::max(1, parser.value(longText).toInt());
        const attnlab::ModelLongResult r = attnlab::runModelLongBenchmark(lo, out);
        if (!r.error.isEmpty()) {
            qCritical("attnlab-bench model --long: %s", qUtf8Printable(r.error));
            return 3;
        }
        return 0;
    }
    attnlab::ModelTypingOptions o;
    o.folder = parser.positionalArguments().at(1);
    o.tokens = std::max(1, parser.value(tokens).toInt());
    o.keys = std::max(1, parser.value(keys).toInt());
    const attnlab::ModelTypingResult r = attnlab::runModelTypingBenchmark(o, out);
    if (!r.error.isEmpty()) {
        qCritical("attnlab-bench model: %s", qUtf8Printable(r.error));
        return 3;
    }
    return 0;
}

}  // namespace

int main(int argc, char** argv)
{
    const char* command = argc > 1 ? argv[1] : "";
    const bool ui = std::strcmp(command, "ui") == 0;
    const bool model = std::strcmp(command, "model") == 0;
    if (!ui && !model) {
        const bool help = std::strcmp(command, "--help") == 0 || std::strcmp(command, "-h") == 0;
        std::fputs(kUsage, help ? stdout : stderr);
        return help ? 0 : 2;
    }
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
    provideRuntimeDir();
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("AttnLab"));
    QApplication::setOrganizationName(QStringLiteral("AttnLab"));
    return ui ? benchUi(QApplication::arguments()) : benchModel(QApplication::arguments());
}
