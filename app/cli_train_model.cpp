// SPDX-License-Identifier: GPL-3.0-or-later
// attnlab train-model: trains a whole GPT-2 (core/train/gpt2_run.h) on the induction task or a
// corpus and writes it as a Hugging Face folder with its training.json.
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QRegularExpression>

#include "app/cli.h"
#include "core/io/command_files.h"
#include "core/train/gpt2_export.h"
#include "core/train/gpt2_run.h"
#include "core/train/run_arguments.h"
#include "ui/readers/atomic_file.h"
#include "ui/readers/status_text.h"

namespace attnlab::cli {

namespace {

class CliTrainModelTr {
    Q_DECLARE_TR_FUNCTIONS(attnlab::cli)
};

using attn::gpt2::ArgumentProblem;

QString optionName(const ArgumentProblem& p)
{
    return (p.option.size() == 1 ? QStringLiteral("-") : QStringLiteral("--")) +
           QString::fromStdString(p.option);
}

// What is wrong with the options, in the user's language.
QString argumentText(const ArgumentProblem& p)
{
    using Kind = ArgumentProblem::Kind;
    const QString option = optionName(p);
    const QString value = QString::fromStdString(p.value);
    switch (p.kind) {
    case Kind::None: break;
    case Kind::UnknownOption: return CliTrainModelTr::tr("unknown option %1").arg(option);
    case Kind::MissingValue: return CliTrainModelTr::tr("%1 needs a value").arg(option);
    case Kind::UnexpectedValue: return CliTrainModelTr::tr("%1 takes no value").arg(option);
    case Kind::Twice: return CliTrainModelTr::tr("%1 is given twice; give it once").arg(option);
    case Kind::Stray: return CliTrainModelTr::tr("\"%1\" is not an option").arg(value);
    case Kind::OutOfRange:
        if (p.range.whole)
            return CliTrainModelTr::tr("%1 must be a whole number from %2 to %3, not \"%4\"")
                .arg(option)
                .arg(p.range.lo)
                .arg(p.range.hi, 0, 'f', 0)
                .arg(value);
        return CliTrainModelTr::tr("%1 must be a number above %2 and at most %3, not \"%4\"")
            .arg(option)
            .arg(p.range.lo)
            .arg(p.range.hi)
            .arg(value);
    case Kind::NoData: return CliTrainModelTr::tr("give one of --task induction and --corpus FILE");
    case Kind::UnknownTask:
        return CliTrainModelTr::tr("--task \"%1\" is neither induction nor dates").arg(value);
    case Kind::NoOutput: return CliTrainModelTr::tr("-o DIR is required");
    case Kind::EmptyValue: return CliTrainModelTr::tr("%1 is given an empty file name").arg(option);
    }
    return QString::fromStdString(attn::gpt2::describe(p));
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

namespace {

// The ranges, from the table the options are read against (run_limits.h).
QString limitsUsage()
{
    QStringList ranges;
    for (const attn::gpt2::SettingRange& r : attn::gpt2::settingRanges())
        ranges << (r.whole ? QStringLiteral("--%1 %2-%3")
                                 .arg(QString::fromLatin1(r.option.data(),
                                                          static_cast<qsizetype>(r.option.size())))
                                 .arg(r.lo)
                                 .arg(r.hi, 0, 'f', 0)
                           : QStringLiteral("--%1 (%2, %3]")
                                 .arg(QString::fromLatin1(r.option.data(),
                                                          static_cast<qsizetype>(r.option.size())))
                                 .arg(r.lo)
                                 .arg(r.hi));
    return CliTrainModelTr::tr(
               "  Ranges: %1.\n"
               "  The induction task needs --context %2 or more. A corpus may be at most %3 MiB,\n"
               "  a run may hold at most %4 MiB of memory and write a training.json of at most\n"
               "  %5 MiB; beyond, it is refused before it starts, with its figures.\n"
               "  -o DIR is written whole: a new or empty folder, or one that AttnLab wrote (it\n"
               "  is replaced, and other files you put in it stay). The outputs are checked\n"
               "  before the first step.\n")
        .arg(ranges.join(QStringLiteral(", ")))
        .arg(attn::gpt2::kMinInductionContext)
        .arg(attn::gpt2::kMaxCorpusBytes >> 20)
        .arg(attn::gpt2::kMaxRunBytes >> 20)
        .arg(attn::gpt2::kMaxRecordBytes >> 20);
}

}  // namespace

QString quotedArgument(const QString& arg)
{
    if (!arg.isEmpty() && !arg.contains(QRegularExpression(QStringLiteral("[^A-Za-z0-9_./:=,+-]"))))
        return arg;
    QString q = arg;
    q.replace(QLatin1Char('\''), QStringLiteral("'\\''"));
    return QLatin1Char('\'') + q + QLatin1Char('\'');
}

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
               .arg(d.evalEvery) +
           limitsUsage();
}

namespace {

// Why ModelRun refused the request: a setting or its size is the user's to change (exit 2),
// the corpus is a bad input (exit 3).
int refusal(const attn::Status& s, const attn::gpt2::RunArguments& request)
{
    const QString corpus = QString::fromStdString(request.corpusPath);
    const QString command = QStringLiteral("train-model");
    if (s.code == attn::StatusCode::ConfigField)
        return usageError(command, QStringLiteral("--%1 %2").arg(QString::fromStdString(s.field),
                                                                 QString::fromStdString(s.detail)));
    if (s.code == attn::StatusCode::TooLarge) return usageError(command, statusMessage(s));
    if (s.code == attn::StatusCode::TokenizerSyntax && !corpus.isEmpty())
        return fail(
            BadInput,
            CliTrainModelTr::tr("%1 is not valid UTF-8 at byte %2").arg(corpus).arg(s.value));
    if (s.code == attn::StatusCode::TooLong && !corpus.isEmpty())
        return fail(BadInput, CliTrainModelTr::tr("%1 has %2 characters; one window of the context "
                                                  "needs %3")
                                  .arg(corpus)
                                  .arg(s.value)
                                  .arg(s.limit));
    if (s.code == attn::StatusCode::EmptyInput && !corpus.isEmpty())
        return fail(BadInput, CliTrainModelTr::tr("%1 holds no text").arg(corpus));
    return fail(BadInput, statusMessage(s));
}

// Every output of the run, checked before the first step: a run of minutes must not end in
// "cannot write". The folder and the curve are reserved (in the command's CommandFiles, which
// runCli opens) so that neither is the other, nor the corpus.
int checkOutputs(const attn::gpt2::RunArguments& request)
{
    const attn::io::WriteStatus folder =
        attn::io::reserveOutputFolder(request.output, attn::gpt2::modelFolderNames(),
                                      attn::gpt2::modelFolderPolicy(request.output));
    if (!folder.ok())
        return fail(WriteFailed,
                    QStringLiteral("%1: %2").arg(QFile::decodeName(request.output.c_str()),
                                                 writeProblemText(folder)));
    if (request.curve.empty()) return Success;
    const attn::io::WriteStatus curve = attn::io::reserveOutput(request.curve);
    if (!curve.ok())
        return fail(WriteFailed,
                    QStringLiteral("%1: %2").arg(QFile::decodeName(request.curve.c_str()),
                                                 writeProblemText(curve)));
    return Success;
}

// --task dates trains the translator, a command of its own (cli_train_dates.cpp).
bool isDatesTask(const QStringList& args)
{
    const qsizetype task = args.indexOf(QStringLiteral("--task"));
    return args.contains(QStringLiteral("--task=dates")) ||
           (task >= 0 && task + 1 < args.size() && args[task + 1] == QLatin1String("dates"));
}

}  // namespace

int runTrainModel(const QStringList& args)
{
    const QString command = QStringLiteral("train-model");
    if (isDatesTask(args)) return runTrainDates(args);
    std::vector<std::string> arguments;
    for (const QString& a : args.mid(1)) {
        if (a == QLatin1String("-h") || a == QLatin1String("--help"))
            return printOut(usageText(command));
        arguments.push_back(QFile::encodeName(a).toStdString());
    }
    attn::gpt2::RunArguments request;
    if (const ArgumentProblem p = attn::gpt2::parseRunArguments(arguments, request); !p.ok())
        return usageError(command, argumentText(p));
    attn::gpt2::RunSpec& spec = request.spec;
    if (!request.corpusPath.empty()) {
        if (const attn::Status s = attn::gpt2::readCorpus(request.corpusPath, spec.corpus); !s.ok())
            return fail(BadInput, statusMessage(s));
    }
    std::unique_ptr<attn::gpt2::ModelRun> run;
    if (attn::Status s = attn::gpt2::ModelRun::create(spec, run); !s.ok())
        return refusal(s, request);
    if (const int code = checkOutputs(request); code != Success) return code;
    QStringList words{QStringLiteral("attnlab")};
    for (const QString& a : args) words << quotedArgument(a);
    const std::string recorded = words.join(QLatin1Char(' ')).toStdString();

    run->setThreads(static_cast<int>(request.threads));
    QElapsedTimer clock;
    clock.start();
    std::size_t reported = 0;
    const long lastStep =
        request.stopAfter > 0 ? std::min(request.stopAfter, spec.steps) : spec.steps;
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
    const QString dir = QFile::decodeName(request.output.c_str());
    if (attn::Status s = run->write(request.output, recorded, seconds); !s.ok())
        return fail(WriteFailed, statusMessage(s));
    if (!request.curve.empty()) {
        if (int c = writeOutput(QFile::decodeName(request.curve.c_str()), curveCsv(*run));
            c != Success)
            return c;
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
