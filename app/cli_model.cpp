// SPDX-License-Identifier: GPL-3.0-or-later
// attnlab model --model DIR --text TEXT [-o OUT.json|OUT.png|OUT.svg|OUT.pdf] [--layer L]
//               [--head H] [--session-out S.attnlab.json]
// Opens a GPT-2 or BERT checkpoint folder (config.json, model.safetensors and the tokenizer's
// files), runs the text through core/model and writes every layer's and head's attention and
// the model's predictions as JSON (stdout without -o), or one head's map as a figure.
#include <QCommandLineParser>
#include <QCoreApplication>
#include <QFile>
#include <QFileInfo>
#include <QLocale>

#include "app/cli.h"
#include "app/cli_model_edits.h"
#include "app/cli_model_json.h"
#include "app/cli_seq2seq.h"
#include "core/model/seq2seq_config.h"
#include "ui/export/figure.h"
#include "ui/export/figure_renderer.h"
#include "ui/export/model_map_figure.h"
#include "ui/export/numbers_export.h"
#include "ui/modelrun/builtin_models.h"
#include "ui/modelrun/head_session.h"
#include "ui/modelrun/model_snapshot.h"
#include "ui/readers/session_file.h"

namespace attnlab::cli {

namespace {

class CliModelTr {
    Q_DECLARE_TR_FUNCTIONS(attnlab::cli)
};

const QCommandLineOption kModel(QStringLiteral("model"), QString(), QStringLiteral("dir"));
const QCommandLineOption kText(QStringLiteral("text"), QString(), QStringLiteral("text"));
const QCommandLineOption& kOutput = kOutputOption;
const QCommandLineOption kLayer(QStringLiteral("layer"), QString(), QStringLiteral("L"));
const QCommandLineOption kHead(QStringLiteral("head"), QString(), QStringLiteral("H"));
const QCommandLineOption kEdit(QStringLiteral("edit"), QString(), QStringLiteral("edit"));
const QCommandLineOption kAblate(QStringLiteral("ablate"), QString(), QStringLiteral("head"));
const QCommandLineOption kSessionOut(QStringLiteral("session-out"), QString(),
                                     QStringLiteral("file"));
const QCommandLineOption kMaxOutput(QStringLiteral("max-output"), QString(),
                                    QStringLiteral("size"));

// The predictions after the edits beside those before: for each position, the edited run's top
// 10 with each token's probability before and the change, in percentage points.
QString comparisonText(const ModelSnapshot& run)
{
    QString out;
    QStringList names;
    for (const attn::model::HeadEdit& e : run.edits) names << QString::fromStdString(describe(e));
    out += CliModelTr::tr("Edits: %1").arg(names.join(QStringLiteral("; "))) + QLatin1Char('\n');
    for (const ModelPrediction& p : run.predictions) {
        out += QLatin1Char('\n') +
               CliModelTr::tr("Position %1 (\"%2\"): token, before, after, change")
                   .arg(p.position + 1)
                   .arg(run.labels.value(static_cast<qsizetype>(p.position))) +
               QLatin1Char('\n');
        for (const ModelGuess& g : p.top) {
            // One arg() call: a token spelling "%2" must not be taken for a place marker.
            out +=
                QStringLiteral("  %1 %2 % %3 % %4\n")
                    .arg(QStringLiteral("%1").arg(g.label, -16),
                         QStringLiteral("%1").arg(g.before * 100.0, 7, 'f', 2),
                         QStringLiteral("%1").arg(g.probability * 100.0, 7, 'f', 2),
                         QStringLiteral("%1").arg(percentPointChange(g.before, g.probability), 10));
        }
    }
    out += QLatin1Char('\n') + CliModelTr::tr("Largest change of a weight, per layer and head:") +
           QLatin1Char('\n');
    for (std::size_t l = 0; l < run.change.size(); ++l) {
        QStringList row;
        for (float v : run.change[l]) row << QString::number(static_cast<double>(v), 'f', 4);
        out += CliModelTr::tr("  layer %1: %2").arg(l + 1).arg(row.join(QLatin1Char(' '))) +
               QLatin1Char('\n');
    }
    return out;
}

// Says on stderr what of the text no token stands for (the JSON lists it as "dropped").
void noteDropped(const std::vector<attn::tok::Dropped>& dropped)
{
    if (dropped.empty()) return;
    QStringList omitted, unknown;
    for (const attn::tok::Dropped& d : dropped)
        (d.fate == attn::tok::Dropped::Fate::Unknown ? unknown : omitted)
            << QStringLiteral("\"%1\" (byte %2)")
                   .arg(QString::fromStdString(d.text))
                   .arg(d.offset + 1);
    if (!omitted.isEmpty())
        printErr(CliModelTr::tr("attnlab: note: not in the model's vocabulary, left out: %1\n")
                     .arg(omitted.join(QStringLiteral(", "))));
    if (!unknown.isEmpty())
        printErr(CliModelTr::tr("attnlab: note: read as the unknown token: %1\n")
                     .arg(unknown.join(QStringLiteral(", "))));
}

// The maps grow as the square of the text: a JSON too large to write is refused before the run
// (as attnlab compute refuses), with the size it would have had.
bool jsonFits(const attn::model::ModelConfig& c, long tokens, bool withBefore, std::size_t limit,
              int& code)
{
    const std::size_t bytes = modelJsonBytes(c.layers, c.heads, tokens, withBefore);
    if (bytes <= limit) return true;
    code = fail(WriteFailed,
                CliModelTr::tr("%1 tokens: the JSON of every head's map would be about %2, more "
                               "than the limit of %3; give --max-output to allow it, or draw one "
                               "head's map (-o OUT.png).")
                    .arg(tokens)
                    .arg(QLocale().formattedDataSize(static_cast<qint64>(bytes)),
                         QLocale().formattedDataSize(static_cast<qint64>(limit))));
    return false;
}

bool readIndex(const QCommandLineParser& parser, const QCommandLineOption& option, long count,
               int& out, int& code)
{
    out = 0;
    if (!parser.isSet(option)) return true;
    bool ok = false;
    const int v = parser.value(option).toInt(&ok);
    if (!ok || v < 1 || v > count) {
        code = usageError(QStringLiteral("model"),
                          CliModelTr::tr("--%1 must be a whole number from 1 to %2")
                              .arg(option.names().constFirst())
                              .arg(count));
        return false;
    }
    out = v - 1;
    return true;
}

}  // namespace

QString modelUsage()
{
    return CliModelTr::tr(
        "Usage: attnlab model --model DIR --text TEXT [-o OUT.json|OUT.png|OUT.svg|OUT.pdf]\n"
        "                     [--layer L] [--head H] [--edit ...] [--ablate ...]\n"
        "                     [--session-out S.attnlab.json] [--max-output SIZE]\n"
        "  Runs a GPT-2 or BERT checkpoint folder (config.json, model.safetensors and the\n"
        "  tokenizer: vocab.json + merges.txt, or vocab.txt), or a model built into AttnLab\n"
        "  (--model builtin:NAME, see attnlab models), on TEXT. JSON (to stdout without\n"
        "  -o): {\"model\": {\"type\", \"layers\", \"heads\"}, \"tokens\", \"display\", \"ids\",\n"
        "  \"layers\": [{\"heads\": [{\"weights\"}]}], \"predictions\": [{\"position\" (from 1),\n"
        "  \"top\": [{\"token\", \"display\", \"id\", \"p\"}]}]}: GPT-2 predicts the next token,\n"
        "  BERT each [MASK]. \"display\" labels each token readably: where GPT-2 splits one\n"
        "  character over several tokens, the first shows the character and the others ⋯.\n"
        "  PNG, SVG or PDF: the map of one head (--layer and --head count from 1; default 1).\n"
        "  --edit ROLE,layer=L,head=H,index=I,scale=S (ROLE key, query or value) scales one\n"
        "  position's vector of a head; --ablate layer=L,head=H[,mean] sets a head's output to\n"
        "  zero (or its mean over positions). Both repeat; layers, heads and positions count\n"
        "  from 1. With edits: the predictions before and after (to stdout), or with -o the\n"
        "  edited run's JSON plus \"before\": {\"predictions\", \"layers\"}.\n"
        "  --session-out writes head --layer/--head as a workbench session (format version 2:\n"
        "  the layer's attention input, the head's W_Q, W_K, W_V and biases, and where it came\n"
        "  from); without -o nothing else is written.\n"
        "  The JSON grows as the square of the text: one that would be larger than 512 MiB\n"
        "  is refused before the run, with its size; --max-output SIZE (800M, 4G) allows it.\n"
        "  What of the text the tokenizer cannot represent becomes the unknown token where the\n"
        "  model has one, or is left out whole; either way stderr names it and the JSON lists\n"
        "  it in \"dropped\": [{\"text\", \"byte\" (from 1), \"bytes\", \"fate\"}].\n"
        "Encoder-decoders (bart, marian, t5): TEXT is the source; --target TARGET is the\n"
        "  decoder's text (its input: the start token, then TARGET's ids but the last); without\n"
        "  it the model translates greedily. JSON: {\"model\": {\"type\", \"encoder_layers\",\n"
        "  \"decoder_layers\", \"heads\"}, \"source\" and \"target\": {\"tokens\", \"display\",\n"
        "  \"ids\"}, \"encoder\", \"decoder\", \"cross\" (target x source): [{\"heads\":\n"
        "  [{\"weights\"}]}], \"predictions\": one per target position}. Figures take\n"
        "  --kind encoder|decoder|cross (default cross); --edit and --ablate take\n"
        "  kind=encoder|decoder|cross (default decoder). A cross head's key and value positions\n"
        "  count in the source, its query positions in the target.\n");
}

namespace {

// What `attnlab model` was asked for, read from its options before anything is opened.
struct ModelRequest {
    QString out;  // -o, "" for stdout
    bool image = false;
    QString sessionOut;
    std::vector<attn::model::HeadEdit> edits;
    QStringList editTexts, ablationTexts;  // as typed, to name an edit the core refused
    std::size_t limit = kMaxNumbersBytes;
    [[nodiscard]] bool json() const { return !image && (!out.isEmpty() || edits.empty()); }
};

bool readRequest(const QCommandLineParser& parser, ModelRequest& r, int& code)
{
    const QString cmd = QStringLiteral("model");
    if (!parser.isSet(kModel) || !parser.isSet(kText)) {
        code = usageError(cmd, CliModelTr::tr("--model DIR and --text TEXT are needed"));
        return false;
    }
    r.out = parser.value(kOutput);
    const QString ext = QFileInfo(r.out).suffix().toLower();
    r.image =
        ext == QLatin1String("png") || ext == QLatin1String("svg") || ext == QLatin1String("pdf");
    if (parser.isSet(kOutput) && ext != QLatin1String("json") && !r.image) {
        code = usageError(
            cmd, CliModelTr::tr("%1: the output must end in .json, .png, .svg or .pdf").arg(r.out));
        return false;
    }
    r.sessionOut = parser.value(kSessionOut);
    if (parser.isSet(kSessionOut) && !r.sessionOut.endsWith(QLatin1String(".json"))) {
        code = usageError(
            cmd, CliModelTr::tr("%1: a session file ends in .attnlab.json").arg(r.sessionOut));
        return false;
    }
    r.editTexts = parser.values(kEdit);
    r.ablationTexts = parser.values(kAblate);
    if (QString error; !parseModelEdits(r.editTexts, r.ablationTexts, r.edits, error)) {
        code = usageError(cmd, error);
        return false;
    }
    if (parser.isSet(kMaxOutput) && !parseSize(parser.value(kMaxOutput), r.limit)) {
        code =
            usageError(cmd, CliModelTr::tr("--max-output takes a size such as 800M or 4G, not %1")
                                .arg(parser.value(kMaxOutput)));
        return false;
    }
    return true;
}

// --session-out: head (layer, head) of the run without its edits as a workbench session.
int writeHeadSession(const QCommandLineParser& parser, const ModelRequest& r,
                     const LoadedModel& loaded, const ModelSnapshot& run, int layer, int head)
{
    HeadSource source;
    source.model = &loaded.model;
    source.run = run.edited() ? &run.unedited : &run.result;
    source.labels = run.labels;
    source.text = parser.value(kText);
    source.folder = parser.value(kModel);
    const QString weights = QString::fromStdString(loaded.model.file().path());
    QString problem;
    source.sha256 = fileSha256(weights, problem);
    // The session names its model by this hash: without it the file would name none.
    if (source.sha256.isEmpty())
        return fail(BadInput, QStringLiteral("%1: %2").arg(weights, problem));
    SessionFile file;
    QString error;
    if (!headSession(source, layer, head, file.session, error)) return fail(BadInput, error);
    FileError written;
    if (!writeSessionFile(r.sessionOut, file, written)) return fail(WriteFailed, written.message());
    return Success;
}

// The run as asked: one head's map as a figure, the comparison with edits, or the JSON.
int writeRun(const ModelRequest& r, const LoadedModel& loaded, const ModelSnapshot& run, int layer,
             int head)
{
    if (r.image) {
        const Figure f = modelMapFigure(
            run.labels,
            run.result.layers[static_cast<std::size_t>(layer)]
                .attention[static_cast<std::size_t>(head)],
            modelMapName(layer, head, static_cast<int>(loaded.model.config().heads)));
        QString error;
        if (!writeFigure(f, r.out, defaultFigureSize(f), 1.0, error))
            return fail(WriteFailed, error);
        return Success;
    }
    if (run.edited() && r.out.isEmpty())
        return writeOutput(QString(), comparisonText(run).toUtf8());
    return writeOutput(r.out, modelJson(loaded, run));
}

}  // namespace

int runModel(const QStringList& args)
{
    const QString cmd = QStringLiteral("model");
    QCommandLineParser parser;
    parser.addOptions({kModel, kText, kOutput, kLayer, kHead, kEdit, kAblate, kSessionOut,
                       kMaxOutput, kTargetOption, kKindOption});
    int code = Success;
    ModelRequest r;
    if (!parseCommand(parser, args, code) || !readRequest(parser, r, code)) return code;
    QString resolveError;
    const QString resolved = resolveModelFolder(parser.value(kModel), resolveError);
    if (resolved.isEmpty()) return fail(BadInput, resolveError);
    const std::string type = attn::model::configModelType(
        QFile::encodeName(resolved + QStringLiteral("/config.json")).toStdString());
    if (attn::model::isSeq2SeqType(type)) return runSeq2Seq(parser, resolved);
    if (const int c = refuseSeq2SeqOptions(parser, resolved, QString::fromStdString(type));
        c != Success)
        return c;
    attn::Status problem;
    const std::shared_ptr<const LoadedModel> loaded = loadModelFolder(resolved, problem);
    if (!loaded) return fail(BadInput, QString::fromStdString(attn::describe(problem)));
    // The model's files are read: no output may be one of them.
    if (!checkOutputs({r.out, r.sessionOut}, code)) return code;
    const attn::model::ModelConfig& config = loaded->model.config();
    int layer = 0, head = 0;
    if (!readIndex(parser, kLayer, config.layers, layer, code) ||
        !readIndex(parser, kHead, config.heads, head, code))
        return code;

    const ModelRunOutcome read = readText(*loaded, parser.value(kText));
    if (!read.snapshot) return fail(BadInput, QString::fromStdString(attn::describe(read.status)));
    noteDropped(read.snapshot->dropped);
    if (r.json() && !jsonFits(config, read.snapshot->tokenCount(), !r.edits.empty(), r.limit, code))
        return code;
    ModelRunSettings settings;
    settings.edits = r.edits;
    settings.refuseEditsOutside = true;
    settings.wholeMaps = true;
    const ModelRunOutcome run = runTokens(*loaded, *read.snapshot, settings);
    if (!run.snapshot) {
        const attn::Status& s = run.status;
        // The unedited run was finite: an edit refused or overflowing is a usage error.
        if (s.edit >= 0 || s.cause == attn::Cause::Edit)
            return usageError(cmd, editRefusal(s, r.editTexts, r.ablationTexts));
        return fail(BadInput, QString::fromStdString(attn::describe(s)));
    }
    if (!r.sessionOut.isEmpty()) {
        if (const int c = writeHeadSession(parser, r, *loaded, *run.snapshot, layer, head);
            c != Success || r.out.isEmpty())
            return c;
    }
    return writeRun(r, *loaded, *run.snapshot, layer, head);
}

}  // namespace attnlab::cli
