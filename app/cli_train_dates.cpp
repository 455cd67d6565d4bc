// SPDX-License-Identifier: GPL-3.0-or-later
// attnlab train-model --task dates: trains the Marian-layout translator of Chinese dates into
// English (core/train/dates_run.h) and writes it as a Marian folder with its training.json.
#include <QCommandLineParser>
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFile>

#include "app/cli.h"
#include "core/io/command_files.h"
#include "core/train/dates_run.h"
#include "core/train/gpt2_export.h"
#include "ui/readers/atomic_file.h"
#include "ui/readers/status_text.h"

namespace attnlab::cli {

namespace {

class CliTrainDatesTr {
    Q_DECLARE_TR_FUNCTIONS(attnlab::cli)
};

struct WholeOption {
    const char* name;
    long lo, hi;
    long attn::dates::RunSpec::*field;
};

constexpr WholeOption kWholeOptions[] = {
    {"layers", 1, 6, &attn::dates::RunSpec::encoderLayers},
    {"decoder-layers", 1, 6, &attn::dates::RunSpec::decoderLayers},
    {"heads", 1, 16, &attn::dates::RunSpec::heads},
    {"d-model", 8, 512, &attn::dates::RunSpec::channels},
    {"steps", 1, 1000000, &attn::dates::RunSpec::steps},
    {"batch", 1, 1024, &attn::dates::RunSpec::batch},
    {"measure-every", 0, 1000000, &attn::dates::RunSpec::measureEvery},
};

struct Extras {
    long threads = 1;
    long stopAfter = 0;  // 0: every step
};

QString rangeText(const QString& option, long lo, long hi, const QString& value)
{
    return CliTrainDatesTr::tr("%1 must be a whole number from %2 to %3, not \"%4\"")
        .arg(option)
        .arg(lo)
        .arg(hi)
        .arg(value);
}

// The options into `spec` and the rest; false with `code` set when the command must stop.
bool readOptions(const QCommandLineParser& p, attn::dates::RunSpec& spec, Extras& extras, int& code)
{
    const QString command = QStringLiteral("train-model");
    const auto whole = [&](const QString& name, long lo, long hi, long& out) {
        if (!p.isSet(name)) return true;
        bool ok = false;
        const long v = p.value(name).toLong(&ok);
        if (ok && v >= lo && v <= hi) {
            out = v;
            return true;
        }
        code = usageError(command, rangeText(QStringLiteral("--") + name, lo, hi, p.value(name)));
        return false;
    };
    for (const WholeOption& o : kWholeOptions)
        if (!whole(QLatin1String(o.name), o.lo, o.hi, spec.*o.field)) return false;
    long seed = static_cast<long>(spec.seed);
    if (!whole(QStringLiteral("seed"), 0, 1L << 53, seed) ||
        !whole(QStringLiteral("threads"), 1, 64, extras.threads) ||
        !whole(QStringLiteral("stop-after"), 1, spec.steps, extras.stopAfter))
        return false;
    spec.seed = static_cast<std::uint64_t>(seed);
    if (p.isSet(QStringLiteral("lr"))) {
        bool ok = false;
        spec.learningRate = p.value(QStringLiteral("lr")).toDouble(&ok);
        if (!ok || !(spec.learningRate > 0.0 && spec.learningRate <= 1.0)) {
            code = usageError(command,
                              CliTrainDatesTr::tr("--lr must be a number above 0 and at most 1, "
                                                  "not \"%1\"")
                                  .arg(p.value(QStringLiteral("lr"))));
            return false;
        }
    }
    if (spec.channels % spec.heads != 0) {
        code = usageError(command, CliTrainDatesTr::tr("--d-model %1 does not split into %2 heads")
                                       .arg(spec.channels)
                                       .arg(spec.heads));
        return false;
    }
    return true;
}

QString pointLine(const attn::dates::Point& p, long steps, double seconds)
{
    return CliTrainDatesTr::tr(
               "step %1/%2  loss %3  accuracy %4 %5 %6  alignment %7 (layer %8 "
               "head %9)  %10 s\n")
        .arg(p.step)
        .arg(steps)
        .arg(p.loss, 0, 'f', 4)
        .arg(p.accuracy[0], 0, 'f', 3)
        .arg(p.accuracy[1], 0, 'f', 3)
        .arg(p.accuracy[2], 0, 'f', 3)
        .arg(p.alignment.best, 0, 'f', 3)
        .arg(p.alignment.bestLayer + 1)
        .arg(p.alignment.bestHead + 1)
        .arg(seconds, 0, 'f', 1);
}

QByteArray datesCurve(const attn::dates::TranslatorRun& run)
{
    QByteArray out = "step,loss,accuracy_arabic,accuracy_chinese,accuracy_slashed,alignment\n";
    std::size_t next = 0;
    const auto& points = run.measures();
    for (std::size_t k = 0; k < run.losses().size(); ++k) {
        const long step = static_cast<long>(k) + 1;
        out += QByteArray::number(step) + ',' + QByteArray::number(run.losses()[k], 'g', 17);
        while (next < points.size() && points[next].step < step) ++next;
        if (next < points.size() && points[next].step == step) {
            for (double a : points[next].accuracy) out += ',' + QByteArray::number(a, 'g', 6);
            out += ',' + QByteArray::number(points[next].alignment.best, 'g', 6);
        } else {
            out += ",,,,";
        }
        out += '\n';
    }
    return out;
}

// The folder and the curve, reserved before the first step.
int reserveOutputs(const std::string& folder, const std::string& curve)
{
    std::vector<std::string> names = attn::dates::folderNames();
    const attn::io::WriteStatus f =
        attn::io::reserveOutputFolder(folder, names, attn::gpt2::modelFolderPolicy(folder));
    if (!f.ok())
        return fail(WriteFailed, QStringLiteral("%1: %2").arg(QFile::decodeName(folder.c_str()),
                                                              writeProblemText(f)));
    if (curve.empty()) return Success;
    const attn::io::WriteStatus c = attn::io::reserveOutput(curve);
    if (!c.ok())
        return fail(WriteFailed, QStringLiteral("%1: %2").arg(QFile::decodeName(curve.c_str()),
                                                              writeProblemText(c)));
    return Success;
}

}  // namespace

QString trainDatesUsage()
{
    const attn::dates::RunSpec d;
    return CliTrainDatesTr::
        tr("Usage: attnlab train-model --task dates [--layers L] [--decoder-layers L]\n"
           "                           [--heads H] [--d-model D] [--steps S] [--batch B]\n"
           "                           [--lr X] [--seed K] [--threads n]\n"
           "                           [--measure-every S] [--stop-after S] -o DIR\n"
           "                           [--curve C.csv]\n"
           "  Trains a Marian-layout encoder-decoder to translate Chinese dates (2026年12月4日,\n"
           "  二〇二六年十二月四日, 2026/12/4) into English (December 4, 2026) and writes a\n"
           "  Marian folder (config.json, model.safetensors, source.spm, target.spm,\n"
           "  vocab.json, tokenizer_config.json, generation_config.json, training.json).\n"
           "  Every S steps it measures the exact-match accuracy of greedy translations of\n"
           "  held-out dates in each form (those whose year + month + day is divisible by\n"
           "  10, never trained on) and every cross-attention head's alignment; after the\n"
           "  last step, on 1000 dates per form.\n"
           "  Defaults: --layers %1 --decoder-layers %2 --heads %3 --d-model %4 --steps %5\n"
           "  --batch %6 --lr %7 --seed 1 --threads 1 --measure-every %8.\n"
           "  The same command gives the same model, bit for bit, on one machine.\n"
           "  --stop-after S: stop after step S of the same run (its schedule unchanged).\n"
           "  --curve writes step,loss and, where measured, the three accuracies and the\n"
           "  best head's alignment.\n")
            .arg(d.encoderLayers)
            .arg(d.decoderLayers)
            .arg(d.heads)
            .arg(d.channels)
            .arg(d.steps)
            .arg(d.batch)
            .arg(d.learningRate)
            .arg(d.measureEvery);
}

int runTrainDates(const QStringList& args)
{
    const QString command = QStringLiteral("train-model");
    QCommandLineParser p;
    p.addOption({QStringLiteral("task"), QString(), QStringLiteral("name")});
    for (const WholeOption& o : kWholeOptions)
        p.addOption({QLatin1String(o.name), QString(), QStringLiteral("n")});
    for (const char* name : {"seed", "threads", "lr", "curve", "stop-after"})
        p.addOption({QLatin1String(name), QString(), QStringLiteral("value")});
    p.addOption(kOutputOption);
    int code = Success;
    if (!parseCommand(p, args, code)) return code;
    if (!p.positionalArguments().isEmpty())
        return usageError(command, CliTrainDatesTr::tr("\"%1\" is not an option")
                                       .arg(p.positionalArguments().constFirst()));
    attn::dates::RunSpec spec;
    Extras extras;
    if (!readOptions(p, spec, extras, code)) return code;
    if (!p.isSet(kOutputOption) || p.value(kOutputOption).isEmpty())
        return usageError(command, CliTrainDatesTr::tr("-o DIR is required"));
    const std::string folder = QFile::encodeName(p.value(kOutputOption)).toStdString();
    const std::string curve = QFile::encodeName(p.value(QStringLiteral("curve"))).toStdString();
    if (const int c = reserveOutputs(folder, curve); c != Success) return c;
    std::unique_ptr<attn::dates::TranslatorRun> run;
    if (attn::Status s = attn::dates::TranslatorRun::create(spec, run); !s.ok())
        return fail(BadInput, statusMessage(s));
    run->setThreads(static_cast<int>(extras.threads));
    QStringList words{QStringLiteral("attnlab")};
    for (const QString& a : args) words << quotedArgument(a);
    QElapsedTimer clock;
    clock.start();
    std::size_t reported = 0;
    const long lastStep = extras.stopAfter > 0 ? extras.stopAfter : spec.steps;
    while (run->trainer().steps() < lastStep) {
        if (attn::Status s = run->step(); !s.ok())
            return fail(BadInput, CliTrainDatesTr::tr("step %1: %2 (try a smaller --lr)")
                                      .arg(run->trainer().steps() + 1)
                                      .arg(statusMessage(s)));
        for (; reported < run->measures().size(); ++reported)
            printErr(pointLine(run->measures()[reported], spec.steps,
                               static_cast<double>(clock.elapsed()) / 1000.0));
    }
    run->finish();
    const double seconds = static_cast<double>(clock.elapsed()) / 1000.0;
    if (attn::Status s = run->write(folder, words.join(QLatin1Char(' ')).toStdString(), seconds);
        !s.ok())
        return fail(WriteFailed, statusMessage(s));
    if (!curve.empty())
        if (const int c = writeOutput(QFile::decodeName(curve.c_str()), datesCurve(*run));
            c != Success)
            return c;
    const attn::dates::Point& last = run->measures().back();
    return printOut(CliTrainDatesTr::tr("%1: %2 steps in %3 s, loss %4, accuracy %5 %6 %7 "
                                        "(arabic chinese slashed), alignment %8 (layer %9 head "
                                        "%10)\n")
                        .arg(p.value(kOutputOption))
                        .arg(run->trainer().steps())
                        .arg(seconds, 0, 'f', 1)
                        .arg(last.loss, 0, 'f', 4)
                        .arg(last.accuracy[0], 0, 'f', 4)
                        .arg(last.accuracy[1], 0, 'f', 4)
                        .arg(last.accuracy[2], 0, 'f', 4)
                        .arg(last.alignment.best, 0, 'f', 3)
                        .arg(last.alignment.bestLayer + 1)
                        .arg(last.alignment.bestHead + 1));
}

}  // namespace attnlab::cli
