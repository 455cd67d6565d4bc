// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/cli_seq2seq.h"

#include <nlohmann/json.hpp>

#include <QCoreApplication>
#include <QFileInfo>
#include <QLocale>

#include "app/cli.h"
#include "app/cli_model_edits.h"
#include "app/cli_model_json.h"
#include "ui/export/figure_renderer.h"
#include "ui/export/model_map_figure.h"
#include "ui/export/numbers_export.h"
#include "ui/modelrun/seq2seq_run.h"

namespace attnlab::cli {

namespace {

class CliSeq2SeqTr {
    Q_DECLARE_TR_FUNCTIONS(attnlab::cli)
};

using attn::model::AttentionKind;
using attn::model::FloatMatrix;
using Json = nlohmann::ordered_json;

const QString kCmd = QStringLiteral("model");

struct Seq2SeqAsk {
    QString out;
    bool image = false;
    AttentionKind kind = AttentionKind::Cross;
    int layer = 0, head = 0;  // from 0
    std::size_t limit = kMaxNumbersBytes;
    Seq2SeqRequest request;
    QStringList editTexts, ablationTexts;
};

bool readKind(const QCommandLineParser& parser, AttentionKind& kind, int& code)
{
    const QString k = parser.value(kKindOption);
    if (!parser.isSet(kKindOption) || k == QLatin1String("cross"))
        kind = AttentionKind::Cross;
    else if (k == QLatin1String("encoder"))
        kind = AttentionKind::Encoder;
    else if (k == QLatin1String("decoder"))
        kind = AttentionKind::Decoder;
    else {
        code = usageError(kCmd, CliSeq2SeqTr::tr("--kind must be encoder, decoder or cross, not "
                                                 "\"%1\"")
                                    .arg(k));
        return false;
    }
    return true;
}

bool readAsk(const QCommandLineParser& parser, Seq2SeqAsk& a, int& code)
{
    a.out = parser.value(QStringLiteral("output"));
    const QString ext = QFileInfo(a.out).suffix().toLower();
    a.image =
        ext == QLatin1String("png") || ext == QLatin1String("svg") || ext == QLatin1String("pdf");
    if (parser.isSet(QStringLiteral("session-out"))) {
        code = usageError(kCmd, CliSeq2SeqTr::tr("--session-out writes a decoder-only or "
                                                 "encoder model's head; an encoder-decoder's "
                                                 "heads are not written as sessions"));
        return false;
    }
    if (parser.isSet(kTargetOption) && parser.value(kTargetOption).trimmed().isEmpty()) {
        code = usageError(kCmd, CliSeq2SeqTr::tr("--target is empty; leave it out to have the "
                                                 "model translate"));
        return false;
    }
    a.request.source = parser.value(QStringLiteral("text"));
    a.request.target = parser.value(kTargetOption);
    a.editTexts = parser.values(QStringLiteral("edit"));
    a.ablationTexts = parser.values(QStringLiteral("ablate"));
    if (QString error; !parseModelEdits(a.editTexts, a.ablationTexts, a.request.edits, error)) {
        code = usageError(kCmd, error);
        return false;
    }
    if (parser.isSet(QStringLiteral("max-output")) &&
        !parseSize(parser.value(QStringLiteral("max-output")), a.limit)) {
        code = usageError(kCmd, CliSeq2SeqTr::tr("--max-output takes a size such as 800M or 4G"));
        return false;
    }
    return readKind(parser, a.kind, code);
}

bool readIndex(const QCommandLineParser& parser, const QString& name, long count, int& out,
               int& code)
{
    out = 0;
    if (!parser.isSet(name)) return true;
    bool ok = false;
    const int v = parser.value(name).toInt(&ok);
    if (!ok || v < 1 || v > count) {
        code = usageError(
            kCmd,
            CliSeq2SeqTr::tr("--%1 must be a whole number from 1 to %2").arg(name).arg(count));
        return false;
    }
    out = v - 1;
    return true;
}

std::string dump(const Json& j)
{
    return j.dump(-1, ' ', false, Json::error_handler_t::replace);
}

QByteArray seq2seqJson(const LoadedSeq2Seq& loaded, const Seq2SeqSnapshot& run)
{
    const attn::model::Seq2SeqConfig& c = loaded.model.config();
    const Json model = {{"type", c.modelType},
                        {"encoder_layers", c.encoderLayers},
                        {"decoder_layers", c.decoderLayers},
                        {"heads", c.heads}};
    std::string out = "{\"model\":" + dump(model) +
                      ",\"source\":" + dump(seq2seqSideJson(run.source)) +
                      ",\"target\":" + dump(seq2seqSideJson(run.target)) +
                      ",\"translated\":" + (run.translated ? "true" : "false");
    out += ',';
    appendSeq2SeqMaps(out, run.result);
    out += ",\"predictions\":" + predictionsJsonText(run.predictions);
    if (run.edited()) {
        Json edits = Json::array();
        for (const attn::model::HeadEdit& e : run.edits)
            edits.push_back(attn::model::describeSeq2Seq(e));
        const std::vector<ModelPrediction> before =
            guessesOf(loaded.tokenizers->target, run.unedited.predictions, nullptr);
        out += ",\"edits\":" + dump(edits) +
               ",\"before\":{\"predictions\":" + predictionsJsonText(before) + '}';
    }
    out += '}';
    return QByteArray::fromStdString(out);
}

int writeFigure(const Seq2SeqAsk& a, const LoadedSeq2Seq& loaded, const Seq2SeqSnapshot& run)
{
    const attn::model::Seq2SeqConfig& c = loaded.model.config();
    const long layers = a.kind == AttentionKind::Encoder ? c.encoderLayers : c.decoderLayers;
    int code = Success;
    const auto l = static_cast<std::size_t>(a.layer);
    const auto h = static_cast<std::size_t>(a.head);
    if (a.layer >= layers)
        return usageError(
            kCmd, CliSeq2SeqTr::tr("--layer must be a whole number from 1 to %1").arg(layers));
    const QString kind =
        a.kind == AttentionKind::Encoder   ? CliSeq2SeqTr::tr("Encoder self-attention")
        : a.kind == AttentionKind::Decoder ? CliSeq2SeqTr::tr("Decoder masked self-attention")
                                           : CliSeq2SeqTr::tr("Cross-attention");
    const QString title =
        CliSeq2SeqTr::tr("%1, layer %2, head %3").arg(kind).arg(a.layer + 1).arg(a.head + 1);
    const Figure f =
        a.kind == AttentionKind::Encoder
            ? modelMapFigure(run.source.labels, run.result.encoder[l].attention[h], title)
        : a.kind == AttentionKind::Decoder
            ? modelMapFigure(run.target.labels, run.result.decoder[l].attention[h], title)
            : modelMapFigure(run.target.labels, run.source.labels, run.result.cross[l][h], title);
    QString error;
    if (!attnlab::writeFigure(
            f, a.out, modelMapFigureSize(f, f.panels.front().rows(), f.panels.front().cols()), 1.0,
            error))
        code = fail(WriteFailed, error);
    return code;
}

}  // namespace

int refuseSeq2SeqOptions(const QCommandLineParser& parser, const QString& folder,
                         const QString& modelType)
{
    const QString why = CliSeq2SeqTr::tr(
                            "%1 is a %2 model, not an encoder-decoder (bart, "
                            "marian, t5)")
                            .arg(folder, modelType);
    if (parser.isSet(kTargetOption))
        return usageError(kCmd, CliSeq2SeqTr::tr("--target: %1; it has no target text").arg(why));
    if (parser.isSet(kKindOption))
        return usageError(kCmd, CliSeq2SeqTr::tr("--kind: %1; its heads are chosen with --layer "
                                                 "and --head")
                                    .arg(why));
    for (const QString& option : {QStringLiteral("edit"), QStringLiteral("ablate")})
        for (const QString& v : parser.values(option))
            if (v.contains(QLatin1String("kind=encoder")) ||
                v.contains(QLatin1String("kind=cross")))
                return usageError(
                    kCmd, CliSeq2SeqTr::tr("--%1 %2: %3; leave kind= out").arg(option, v, why));
    return Success;
}

int runSeq2Seq(const QCommandLineParser& parser, const QString& folder)
{
    int code = Success;
    Seq2SeqAsk a;
    if (!readAsk(parser, a, code)) return code;
    attn::Status problem;
    const std::shared_ptr<const LoadedSeq2Seq> loaded = loadSeq2SeqFolder(folder, problem);
    if (!loaded) return fail(BadInput, QString::fromStdString(attn::describe(problem)));
    if (!checkOutputs({a.out}, code)) return code;
    const attn::model::Seq2SeqConfig& c = loaded->model.config();
    const long layers = a.kind == AttentionKind::Encoder ? c.encoderLayers : c.decoderLayers;
    if (!readIndex(parser, QStringLiteral("layer"), layers, a.layer, code) ||
        !readIndex(parser, QStringLiteral("head"), c.heads, a.head, code))
        return code;
    const Seq2SeqOutcome run = runSeq2SeqText(*loaded, a.request);
    if (!run.snapshot) {
        const attn::Status& s = run.status;
        if (s.edit >= 0) {
            const int i = s.edit;
            const QString option =
                i < a.editTexts.size()
                    ? QStringLiteral("--edit %1").arg(a.editTexts[i])
                    : QStringLiteral("--ablate %1")
                          .arg(a.ablationTexts.value(i - static_cast<int>(a.editTexts.size())));
            return usageError(
                kCmd, QStringLiteral("%1: %2").arg(option, QString::fromStdString(s.detail)));
        }
        return fail(BadInput, QString::fromStdString(attn::describe(s)));
    }
    if (a.image) return writeFigure(a, *loaded, *run.snapshot);
    const std::size_t bytes =
        seq2seqJsonBytes(c, run.snapshot->source.count(), run.snapshot->target.count());
    if (bytes > a.limit)
        return fail(WriteFailed,
                    CliSeq2SeqTr::tr("the JSON of every map would be about %1, more than the "
                                     "limit of %2; give --max-output to allow it, or draw one "
                                     "map (-o OUT.png --kind K --layer L --head H).")
                        .arg(QLocale().formattedDataSize(static_cast<qint64>(bytes)),
                             QLocale().formattedDataSize(static_cast<qint64>(a.limit))));
    return writeOutput(a.out, seq2seqJson(*loaded, *run.snapshot));
}

}  // namespace attnlab::cli
