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
#include "core/model/forward.h"
#include "core/tokenize/tokenizer_loader.h"
#include "ui/export/figure.h"
#include "ui/export/figure_renderer.h"
#include "ui/export/numbers_export.h"
#include "ui/model/builtin_models.h"
#include "ui/model/head_session.h"
#include "ui/model/model_figures.h"
#include "ui/model/model_snapshot.h"
#include "ui/model/predictions_panel.h"
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
QString comparisonText(const attn::tok::Tokenizer& tokenizer,
                       const std::vector<attn::tok::Token>& tokens,
                       const std::vector<attn::model::HeadEdit>& edits,
                       const attn::model::ForwardResult& before,
                       const attn::model::ForwardResult& after)
{
    QString out;
    const QStringList labels = displayLabels(tokenizer, tokens);
    QStringList names;
    for (const attn::model::HeadEdit& e : edits) names << QString::fromStdString(describe(e));
    out += CliModelTr::tr("Edits: %1").arg(names.join(QStringLiteral("; "))) + QLatin1Char('\n');
    for (std::size_t k = 0; k < after.predictions.size() && k < before.predictions.size(); ++k) {
        const attn::model::Prediction& p = after.predictions[k];
        const long at = p.position;
        out += QLatin1Char('\n') +
               CliModelTr::tr("Position %1 (\"%2\"): token, before, after, change")
                   .arg(at + 1)
                   .arg(labels.value(static_cast<qsizetype>(at))) +
               QLatin1Char('\n');
        for (const attn::model::TokenProbability& t : p.top) {
            const double was = attn::model::tokenProbability(
                before.logits.row(static_cast<long>(k)).transpose(), t.id);
            const double now = t.probability;
            // One arg() call: a token spelling "%2" must not be taken for a place marker.
            out += QStringLiteral("  %1 %2 % %3 % %4\n")
                       .arg(QStringLiteral("%1").arg(guessLabel(tokenizer, t.id), -16),
                            QStringLiteral("%1").arg(was * 100.0, 7, 'f', 2),
                            QStringLiteral("%1").arg(now * 100.0, 7, 'f', 2),
                            QStringLiteral("%1").arg(percentPointChange(was, now), 10));
        }
    }
    const std::vector<std::vector<float>> change = attn::model::attentionChange(before, after);
    out += QLatin1Char('\n') + CliModelTr::tr("Largest change of a weight, per layer and head:") +
           QLatin1Char('\n');
    for (std::size_t l = 0; l < change.size(); ++l) {
        QStringList row;
        for (float v : change[l]) row << QString::number(static_cast<double>(v), 'f', 4);
        out += CliModelTr::tr("  layer %1: %2").arg(l + 1).arg(row.join(QLatin1Char(' '))) +
               QLatin1Char('\n');
    }
    return out;
}

// The option that gave edit `index` (the --edit values first, then the --ablate values, as
// parseModelEdits() lists them): "--edit key,layer=1,head=1,index=2,scale=2".
QString editOption(int index, const QStringList& edits, const QStringList& ablations)
{
    if (index >= 0 && index < edits.size()) return QStringLiteral("--edit %1").arg(edits[index]);
    const qsizetype a = index - edits.size();
    if (a >= 0 && a < ablations.size()) return QStringLiteral("--ablate %1").arg(ablations[a]);
    return QStringLiteral("--edit");
}

// An edit the core refused or that made the run overflow, in the words of the command line:
// the option as it was typed, and what is wrong with it.
QString editRefusal(const attn::Status& s, const QStringList& edits, const QStringList& ablations)
{
    const QString option = editOption(s.edit, edits, ablations);
    if (s.code == attn::StatusCode::DuplicateEdit)
        return CliModelTr::tr("%1: the same as %2; give each once")
            .arg(option, editOption(static_cast<int>(s.row), edits, ablations));
    if (s.code == attn::StatusCode::NonFinite && s.cause == attn::Cause::Edit)
        return CliModelTr::tr(
                   "%1 overflows (%2: a value beyond the range of a float); give a smaller "
                   "scale")
            .arg(option, QString::fromStdString(attn::whereInModel(s)));
    return QStringLiteral("%1: %2").arg(option, QString::fromStdString(s.detail));
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
        "  it in \"dropped\": [{\"text\", \"byte\" (from 1), \"bytes\", \"fate\"}].\n");
}

int runModel(const QStringList& args)
{
    const QString cmd = QStringLiteral("model");
    QCommandLineParser parser;
    parser.addOptions(
        {kModel, kText, kOutput, kLayer, kHead, kEdit, kAblate, kSessionOut, kMaxOutput});
    int parsed = Success;
    if (!parseCommand(parser, args, parsed)) return parsed;
    if (!parser.isSet(kModel) || !parser.isSet(kText))
        return usageError(cmd, CliModelTr::tr("--model DIR and --text TEXT are needed"));
    const QString out = parser.value(kOutput);
    const QString ext = QFileInfo(out).suffix().toLower();
    const bool image =
        ext == QLatin1String("png") || ext == QLatin1String("svg") || ext == QLatin1String("pdf");
    if (parser.isSet(kOutput) && ext != QLatin1String("json") && !image)
        return usageError(
            cmd, CliModelTr::tr("%1: the output must end in .json, .png, .svg or .pdf").arg(out));
    const QString sessionOut = parser.value(kSessionOut);
    if (parser.isSet(kSessionOut) && !sessionOut.endsWith(QLatin1String(".json")))
        return usageError(
            cmd, CliModelTr::tr("%1: a session file ends in .attnlab.json").arg(sessionOut));

    std::vector<attn::model::HeadEdit> edits;
    if (QString error; !parseModelEdits(parser.values(kEdit), parser.values(kAblate), edits, error))
        return usageError(cmd, error);
    std::size_t limit = kMaxNumbersBytes;
    if (parser.isSet(kMaxOutput) && !parseSize(parser.value(kMaxOutput), limit))
        return usageError(cmd,
                          CliModelTr::tr("--max-output takes a size such as 800M or 4G, not %1")
                              .arg(parser.value(kMaxOutput)));
    QString resolveError;
    const QString resolved = resolveModelFolder(parser.value(kModel), resolveError);
    if (resolved.isEmpty()) return fail(BadInput, resolveError);
    const std::string folder = QFile::encodeName(resolved).toStdString();
    attn::model::Model model;
    if (const attn::Status s = attn::model::Model::load(folder, model); !s.ok())
        return fail(BadInput, QString::fromStdString(attn::describe(s)));
    auto loaded = attn::tok::loadTokenizer(folder, model.config().modelType, model.config().vocab);
    if (const auto* e = std::get_if<attn::Status>(&loaded))
        return fail(BadInput, QString::fromStdString(attn::describe(*e)));
    const attn::tok::Tokenizer& tokenizer = std::get<attn::tok::Tokenizer>(loaded);

    // The model's files are read: no output may be one of them.
    if (int code = Success; !checkOutputs({out, sessionOut}, code)) return code;
    attn::tok::Encoded encoded = tokenizer.encodeReported(parser.value(kText).toStdString());
    if (!encoded.status.ok())
        return fail(BadInput, QString::fromStdString(attn::describe(encoded.status)));
    const std::vector<attn::tok::Token> tokens = std::move(encoded.tokens);
    noteDropped(encoded.dropped);
    if (const bool json = !image && (parser.isSet(kOutput) || edits.empty()); json) {
        if (int code = Success; !jsonFits(model.config(), static_cast<long>(tokens.size()),
                                          !edits.empty(), limit, code))
            return code;
    }
    std::vector<int> ids;
    for (const attn::tok::Token& t : tokens) ids.push_back(t.id);
    attn::model::ForwardOptions options;
    if (const attn::tok::BertTokenizer* bert = tokenizer.bert())
        options.maskTokenId = bert->maskId().value_or(-1);
    attn::model::ForwardResult result;
    if (const attn::Status s = attn::model::forward(model, ids, options, result); !s.ok())
        return fail(BadInput, QString::fromStdString(attn::describe(s)));

    attn::model::ForwardResult edited;
    if (!edits.empty()) {
        const QStringList editTexts = parser.values(kEdit);
        const QStringList ablationTexts = parser.values(kAblate);
        if (const attn::Status s =
                attn::model::checkEdits(model, static_cast<long>(ids.size()), edits);
            !s.ok())
            return usageError(cmd, editRefusal(s, editTexts, ablationTexts));
        if (const attn::Status s = attn::model::runEdited(model, result, edits, options, edited);
            !s.ok()) {
            // The unedited run was finite: an overflow is the edit's, a usage error.
            if (s.cause == attn::Cause::Edit)
                return usageError(cmd, editRefusal(s, editTexts, ablationTexts));
            return fail(BadInput, QString::fromStdString(attn::describe(s)));
        }
    }
    const attn::model::ForwardResult& shown = edits.empty() ? result : edited;
    int layer = 0, head = 0, code = Success;
    if (!readIndex(parser, kLayer, model.config().layers, layer, code) ||
        !readIndex(parser, kHead, model.config().heads, head, code))
        return code;
    QString error;
    if (parser.isSet(kSessionOut)) {
        HeadSource source;
        source.model = &model;
        source.run = &result;
        source.labels = displayLabels(tokenizer, tokens);
        source.text = parser.value(kText);
        source.folder = parser.value(kModel);
        const QString weights = QString::fromStdString(model.file().path());
        QString problem;
        source.sha256 = fileSha256(weights, problem);
        // The session names its model by this hash: without it the file would name none.
        if (source.sha256.isEmpty())
            return fail(BadInput, QStringLiteral("%1: %2").arg(weights, problem));
        SessionFile file;
        if (!headSession(source, layer, head, file.session, error)) return fail(BadInput, error);
        FileError written;
        if (!writeSessionFile(sessionOut, file, written))
            return fail(WriteFailed, written.message());
        if (!parser.isSet(kOutput)) return Success;
    }
    if (image) {
        const Figure f = modelMapFigure(
            displayLabels(tokenizer, tokens),
            shown.layers[static_cast<std::size_t>(layer)].attention[static_cast<std::size_t>(head)],
            modelMapName(layer, head, static_cast<int>(model.config().heads)));
        if (!writeFigure(f, out, defaultFigureSize(f), 1.0, error)) return fail(WriteFailed, error);
        return Success;
    }
    if (!edits.empty() && !parser.isSet(kOutput))
        return writeOutput(QString(),
                           comparisonText(tokenizer, tokens, edits, result, edited).toUtf8());
    const QByteArray bytes = modelJson(model, tokenizer, tokens, encoded.dropped, shown,
                                       edits.empty() ? nullptr : &result);
    return writeOutput(parser.isSet(kOutput) ? out : QString(), bytes);
}

}  // namespace attnlab::cli
