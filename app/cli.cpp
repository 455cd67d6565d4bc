// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/cli.h"

#include <cmath>
#include <cstring>

#include <QCoreApplication>
#include <QFile>
#include <QTextStream>

#include "core/io/command_files.h"
#include "core/tokenize/unicode.h"
#include "ui/export/figure.h"
#include "ui/export/numbers_export.h"
#include "ui/readers/atomic_file.h"

namespace attnlab::cli {

namespace {

class CliTr {
    Q_DECLARE_TR_FUNCTIONS(attnlab::cli)
};

bool printTo(FILE* stream, const QString& text)
{
    QFile f;
    const QByteArray bytes = text.toUtf8();
    return f.open(stream, QIODevice::WriteOnly) && f.write(bytes) == bytes.size() && f.flush();
}

// The --edit paragraph, shared by render and compute.
QString editHelp()
{
    return CliTr::tr(
        "  --edit ROLE,head=H,index=I,scale=S[,component=C,value=X]\n"
        "            edits one projected vector, as the Keys / Queries / Values panels do:\n"
        "            ROLE is key, query or value; head, index (the token) and component\n"
        "            count from 1; scale multiplies the vector (and the session's own scale\n"
        "            of it); component=C,value=X sets one component before the scale.\n"
        "            Repeat for several vectors (each vector once), e.g. the textbook's\n"
        "            exercise: --edit key,head=1,index=3,scale=2 --stage diff.\n");
}

}  // namespace

bool isCliCommand(int argc, char** argv)
{
    if (argc < 2) return false;
    static const char* const commands[] = {
        "render",   "compute", "lessons", "model",  "train", "train-model", "heads", "models",
        "generate", "align",   "help",    "--help", "-h",    "--version",   "-v"};
    for (const char* c : commands)
        if (std::strcmp(argv[1], c) == 0) return true;
    return false;
}

QStringList rawArguments(int argc, char** argv)
{
    QStringList out;
    for (int i = 0; i < argc; ++i) out << QString::fromLocal8Bit(argv[i]);
    return out;
}

int refuseNonUtf8(int argc, char** argv)
{
    for (int i = 1; i < argc; ++i) {
        const std::string_view arg(argv[i]);
        for (std::size_t at = 0; at < arg.size();) {
            const std::size_t n = attn::tok::unicode::validSequenceLength(arg, at);
            if (n > 0) {
                at += n;
                continue;
            }
            const QString after =
                i > 1 ? CliTr::tr(" (after %1)").arg(QString::fromUtf8(argv[i - 1]).left(40))
                      : QString();
            return fail(WrongUsage, CliTr::tr("argument %1%2 is not valid UTF-8 at byte %3; "
                                              "AttnLab reads its arguments as UTF-8")
                                        .arg(i)
                                        .arg(after)
                                        .arg(at + 1));
        }
    }
    return Success;
}

QString usageText(const QString& command)
{
    const bool all = command.isEmpty();
    QString text;
    if (all) {
        text += CliTr::tr(
            "Usage: attnlab [FILE]\n"
            "  Opens the window, optionally with a session file (NAME.attnlab.json).\n\n");
    }
    if (all || command == QLatin1String("render")) {
        text +=
            CliTr::tr(
                "Usage: attnlab render (--session FILE | --lesson ID) [--stage STAGE]\n"
                "                      [--head N|all] -o OUT.png|OUT.svg|OUT.pdf\n"
                "                      [--width W] [--height H] [--scale S] "
                "[--range LO,HI|auto]\n"
                "                      [--aspect square|free] [--edit EDIT]...\n"
                "  Draws one figure: title, token labels, colour bar and a caption naming the\n"
                "  head and mode. SVG and PDF are vectors (cells are rectangles, text is text;\n"
                "  a map of over 256 x 256 cells has its cells as one pooled image).\n"
                "  --stage   %1 (default weights).\n"
                "            diff: the weights after minus before the vector edits (the\n"
                "            session's and --edit's; before = the session with no edits); a\n"
                "            session without edits needs an --edit. pipeline: the whole strip.\n"
                "  --head    head number from 1 (default 1), or all: one map per head.\n"
                "  --width, --height  size in pixels (PNG, SVG) or points (PDF); a default\n"
                "            fits the figure. --scale  PNG pixels per unit (2 or 3 for print).\n"
                "  --range   a fixed colour range for every map, e.g. 0,1, so that several\n"
                "            exports compare; auto: weights on their own range (default:\n"
                "            weights on [0, 1], other matrices on their own range).\n"
                "  --aspect  square: every cell as wide as high (default); free: the cells\n"
                "            fill the figure.\n"
                "%2\n")
                .arg(stageKeys().join(QStringLiteral(", ")), editHelp());
    }
    if (all || command == QLatin1String("compute")) {
        text += CliTr::tr(
            "Usage: attnlab compute (--session FILE | --lesson ID) [-o OUT.json|OUT.csv]\n"
            "                       [--edit EDIT]... [--max-output SIZE]\n"
            "  Every stage of every head. JSON (to stdout without -o): {\"tokens\",\n"
            "  \"heads\": [{\"Q\", \"K\", \"V\", \"scores\", \"scaled\", \"mask\", "
            "\"weights\",\n"
            "  \"output\"}, ...], \"concat\", \"output\" (through W_O), \"diagnostics\": "
            "[per head:\n"
            "  entropy, maxWeight, argmax (from 1, 0 = none), jacobianNorm, "
            "fullyMasked]};\n"
            "  matrices as lists of rows, the mask as booleans, numbers exact (the\n"
            "  shortest text that reads back as the same double, at most 17 digits).\n"
            "  OUT.csv: one long table with the columns head,stage,row,col,row_token,\n"
            "  col_token,value (rows, columns and heads from 1; head 0 holds concat and\n"
            "  output; diagnostics have an empty col, argmax from 1, 0 = none).\n"
            "  A run that would write more than 512 MiB is refused before it starts (exit\n"
            "  4, with the size and the memory it needs); --max-output 4G allows more.\n");
        text += all ? CliTr::tr("  --edit    as for render.\n\n") : editHelp() + QLatin1Char('\n');
    }
    if (all || command == QLatin1String("model")) text += modelUsage() + QLatin1Char('\n');
    if (all || command == QLatin1String("train")) text += trainUsage() + QLatin1Char('\n');
    if (all || command == QLatin1String("train-model"))
        text += trainModelUsage() + QLatin1Char('\n') + trainDatesUsage() + QLatin1Char('\n');
    if (all || command == QLatin1String("heads")) text += headsUsage() + QLatin1Char('\n');
    if (all || command == QLatin1String("generate")) text += generateUsage() + QLatin1Char('\n');
    if (all || command == QLatin1String("models")) text += modelsUsage() + QLatin1Char('\n');
    if (all || command == QLatin1String("align")) text += alignUsage() + QLatin1Char('\n');
    if (all || command == QLatin1String("lessons"))
        text += CliTr::tr(
            "Usage: attnlab lessons\n  Lists the built-in lessons: one per line, the id and "
            "the title.\n\n");
    if (all) {
        text += CliTr::tr(
            "attnlab --help | --version\n\n"
            "Exit status: 0 success, 2 wrong usage, 3 bad input file,\n"
            "4 an output that could not be written.\n");
    }
    return text;
}

int printOut(const QString& text)
{
    if (printTo(stdout, text)) return Success;
    return fail(WriteFailed, CliTr::tr("could not write to the standard output"));
}

void printErr(const QString& text)
{
    (void)printTo(stderr, text);
}

int usageError(const QString& command, const QString& message)
{
    (void)printTo(stderr, QStringLiteral("attnlab: %1\n\n").arg(message) + usageText(command));
    return WrongUsage;
}

int fail(int code, const QString& message)
{
    (void)printTo(stderr, QStringLiteral("attnlab: %1\n").arg(message));
    return code;
}

bool parseSize(const QString& text, std::size_t& out)
{
    QString t = text.trimmed().toUpper();
    if (t.endsWith(QLatin1Char('B'))) t.chop(1);
    int shift = 0;
    if (t.endsWith(QLatin1Char('K'))) shift = 10;
    if (t.endsWith(QLatin1Char('M'))) shift = 20;
    if (t.endsWith(QLatin1Char('G'))) shift = 30;
    if (shift) t.chop(1);
    bool ok = false;
    const double v = t.toDouble(&ok);
    if (!ok || !(v > 0) || v * std::ldexp(1.0, shift) > 1e18) return false;
    out = static_cast<std::size_t>(v * std::ldexp(1.0, shift));
    return true;
}

bool checkOutputs(const QStringList& paths, int& code)
{
    for (const QString& path : paths) {
        if (path.isEmpty()) continue;
        const attn::io::WriteStatus w =
            attn::io::reserveOutput(QFile::encodeName(path).toStdString());
        if (!w.ok()) {
            code = fail(WriteFailed, QStringLiteral("%1: %2").arg(path, writeProblemText(w)));
            return false;
        }
    }
    return true;
}

int writeOutput(const QString& path, const QByteArray& bytes)
{
    if (path.isEmpty()) {
        QFile stdOut;
        if (!stdOut.open(stdout, QIODevice::WriteOnly) || stdOut.write(bytes) != bytes.size() ||
            !stdOut.flush())
            return fail(WriteFailed, CliTr::tr("could not write to the standard output"));
        return Success;
    }
    QString error;
    if (!writeBytes(path, bytes, error)) return fail(WriteFailed, error);
    return Success;
}

int runCli(const QStringList& arguments)
{
    // No output of a command may overwrite one of its inputs or another of its outputs
    // (core/io/command_files.h): the file layer checks every read and write against this.
    const attn::io::CommandFiles files;
    const QStringList args = arguments.mid(1);
    const QString command = args.value(0);
    if (command == QLatin1String("--help") || command == QLatin1String("-h") ||
        command == QLatin1String("help")) {
        return printOut(usageText(args.size() > 1 ? args[1] : QString()));
    }
    if (command == QLatin1String("--version") || command == QLatin1String("-v")) {
        return printOut(QStringLiteral("attnlab %1\n").arg(QCoreApplication::applicationVersion()));
    }
    if (command == QLatin1String("render")) return runRender(args);
    if (command == QLatin1String("compute")) return runCompute(args);
    if (command == QLatin1String("lessons")) return runLessons(args);
    if (command == QLatin1String("model")) return runModel(args);
    if (command == QLatin1String("train")) return runTrain(args);
    if (command == QLatin1String("train-model")) return runTrainModel(args);
    if (command == QLatin1String("heads")) return runHeads(args);
    if (command == QLatin1String("generate")) return runGenerate(args);
    if (command == QLatin1String("models")) return runModels(args);
    if (command == QLatin1String("align")) return runAlign(args);
    return usageError(QString(), CliTr::tr("unknown command \"%1\"").arg(command));
}

}  // namespace attnlab::cli
