// SPDX-License-Identifier: GPL-3.0-or-later
// attnlab generate on an encoder-decoder (BART, Marian, T5): TEXT is the source; the decoder
// starts at decoder_start_token_id and writes through the core's cache (seq2seq_decode.h),
// each cross-attention's keys and values made once from the encoder's output. The JSON says
// what was written as for a causal model, with the source and every map of the three calls of
// the kernel; a figure draws one cross-attention head of the final text.
#include <QCoreApplication>
#include <QFile>
#include <QLocale>

#include "app/cli_generate.h"
#include "app/cli_model_json.h"
#include "ui/export/figure_renderer.h"
#include "ui/export/model_map_figure.h"
#include "ui/modelrun/seq2seq_run.h"

namespace attnlab::cli {

namespace {

class CliGenerateSeq2SeqTr {
    Q_DECLARE_TR_FUNCTIONS(attnlab::cli)
};

using Json = nlohmann::ordered_json;

QByteArray seq2seqGenerationJson(const LoadedSeq2Seq& loaded, const Seq2SeqSide& source,
                                 const attn::model::Seq2SeqGeneration& g, const GenerateRequest& r,
                                 const attn::model::GenerationSettings& gs)
{
    const attn::model::Seq2SeqConfig& c = loaded.model.config();
    const attn::tok::Tokenizer& t = loaded.tokenizers->target;
    const Seq2SeqSide target = seq2seqSide(t, g.decoding.ids());
    Json written = Json::array();
    for (qsizetype i = g.promptLength; i < target.labels.size(); ++i)
        written.push_back(target.labels[i].toStdString());
    Json head = {{"model",
                  {{"type", c.modelType},
                   {"encoder_layers", c.encoderLayers},
                   {"decoder_layers", c.decoderLayers},
                   {"heads", c.heads}}},
                 {"source", seq2seqSideJson(source)},
                 {"target", seq2seqSideJson(target)}};
    head.update(writtenJson(t, g.steps, g.endedAtEos, written, r, gs));
    std::string out = head.dump(-1, ' ', false, Json::error_handler_t::replace);
    out.back() = ',';  // the closing brace: the maps follow
    attn::model::Seq2SeqResult run;
    g.decoding.result(run);
    appendSeq2SeqMaps(out, run);
    out += '}';
    return QByteArray::fromStdString(out);
}

int drawCross(const GenerateRequest& r, const LoadedSeq2Seq& loaded, const Seq2SeqSide& source,
              const attn::model::Seq2SeqGeneration& g)
{
    attn::model::Seq2SeqResult run;
    g.decoding.result(run);
    Seq2SeqSide target = seq2seqSide(loaded.tokenizers->target, g.decoding.ids());
    for (qsizetype i = g.promptLength; i < target.labels.size(); ++i)  // written, as marked
        target.labels[i] = QStringLiteral("▸") + target.labels[i];
    const QString title = CliGenerateSeq2SeqTr::tr("Cross-attention, layer %1, head %2")
                              .arg(r.layer + 1)
                              .arg(r.head + 1);
    const Figure f = modelMapFigure(
        target.labels, source.labels,
        run.cross[static_cast<std::size_t>(r.layer)][static_cast<std::size_t>(r.head)], title);
    QString error;
    if (!writeFigure(f, r.out,
                     modelMapFigureSize(f, f.panels.front().rows(), f.panels.front().cols()), 1.0,
                     error))
        return fail(WriteFailed, error);
    return Success;
}

// Refuses what the model cannot do before it runs: a figure of a layer or head it lacks, a JSON
// too large to write.
bool fitsSeq2Seq(const GenerateRequest& r, const attn::model::Seq2SeqConfig& c, long m, int& code)
{
    if (r.layer >= c.decoderLayers || r.head >= c.heads) {
        code = refuseGenerate(
            CliGenerateSeq2SeqTr::tr("the decoder has %1 layers of %2 cross-attention heads: "
                                     "--layer %3 --head %4 is not one of them")
                .arg(c.decoderLayers)
                .arg(c.heads)
                .arg(r.layer + 1)
                .arg(r.head + 1));
        return false;
    }
    const long n = std::min<long>(c.positions, 1L + r.options.maxNewTokens);
    const std::size_t bytes = seq2seqJsonBytes(c, m, n);
    if (r.image || bytes <= r.limit) return true;
    code = fail(WriteFailed,
                CliGenerateSeq2SeqTr::tr("the JSON of every map would be about %1, more than the "
                                         "limit of %2; give --max-output to allow it, or draw "
                                         "one cross-attention head (-o OUT.png).")
                    .arg(QLocale().formattedDataSize(static_cast<qint64>(bytes)),
                         QLocale().formattedDataSize(static_cast<qint64>(r.limit))));
    return false;
}

}  // namespace

int runGenerateSeq2Seq(const QString& folder, GenerateRequest& r)
{
    attn::Status problem;
    const std::shared_ptr<const LoadedSeq2Seq> loaded = loadSeq2SeqFolder(folder, problem);
    if (!loaded) return fail(BadInput, QString::fromStdString(attn::describe(problem)));
    int code = Success;
    attn::model::GenerationSettings gs;
    if (!readSettings(folder, r, gs, code)) return code;
    Seq2SeqSide source;
    if (attn::Status s = readSeq2SeqSource(*loaded, r.text, source); !s.ok())
        return fail(BadInput, QString::fromStdString(attn::describe(s)));
    if (!fitsSeq2Seq(r, loaded->model.config(), source.count(), code)) return code;
    attn::model::Seq2SeqGeneration g;
    if (attn::Status s = attn::model::generate(loaded->model, source.ids, r.options, g); !s.ok())
        return refuseGeneration(r, s);
    if (r.image) return drawCross(r, *loaded, source, g);
    return writeOutput(r.out, seq2seqGenerationJson(*loaded, source, g, r, gs));
}

}  // namespace attnlab::cli
