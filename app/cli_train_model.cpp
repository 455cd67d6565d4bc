// SPDX-License-Identifier: GPL-3.0-or-later
// attnlab train-model: trains a whole GPT-2 (core/train/gpt2_run.h) on the induction task or a
// corpus and writes it as a Hugging Face folder with its training.json.
#include <QCommandLineParser>
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QRegularExpression>

#include "app/cli.h"
#include "core/train/gpt2_run.h"
#include "ui/readers/status_text.h"

namespace attnlab::cli {

namespace {

class CliTrainModelTr {
    Q_DECLARE_TR_FUNCTIONS(attnlab::cli)
};

const QCommandLineOption kTaskOption(QStringLiteral("task"), QString(), QStringLiteral("task"));
const QCommandLineOption kCorpus(QStringLiteral("corpus"), QString(), QStringLiteral("file"));
const QCommandLineOption kLayers(QStringLiteral("layers"), QString(), QStringLiteral("L"));
const QCommandLineOption kHeads(QStringLiteral("heads"), QString(), QStringLiteral("H"));
const QCommandLineOption kDModel(QStringLiteral("d-model"), QString(), QStringLiteral("D"));
const QCommandLineOption kContext(QStringLiteral("context"), QString(), QStringLiteral("N"));
const QCommandLineOption kAttentionOnly(QStringLiteral("attention-only"), QString());
const QCommandLineOption kStepsOption(QStringLiteral("steps"), QString(), QStringLiteral("S"));
const QCommandLineOption kBatch(QStringLiteral("batch"), QString(), QStringLiteral("B"));
const QCommandLineOption kRate(QStringLiteral("lr"), QString(), QStringLiteral("X"));
const QCommandLineOption kSeedOption(QStringLiteral("seed"), QString(), QStringLiteral("K"));
const QCommandLineOption kCurveOption(QStringLiteral("curve"), QString(), QStringLiteral("file"));
const QCommandLineOption kThreads(QStringLiteral("threads"), QString(), QStringLiteral("n"));
const QCommandLineOption kInitStd(QStringLiteral("init-std"), QString(), QStringLiteral("X"));
const QCommandLineOption kWarmup(QStringLiteral("warmup"), QString(), QStringLiteral("S"));
const QCommandLineOption kFinalFraction(QStringLiteral("final-lr"), QString(), QStringLiteral("F"));
const QCommandLineOption kStopAfter(QStringLiteral("stop-after"), QString(), QStringLiteral("S"));
const QCommandLineOption kEvalEvery(QStringLiteral("measure-every"), QString(),
                                    QStringLiteral("S"));

// A number in (0, hi] from option `o`, or a usage error.
bool numberOption(const QCommandLineParser& p, const QCommandLineOption& o, double hi,
                  double& value, int& code)
{
    if (!p.isSet(o)) return true;
    bool ok = false;
    const double v = p.value(o).toDouble(&ok);
    if (ok && v > 0.0 && v <= hi) {
        value = v;
        return true;
    }
    code = usageError(QStringLiteral("train-model"),
                      CliTrainModelTr::tr("--%1 must be a number above 0 and at most %2")
                          .arg(o.names().constFirst())
                          .arg(hi));
    return false;
}

constexpr long kMaxSize = 4096;
constexpr long kMaxStepCount = 10000000;

// A whole number in [lo, hi] from option `o`, or a usage error.
bool wholeOption(const QCommandLineParser& p, const QCommandLineOption& o, long lo, long hi,
                 long& value, int& code)
{
    if (!p.isSet(o)) return true;
    bool ok = false;
    const qlonglong v = p.value(o).toLongLong(&ok);
    if (ok && v >= lo && v <= hi) {
        value = static_cast<long>(v);
        return true;
    }
    code = usageError(QStringLiteral("train-model"),
                      CliTrainModelTr::tr("--%1 must be a whole number from %2 to %3")
                          .arg(o.names().constFirst())
                          .arg(lo)
                          .arg(hi));
    return false;
}

QString quoted(const QString& arg)
{
    if (!arg.isEmpty() && !arg.contains(QRegularExpression(QStringLiteral("[^A-Za-z0-9_./:=,+-]"))))
        return arg;
    QString q = arg;
    q.replace(QLatin1Char('\''), QStringLiteral("'\\''"));
    return QLatin1Char('\'') + q + QLatin1Char('\'');
}

QByteArray curveCsv(const attn::gpt2::ModelRun& run)
{
    QByteArray out = "step,loss,copy_accuracy\n";
    std::size_t next = 0;
    const auto& measures = run.measures();
    for (std::size_t k = 0; k < run.losses().size(); ++k) {
        const long step = static_cast<long>(k) + 1;
        out += QByteArray::number(step) + ',' + QByteArray::number(run.losses()[k], 'g', 17) + ',';
        while (next < measures.size() && measures[next].step < step) ++next;
        if (next < measures.size() && measures[next].step == step &&
            measures[next].copyAccuracy >= 0.0)
            out += QByteArray::number(measures[next].copyAccuracy, 'g', 6);
        out += '\n';
    }
    return out;
}

}  // namespace

QString trainModelUsage()
{
    const attn::gpt2::RunSpec d;
    return CliTrainModelTr::tr(
               "Usage: attnlab train-model (--task induction | --corpus FILE) [--layers L]\n"
               "                           [--heads H] [--d-model D] [--context N]\n"
               "                           [--attention-only] [--steps S] [--batch B] [--lr X]\n"
               "                           [--seed K] [--threads n] -o DIR [--curve C.csv]\n"
               "                           [--init-std X] [--warmup S] [--final-lr F]\n"
               "                           [--measure-every S] [--stop-after S]\n"
               "  Trains a whole GPT-2 (token and position embeddings, pre-LN blocks of causal\n"
               "  attention and, without --attention-only, an MLP; tied unembedding) by AdamW on\n"
               "  next-token prediction, and writes a Hugging Face GPT-2 folder: config.json,\n"
               "  model.safetensors, vocab.json, merges.txt and training.json (the command, the\n"
               "  seed, the loss of every step, and every S steps the copy accuracy and every\n"
               "  head's scores). The folder opens in the model window and in attnlab model.\n"
               "  induction: random lowercase letters with repeats of varying length and place;\n"
               "  copy accuracy is measured on sequences of N letters in which a segment of 8\n"
               "  to 3N/8 letters is repeated right after itself.\n"
               "  --corpus FILE: any UTF-8 text, one token per distinct character.\n"
               "  Defaults: --layers 2 --heads 4 --d-model 64 --context 64 --steps %1\n"
               "  --batch 32 --lr %2 --seed 1 --threads 1 --init-std %3 (weights drawn from\n"
               "  N(0, X^2)) --warmup %4 (steps of linear warm-up) --final-lr %5 (the cosine\n"
               "  decay's floor, a fraction of --lr; 1: constant) --measure-every %6.\n"
               "  The same command gives the same model, bit for bit, on one machine.\n"
               "  --stop-after S: stop after step S of the same run (its schedule unchanged),\n"
               "  to check a recorded run's first steps.\n"
               "  --curve writes step,loss,copy_accuracy.\n")
        .arg(d.steps)
        .arg(d.learningRate)
        .arg(d.initStd)
        .arg(d.warmup)
        .arg(d.finalFraction)
        .arg(d.evalEvery);
}

int runTrainModel(const QStringList& args)
{
    const QString command = QStringLiteral("train-model");
    QCommandLineParser parser;
    parser.addOptions({kTaskOption, kCorpus, kLayers, kHeads, kDModel, kContext, kAttentionOnly,
                       kStepsOption, kBatch, kRate, kSeedOption, kCurveOption, kThreads, kInitStd,
                       kWarmup, kFinalFraction, kEvalEvery, kStopAfter, kOutputOption});
    int code = Success;
    if (!parseCommand(parser, args, code)) return code;
    attn::gpt2::RunSpec spec;
    if (parser.isSet(kTaskOption) == parser.isSet(kCorpus))
        return usageError(command,
                          CliTrainModelTr::tr("give one of --task induction and --corpus FILE"));
    if (parser.isSet(kTaskOption) && parser.value(kTaskOption) != QLatin1String("induction"))
        return usageError(
            command,
            CliTrainModelTr::tr("--task \"%1\" is not induction").arg(parser.value(kTaskOption)));
    if (!parser.isSet(kOutputOption))
        return usageError(command, CliTrainModelTr::tr("-o DIR is required"));
    long seed = 1, threads = 1, stopAfter = 0;
    if (!wholeOption(parser, kLayers, 1, 64, spec.layers, code) ||
        !wholeOption(parser, kHeads, 1, 64, spec.heads, code) ||
        !wholeOption(parser, kDModel, 1, kMaxSize, spec.channels, code) ||
        !wholeOption(parser, kContext, 2, kMaxSize, spec.context, code) ||
        !wholeOption(parser, kStepsOption, 1, kMaxStepCount, spec.steps, code) ||
        !wholeOption(parser, kBatch, 1, kMaxSize, spec.batch, code) ||
        !wholeOption(parser, kSeedOption, 0, 2147483647L, seed, code) ||
        !wholeOption(parser, kThreads, 1, 64, threads, code) ||
        !wholeOption(parser, kWarmup, 0, kMaxStepCount, spec.warmup, code) ||
        !wholeOption(parser, kEvalEvery, 0, kMaxStepCount, spec.evalEvery, code) ||
        !wholeOption(parser, kStopAfter, 1, kMaxStepCount, stopAfter, code) ||
        !numberOption(parser, kInitStd, 10.0, spec.initStd, code) ||
        !numberOption(parser, kFinalFraction, 1.0, spec.finalFraction, code) ||
        !numberOption(parser, kRate, 10.0, spec.learningRate, code))
        return code;
    spec.seed = static_cast<std::uint64_t>(seed);
    if (spec.channels % spec.heads != 0)
        return usageError(command,
                          CliTrainModelTr::tr("--d-model %1 is not a multiple of --heads %2")
                              .arg(spec.channels)
                              .arg(spec.heads));
    spec.attentionOnly = parser.isSet(kAttentionOnly);
    if (parser.isSet(kCorpus)) {
        const QString path = parser.value(kCorpus);
        QFile f(path);
        if (!f.open(QIODevice::ReadOnly))
            return fail(BadInput, CliTrainModelTr::tr("%1: %2").arg(path, f.errorString()));
        const QByteArray bytes = f.readAll();
        spec.data = attn::gpt2::DataKind::Corpus;
        spec.corpus.assign(bytes.constData(), static_cast<std::size_t>(bytes.size()));
        spec.corpusName = path.toStdString();
    }
    std::unique_ptr<attn::gpt2::ModelRun> run;
    if (attn::Status s = attn::gpt2::ModelRun::create(spec, run); !s.ok()) {
        const QString corpus = parser.value(kCorpus);
        if (s.code == attn::StatusCode::TokenizerSyntax && parser.isSet(kCorpus))
            return fail(
                BadInput,
                CliTrainModelTr::tr("%1 is not valid UTF-8 at byte %2").arg(corpus).arg(s.value));
        if (s.code == attn::StatusCode::TooLong && parser.isSet(kCorpus))
            return fail(BadInput,
                        CliTrainModelTr::tr("%1 has %2 characters; one window of the context "
                                            "needs %3")
                            .arg(corpus)
                            .arg(s.value)
                            .arg(s.limit));
        if (s.code == attn::StatusCode::EmptyInput && parser.isSet(kCorpus))
            return fail(BadInput, CliTrainModelTr::tr("%1 holds no text").arg(corpus));
        return fail(BadInput, statusMessage(s));
    }
    QStringList words{QStringLiteral("attnlab")};
    for (const QString& a : args) words << quoted(a);
    const std::string recorded = words.join(QLatin1Char(' ')).toStdString();

    run->setThreads(static_cast<int>(threads));
    QElapsedTimer clock;
    clock.start();
    std::size_t reported = 0;
    const long lastStep = stopAfter > 0 ? std::min(stopAfter, spec.steps) : spec.steps;
    while (run->trainer().steps() < lastStep) {
        if (attn::Status s = run->step(); !s.ok())
            return fail(BadInput, CliTrainModelTr::tr("step %1: %2 (try a smaller --lr)")
                                      .arg(run->trainer().steps() + 1)
                                      .arg(statusMessage(s)));
        for (; reported < run->measures().size(); ++reported) {
            const attn::gpt2::Measure& m = run->measures()[reported];
            QString line = CliTrainModelTr::tr("step %1/%2  loss %3")
                               .arg(m.step)
                               .arg(spec.steps)
                               .arg(m.loss, 0, 'f', 4);
            if (m.copyAccuracy >= 0.0)
                line += CliTrainModelTr::tr("  copy accuracy %1").arg(m.copyAccuracy, 0, 'f', 3);
            int layer = -1, head = -1;
            attn::bestHead(m.heads, attn::HeadKind::Induction, layer, head);
            if (layer >= 0)
                line += CliTrainModelTr::tr("  induction %1 (layer %2 head %3)")
                            .arg(attn::scoreOf(m.heads[layer][head], attn::HeadKind::Induction), 0,
                                 'f', 2)
                            .arg(layer + 1)
                            .arg(head + 1);
            printErr(line +
                     CliTrainModelTr::tr("  %1 s\n").arg(clock.elapsed() / 1000.0, 0, 'f', 1));
        }
    }
    if (run->measures().empty() || run->measures().back().step != run->trainer().steps())
        run->measure();  // stopped early: the state it stopped in
    const double seconds = static_cast<double>(clock.elapsed()) / 1000.0;
    const QString dir = parser.value(kOutputOption);
    if (attn::Status s = run->write(dir.toStdString(), recorded, seconds); !s.ok())
        return fail(WriteFailed, statusMessage(s));
    if (parser.isSet(kCurveOption)) {
        if (int c = writeOutput(parser.value(kCurveOption), curveCsv(*run)); c != Success) return c;
    }
    const attn::gpt2::Measure& last = run->measures().back();
    QString summary = CliTrainModelTr::tr("%1: %2 steps in %3 s, loss %4")
                          .arg(dir)
                          .arg(run->trainer().steps())
                          .arg(seconds, 0, 'f', 1)
                          .arg(last.loss, 0, 'f', 4);
    if (last.copyAccuracy >= 0.0)
        summary += CliTrainModelTr::tr(", copy accuracy %1").arg(last.copyAccuracy, 0, 'f', 3);
    return printOut(summary + QLatin1Char('\n'));
}

}  // namespace attnlab::cli
