// SPDX-License-Identifier: GPL-3.0-or-later
// attnlab render / compute / lessons: parse, load the session, ask the core, write.
#include <cmath>
#include <functional>

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QFile>
#include <QFileInfo>
#include <QLocale>

#include "app/cli.h"
#include "app/cli_edits.h"
#include "core/attention.h"
#include "ui/export/figure.h"
#include "ui/export/figure_renderer.h"
#include "ui/export/numbers_export.h"
#include "ui/readers/session_file.h"
#include "ui/readers/status_text.h"

namespace attnlab::cli {

namespace {

class CliCommandsTr {
    Q_DECLARE_TR_FUNCTIONS(attnlab::cli)
};

const QCommandLineOption& kOutput = kOutputOption;
const QCommandLineOption kSession(QStringLiteral("session"), QString(), QStringLiteral("file"));
const QCommandLineOption kLesson(QStringLiteral("lesson"), QString(), QStringLiteral("id"));
const QCommandLineOption kEdit(QStringLiteral("edit"), QString(), QStringLiteral("edit"));
const QCommandLineOption kMaxOutput(QStringLiteral("max-output"), QString(),
                                    QStringLiteral("size"));

}  // namespace

bool parseCommand(QCommandLineParser& parser, const QStringList& args, int& code)
{
    const QString command = args.value(0);
    parser.addOption(kHelpOption);
    if (!parser.parse(args)) {
        code = usageError(command, parser.errorText());
        return false;
    }
    if (parser.isSet(kHelpOption)) {
        code = printOut(usageText(command));
        return false;
    }
    // An empty value names no file and no text: "-o ''" would otherwise write to stdout.
    for (const QString& name : parser.optionNames()) {
        if (parser.values(name).contains(QString())) {
            code = usageError(
                command,
                CliCommandsTr::tr("%1%2 is given an empty value")
                    .arg(name.size() == 1 ? QStringLiteral("-") : QStringLiteral("--"), name));
            return false;
        }
    }
    if (!parser.positionalArguments().isEmpty()) {
        code = usageError(command, CliCommandsTr::tr("unexpected argument \"%1\"")
                                       .arg(parser.positionalArguments().constFirst()));
        return false;
    }
    return true;
}

bool loadNamedSession(const QCommandLineParser& parser, const QCommandLineOption& sessionOption,
                      const QCommandLineOption& lessonOption, const QString& command,
                      Session& session, QString& name, int& code)
{
    const bool file = parser.isSet(sessionOption);
    const bool lesson = parser.isSet(lessonOption);
    if (file == lesson) {
        code = usageError(command,
                          CliCommandsTr::tr("give exactly one of --session FILE and --lesson ID"));
        return false;
    }
    if (lesson) {
        name = parser.value(lessonOption);
        if (!findLesson(name, session)) {
            code = fail(BadInput, CliCommandsTr::tr("no lesson named %1").arg(name));
            return false;
        }
        return true;
    }
    name = parser.value(sessionOption);
    SessionFile sf;
    FileError error;
    if (!readSessionFile(name, sf, error)) {
        code = fail(BadInput, error.message());
        return false;
    }
    if (sf.onlyWeightsFit) {
        code = fail(
            BadInput,
            CliCommandsTr::tr("%1: %2 Open it in the window (attnlab %1), which keeps only the "
                              "weights, in float.")
                .arg(name, statusMessage(attn::validate(sf.session.input, attn::Limits{}))));
        return false;
    }
    session = sf.session;
    return true;
}

namespace {

// The --edit values, checked for their form (not yet against a session).
bool readEdits(const QCommandLineParser& parser, const QString& command,
               std::vector<CommandLineEdit>& edits, int& code)
{
    QString error;
    if (parseEdits(parser.values(kEdit), edits, error)) return true;
    code = usageError(command, error);
    return false;
}

// Loads the session named by --session or --lesson, applies the command line's edits on top
// of its own and computes it with the core.
bool loadAndCompute(const QCommandLineParser& parser, const QString& command,
                    const std::vector<CommandLineEdit>& edits, Session& session,
                    attn::AttentionResult& result, QString& name, int& code,
                    const std::function<bool(const Session&, int&)>& beforeComputing = {})
{
    if (!loadNamedSession(parser, kSession, kLesson, command, session, name, code)) return false;
    QString error;
    if (!applyEdits(edits, session.input, error)) {
        code = usageError(command, error);
        return false;
    }
    if (beforeComputing && !beforeComputing(session, code)) return false;
    const attn::Status status = attn::computeAttention<double>(session.input, result);
    if (!status.ok()) {
        code = fail(BadInput, QStringLiteral("%1: %2").arg(name, statusMessage(status)));
        return false;
    }
    return true;
}

bool parseInt(const QString& text, int lo, int hi, int& out)
{
    bool ok = false;
    out = text.toInt(&ok);
    return ok && out >= lo && out <= hi;
}

bool parseRange(const QString& text, ValueRange& range)
{
    const QStringList parts = text.split(QLatin1Char(','));
    if (parts.size() != 2) return false;
    bool ok1 = false, ok2 = false;
    range = ValueRange(parts[0].trimmed().toDouble(&ok1), parts[1].trimmed().toDouble(&ok2));
    return ok1 && ok2 && std::isfinite(range.lower) && std::isfinite(range.upper) &&
           range.lower < range.upper;
}

// What attnlab render was asked for, checked before any input is read.
struct RenderOptions {
    FigureRequest req;
    int head = 1;
    QString out;
    FigureFormat format{};
    int width = 0;
    int height = 0;
    double scale = 1.0;
    std::vector<CommandLineEdit> edits;
};

bool parseRenderOptions(QCommandLineParser& parser, const QStringList& args, RenderOptions& o,
                        int& code)
{
    const QString cmd = QStringLiteral("render");
    const QCommandLineOption stageOpt(QStringLiteral("stage"), QString(), QStringLiteral("s"),
                                      QStringLiteral("weights"));
    const QCommandLineOption headOpt(QStringLiteral("head"), QString(), QStringLiteral("n"),
                                     QStringLiteral("1"));
    const QCommandLineOption widthOpt(QStringLiteral("width"), QString(), QStringLiteral("w"));
    const QCommandLineOption heightOpt(QStringLiteral("height"), QString(), QStringLiteral("h"));
    const QCommandLineOption scaleOpt(QStringLiteral("scale"), QString(), QStringLiteral("s"),
                                      QStringLiteral("1"));
    const QCommandLineOption rangeOpt(QStringLiteral("range"), QString(), QStringLiteral("r"));
    const QCommandLineOption aspectOpt(QStringLiteral("aspect"), QString(), QStringLiteral("a"),
                                       QStringLiteral("square"));
    parser.addOptions({kSession, kLesson, kOutput, kEdit, stageOpt, headOpt, widthOpt, heightOpt,
                       scaleOpt, rangeOpt, aspectOpt});
    if (!parseCommand(parser, args, code)) return false;
    const auto refuse = [&](const QString& message) {
        code = usageError(cmd, message);
        return false;
    };
    FigureRequest& req = o.req;
    if (!parseStage(parser.value(stageOpt), req.stage))
        return refuse(CliCommandsTr::tr("unknown stage \"%1\"").arg(parser.value(stageOpt)));
    const QString headText = parser.value(headOpt);
    if (headText == QLatin1String("all"))
        req.allHeads = true;
    else if (!parseInt(headText, 1, 1 << 20, o.head))
        return refuse(CliCommandsTr::tr("--head takes a head number from 1, or all"));
    req.head = o.head - 1;
    if (!parser.isSet(kOutput)) return refuse(CliCommandsTr::tr("render needs -o OUT"));
    o.out = parser.value(kOutput);
    if (!figureFormatForPath(o.out, o.format))
        return refuse(
            CliCommandsTr::tr("%1: the output must end in .png, .svg or .pdf").arg(o.out));
    if (parser.isSet(widthOpt) && !parseInt(parser.value(widthOpt), 64, 10000, o.width))
        return refuse(CliCommandsTr::tr("--width takes a whole number from 64 to 10000"));
    if (parser.isSet(heightOpt) && !parseInt(parser.value(heightOpt), 64, 10000, o.height))
        return refuse(CliCommandsTr::tr("--height takes a whole number from 64 to 10000"));
    bool scaleOk = false;
    o.scale = parser.value(scaleOpt).toDouble(&scaleOk);
    if (!scaleOk || !(o.scale >= 0.25 && o.scale <= 8.0))
        return refuse(CliCommandsTr::tr("--scale takes a number from 0.25 to 8"));
    if (parser.isSet(rangeOpt)) {
        ValueRange range;
        if (parser.value(rangeOpt) == QLatin1String("auto"))
            req.weightsOnDataRange = true;
        else if (parseRange(parser.value(rangeOpt), range))
            req.fixedRange = range;
        else
            return refuse(CliCommandsTr::tr("--range takes LO,HI with LO < HI, or auto"));
    }
    const QString aspect = parser.value(aspectOpt);
    if (aspect != QLatin1String("square") && aspect != QLatin1String("free"))
        return refuse(CliCommandsTr::tr("--aspect takes square or free, not \"%1\"").arg(aspect));
    req.squareCells = aspect == QLatin1String("square");
    return readEdits(parser, cmd, o.edits, code);
}

// The "before" of a difference figure: with no pinned state on the command line, the session
// without its edits (its own and those of --edit). Without any, the map would be all zeros.
bool computeDifferenceBaseline(const Session& session, const attn::AttentionResult& result,
                               const QString& name, const FigureRequest& req, FigureSource& source,
                               int& code)
{
    if (session.input.edits.empty()) {
        code = fail(WrongUsage,
                    CliCommandsTr::tr("%1 has no vector edits, so there is no difference to draw: "
                                      "add one, e.g. --edit key,head=1,index=3,scale=2 (see "
                                      "attnlab render --help)")
                        .arg(name));
        return false;
    }
    attn::AttentionInput plain = session.input;
    plain.edits.clear();
    attn::AttentionResult before;
    const attn::Status status = attn::computeAttention<double>(plain, before);
    if (!status.ok()) {
        code = fail(BadInput, QStringLiteral("%1: %2").arg(name, statusMessage(status)));
        return false;
    }
    for (const attn::HeadResult& hr : before.heads) source.before.push_back(hr.weights);
    source.beforeDescription = CliCommandsTr::tr("before = the session without its vector edits");
    for (std::size_t h = 0; h < before.heads.size(); ++h) {
        const bool shown = req.allHeads || static_cast<int>(h) == req.head;
        if (shown && before.heads[h].weights == result.heads[h].weights)
            printErr(CliCommandsTr::tr("attnlab: note: the edits do not change the weights of "
                                       "head %1 (value edits change only the output); its "
                                       "difference map is all zero\n")
                         .arg(h + 1));
    }
    return true;
}

int writeRenderedFigure(const FigureSource& source, const RenderOptions& o, const QString& name)
{
    Figure figure;
    QString error;
    if (!buildFigure(source, o.req, figure, error))
        return fail(BadInput, QStringLiteral("%1: %2").arg(name, error));
    QSize size = defaultFigureSize(figure);
    if (o.width > 0) size.setWidth(o.width);
    if (o.height > 0) size.setHeight(o.height);
    const double pixels = double(size.width()) * size.height() * o.scale * o.scale;
    if (o.format == FigureFormat::Png && pixels > 400e6)
        return usageError(QStringLiteral("render"),
                          CliCommandsTr::tr("the image would have more than 400 million pixels"));
    if (!writeFigure(figure, o.out, size, o.scale, error)) return fail(WriteFailed, error);
    return Success;
}

}  // namespace

int runRender(const QStringList& args)
{
    const QString cmd = QStringLiteral("render");
    QCommandLineParser parser;
    RenderOptions o;
    int code = Success;
    if (!parseRenderOptions(parser, args, o, code)) return code;

    Session session;
    attn::AttentionResult result;
    QString name;
    const QString& out = o.out;
    const auto writable = [&out](const Session&, int& refused) {
        return checkOutputs({out}, refused);
    };
    if (!loadAndCompute(parser, cmd, o.edits, session, result, name, code, writable)) return code;
    const int heads = static_cast<int>(result.heads.size());
    if (!o.req.allHeads && o.head > heads)
        return usageError(cmd, CliCommandsTr::tr("there is no head %1: %2 has %3 head(s)")
                                   .arg(o.head)
                                   .arg(name)
                                   .arg(heads));

    FigureSource source;
    source.session = &session;
    source.result = &result;
    if (o.req.stage == FigureStage::Difference &&
        !computeDifferenceBaseline(session, result, name, o.req, source, code))
        return code;
    return writeRenderedFigure(source, o, name);
}

int runCompute(const QStringList& args)
{
    const QString cmd = QStringLiteral("compute");
    QCommandLineParser parser;
    parser.addOptions({kSession, kLesson, kOutput, kEdit, kMaxOutput});
    int code = Success;
    if (!parseCommand(parser, args, code)) return code;
    std::vector<CommandLineEdit> edits;
    if (!readEdits(parser, cmd, edits, code)) return code;
    const QString out = parser.value(kOutput);
    const QString ext = QFileInfo(out).suffix().toLower();
    if (parser.isSet(kOutput) && ext != QLatin1String("json") && ext != QLatin1String("csv"))
        return usageError(cmd,
                          CliCommandsTr::tr("%1: the output must end in .json or .csv").arg(out));
    std::size_t limit = kMaxNumbersBytes;
    if (parser.isSet(kMaxOutput) && !parseSize(parser.value(kMaxOutput), limit))
        return usageError(cmd,
                          CliCommandsTr::tr("--max-output takes a size such as 800M or 4G, not %1")
                              .arg(parser.value(kMaxOutput)));
    const NumbersFormat format =
        ext == QLatin1String("csv") ? NumbersFormat::LongCsv : NumbersFormat::Json;

    Session session;
    attn::AttentionResult result;
    QString name;
    // Said before the core starts: a run of n = 9,000 would compute for minutes first.
    const auto fits = [&](const Session& s, int& refused) {
        if (!checkOutputs({out}, refused)) return false;
        if (estimateNumbersBytes(s.input, format) <= limit) return true;
        refused =
            fail(WriteFailed,
                 CliCommandsTr::tr("%1: %2 That is more than the limit of %3; give --max-output to "
                                   "allow it, or draw a figure with attnlab render.")
                     .arg(name, numbersCostText(s.input, format),
                          QLocale().formattedDataSize(static_cast<qint64>(limit))));
        return false;
    };
    if (!loadAndCompute(parser, cmd, edits, session, result, name, code, fits)) return code;
    const QByteArray bytes = ext == QLatin1String("csv") ? resultToLongCsv(session, result)
                                                         : resultToJson(session, result);
    return writeOutput(parser.isSet(kOutput) ? out : QString(), bytes);
}

int runLessons(const QStringList& args)
{
    QCommandLineParser parser;
    int code = Success;
    if (!parseCommand(parser, args, code)) return code;
    QString text;
    for (const QString& id : lessonIds())
        text += id.leftJustified(24) + QLatin1Char(' ') + lessonTitle(id) + QLatin1Char('\n');
    return printOut(text);
}

}  // namespace attnlab::cli
