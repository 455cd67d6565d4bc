// SPDX-License-Identifier: GPL-3.0-or-later
// attnlab train: learns a session's W_Q and W_K (optionally W_V) on a task, headless.
#include <QCommandLineParser>
#include <QCoreApplication>

#include "app/cli.h"
#include "core/train/trainer.h"
#include "ui/document/train_ops.h"
#include "ui/readers/session_file.h"
#include "ui/readers/status_text.h"
#include "ui/train/pattern_file.h"
#include "ui/train/train_export.h"

namespace attnlab::cli {

namespace {

class CliTrainTr {
    Q_DECLARE_TR_FUNCTIONS(attnlab::cli)
};

const QCommandLineOption kSession(QStringLiteral("session"), QString(), QStringLiteral("file"));
const QCommandLineOption kLesson(QStringLiteral("lesson"), QString(), QStringLiteral("id"));
const QCommandLineOption kTask(QStringLiteral("task"), QString(), QStringLiteral("task"));
const QCommandLineOption kSteps(QStringLiteral("steps"), QString(), QStringLiteral("n"));
const QCommandLineOption kOptimizer(QStringLiteral("optimizer"), QString(), QStringLiteral("name"));
const QCommandLineOption kLearningRate(QStringLiteral("lr"), QString(), QStringLiteral("x"));
const QCommandLineOption kShared(QStringLiteral("shared"), QString());
const QCommandLineOption kValues(QStringLiteral("values"), QString());
const QCommandLineOption kSeed(QStringLiteral("seed"), QString(), QStringLiteral("n"));
const QCommandLineOption kHead(QStringLiteral("head"), QString(), QStringLiteral("h"));
const QCommandLineOption kCurve(QStringLiteral("curve"), QString(), QStringLiteral("file"));

constexpr int kMaxSteps = 1000000;

}  // namespace

QString trainUsage()
{
    return CliTrainTr::tr(
        "Usage: attnlab train (--session FILE | --lesson ID)\n"
        "                     --task previous-token|match|coref|pattern:FILE --steps N\n"
        "                     [--optimizer adam|sgd] [--lr X] [--shared] [--values]\n"
        "                     [--seed N] [--head H] -o TRAINED.attnlab.json [--curve C.csv]\n"
        "  Learns the session's W_Q and W_K by gradient descent so that head H (from 1,\n"
        "  default 1) attends as the task asks, with the session's mode, scaling and\n"
        "  scoring. previous-token: each token attends to the one before; match: to the\n"
        "  tokens of the same feature; coref: the textbook's 它 to 动物 (累) or 街 (宽)\n"
        "  (needs d_model >= 6); pattern:FILE: the session's own tokens, to the pattern in\n"
        "  FILE (CSV, one row per query) or to the weights of another session (.json).\n"
        "  A generated task's sequences come from --seed (default 1): the run is the same\n"
        "  on every machine. --shared: one projection for Q, K and V (the symmetric\n"
        "  scores X W W^T X^T); --values: W_V too, so that the output copies the attended\n"
        "  tokens. Defaults: adam, --lr 0.05 (sgd: 0.5). The trained session (for a\n"
        "  generated task, on the task's first sequence) goes to -o; --curve writes\n"
        "  step,loss (the loss before each step, then the final one).\n");
}

namespace {

// What attnlab train was asked for, checked before the session is read.
struct TrainRequest {
    attn::TaskSpec spec;
    QString patternFile;
    int steps = 0;
    attn::TrainSettings settings;
};

bool parseTrainRequest(QCommandLineParser& parser, const QStringList& args, TrainRequest& r,
                       int& code)
{
    const QString command = QStringLiteral("train");
    parser.addOptions({kSession, kLesson, kTask, kSteps, kOptimizer, kLearningRate, kShared,
                       kValues, kSeed, kHead, kCurve, kOutputOption});
    if (!parseCommand(parser, args, code)) return false;
    const auto refuse = [&](const QString& message) {
        code = usageError(command, message);
        return false;
    };
    if (!parser.isSet(kTask)) return refuse(CliTrainTr::tr("--task is required"));
    if (!parser.isSet(kSteps)) return refuse(CliTrainTr::tr("--steps is required"));
    if (!parser.isSet(kOutputOption))
        return refuse(CliTrainTr::tr("-o TRAINED.attnlab.json is required"));
    const QString taskText = parser.value(kTask);
    attn::TaskSpec& spec = r.spec;
    if (taskText.startsWith(QLatin1String("pattern:"))) {
        spec.kind = attn::TaskKind::Pattern;
        r.patternFile = taskText.mid(8);
        if (r.patternFile.isEmpty())
            return refuse(CliTrainTr::tr("--task pattern:FILE needs a file"));
    } else if (!attn::parseTaskKind(taskText.toStdString(), spec.kind) ||
               spec.kind == attn::TaskKind::Pattern) {
        return refuse(
            CliTrainTr::tr("--task \"%1\" is not previous-token, match, coref or pattern:FILE")
                .arg(taskText));
    }
    bool ok = false;
    r.steps = parser.value(kSteps).toInt(&ok);
    if (!ok || r.steps < 1 || r.steps > kMaxSteps)
        return refuse(CliTrainTr::tr("--steps must be a whole number from 1 to %1").arg(kMaxSteps));
    attn::TrainSettings& settings = r.settings;
    if (parser.isSet(kOptimizer) &&
        !attn::parseOptimizerKind(parser.value(kOptimizer).toUtf8().constData(),
                                  settings.optimizer.kind))
        return refuse(CliTrainTr::tr("--optimizer must be adam or sgd"));
    settings.optimizer.learningRate =
        settings.optimizer.kind == attn::OptimizerKind::Adam ? 0.05 : 0.5;
    if (parser.isSet(kLearningRate)) {
        settings.optimizer.learningRate = parser.value(kLearningRate).toDouble(&ok);
        if (!ok || !(settings.optimizer.learningRate > 0.0) ||
            !std::isfinite(settings.optimizer.learningRate))
            return refuse(CliTrainTr::tr("--lr must be a number above 0"));
    }
    if (parser.isSet(kSeed)) {
        spec.seed = parser.value(kSeed).toULongLong(&ok);
        if (!ok) return refuse(CliTrainTr::tr("--seed must be a whole number of 0 or more"));
    }
    settings.head = 0;
    if (parser.isSet(kHead)) {
        settings.head = parser.value(kHead).toInt(&ok) - 1;
        if (!ok || settings.head < 0) return refuse(CliTrainTr::tr("--head counts from 1"));
    }
    settings.shared = parser.isSet(kShared);
    settings.trainable.values = parser.isSet(kValues);
    return true;
}

// Fits the task to the loaded session (its size, its tokens, the pattern file); false, with
// `code`, when the session cannot be trained on it.
bool fitTaskToSession(const Session& session, const QString& name, TrainRequest& r, int& code)
{
    attn::TaskSpec& spec = r.spec;
    const int head = r.settings.head;
    if (head >= static_cast<int>(session.input.heads.size())) {
        code = usageError(QStringLiteral("train"),
                          CliTrainTr::tr("%1 has %n head(s); --head %2 does not exist", nullptr,
                                         static_cast<int>(session.input.heads.size()))
                              .arg(name)
                              .arg(head + 1));
        return false;
    }
    if (const QString why = ops::taskRefusal(spec.kind, session); !why.isEmpty()) {
        code = fail(BadInput, QStringLiteral("%1: %2").arg(name, why));
        return false;
    }
    spec.n = session.input.queryCount();
    spec.dModel = session.input.modelDim();
    if (spec.kind != attn::TaskKind::Pattern) return true;
    QString error;
    if (!readPatternFile(r.patternFile, head, spec.pattern, error)) {
        code = fail(BadInput, error);
        return false;
    }
    spec.X = session.input.X;
    for (const QString& t : session.targetTokens) spec.tokens.push_back(t.toStdString());
    if (spec.pattern.rows() != session.input.queryCount() ||
        spec.pattern.cols() != session.input.keyCount()) {
        code = fail(BadInput,
                    CliTrainTr::tr("%1: the pattern is %2 x %3, the session's weights %4 x %5")
                        .arg(r.patternFile)
                        .arg(spec.pattern.rows())
                        .arg(spec.pattern.cols())
                        .arg(session.input.queryCount())
                        .arg(session.input.keyCount()));
        return false;
    }
    return true;
}

// Runs the steps, writes the trained session (and the loss curve) and prints the summary.
int trainAndWrite(const Session& session, const QString& name, const TrainRequest& r,
                  const QString& outPath, const QString& curvePath)
{
    std::vector<attn::TrainExample> examples;
    if (attn::Status s = attn::makeTask(r.spec, examples); !s.ok())
        return fail(BadInput, QStringLiteral("%1: %2").arg(name, statusMessage(s)));
    attn::Trainer trainer;
    if (attn::Status s = attn::Trainer::create(session.input, r.spec.kind, std::move(examples),
                                               r.settings, trainer);
        !s.ok())
        return fail(BadInput, QStringLiteral("%1: %2").arg(name, statusMessage(s)));
    for (int k = 0; k < r.steps; ++k) {
        if (attn::Status s = trainer.step(); !s.ok())
            return fail(BadInput, CliTrainTr::tr("step %1: %2 (try a smaller --lr)")
                                      .arg(k + 1)
                                      .arg(statusMessage(s)));
    }
    double final = 0.0;
    (void)trainer.currentLoss(final);

    SessionFile out;
    out.session = ops::keepTraining(session, trainer).session;
    FileError fe;
    if (!writeSessionFile(outPath, out, fe)) return fail(WriteFailed, fe.message());
    if (!curvePath.isEmpty()) {
        if (int c = writeOutput(curvePath, lossCurveCsv(trainer.losses(), final)); c != Success)
            return c;
    }
    return printOut(CliTrainTr::tr("%1, %2 steps of %3: loss %4 -> %5\n")
                        .arg(QString::fromLatin1(attn::taskName(r.spec.kind)))
                        .arg(r.steps)
                        .arg(QString::fromLatin1(attn::optimizerName(r.settings.optimizer.kind)))
                        .arg(trainer.losses().front(), 0, 'g', 6)
                        .arg(final, 0, 'g', 6));
}

}  // namespace

int runTrain(const QStringList& args)
{
    QCommandLineParser parser;
    TrainRequest request;
    int code = Success;
    if (!parseTrainRequest(parser, args, request, code)) return code;

    Session session;
    QString name;
    if (!loadNamedSession(parser, kSession, kLesson, QStringLiteral("train"), session, name, code))
        return code;
    if (!checkOutputs({parser.value(kOutputOption), parser.value(kCurve)}, code)) return code;
    if (!fitTaskToSession(session, name, request, code)) return code;
    // An unset --curve is an empty value (parseCommand refuses an empty one given).
    return trainAndWrite(session, name, request, parser.value(kOutputOption),
                         parser.isSet(kCurve) ? parser.value(kCurve) : QString());
}

}  // namespace attnlab::cli
