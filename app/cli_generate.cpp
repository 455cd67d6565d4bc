// SPDX-License-Identifier: GPL-3.0-or-later
// attnlab generate --model DIR --text TEXT --max-new-tokens N [--temperature T] [--top-k K]
//                  [--top-p P] [--seed S] [--edit ...] [--ablate ...] [-o OUT]
// A causal model (GPT-2 or the Llama family) writes after TEXT, token by token, through the
// core's key/value cache (core/model/generate.h), and the result is written as JSON (the
// generated tokens, each step's own probabilities, every head's map of the final text) or one
// head's map of the final text as a figure. Encoder-decoders: cli_generate_seq2seq.cpp.
#include "app/cli_generate.h"

#include <cmath>
#include <nlohmann/json.hpp>

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QFile>
#include <QFileInfo>
#include <QLocale>

#include "app/cli.h"
#include "app/cli_model_edits.h"
#include "app/cli_model_json.h"
#include "core/model/generate.h"
#include "core/model/generation_config.h"
#include "core/model/seq2seq_config.h"
#include "ui/export/figure.h"
#include "ui/export/figure_renderer.h"
#include "ui/export/model_map_figure.h"
#include "ui/export/numbers_export.h"
#include "ui/modelrun/builtin_models.h"
#include "ui/modelrun/model_snapshot.h"

namespace attnlab::cli {

namespace {

class CliGenerateTr {
    Q_DECLARE_TR_FUNCTIONS(attnlab::cli)
};

using Json = nlohmann::ordered_json;

const QCommandLineOption kGenModel(QStringLiteral("model"), QString(), QStringLiteral("dir"));
const QCommandLineOption kGenText(QStringLiteral("text"), QString(), QStringLiteral("text"));
const QCommandLineOption kMaxNew(QStringLiteral("max-new-tokens"), QString(), QStringLiteral("N"));
const QCommandLineOption kTemperature(QStringLiteral("temperature"), QString(),
                                      QStringLiteral("T"));
const QCommandLineOption kTopK(QStringLiteral("top-k"), QString(), QStringLiteral("K"));
const QCommandLineOption kTopP(QStringLiteral("top-p"), QString(), QStringLiteral("P"));
const QCommandLineOption kSeed(QStringLiteral("seed"), QString(), QStringLiteral("S"));
const QCommandLineOption kGenEdit(QStringLiteral("edit"), QString(), QStringLiteral("edit"));
const QCommandLineOption kGenAblate(QStringLiteral("ablate"), QString(), QStringLiteral("head"));
const QCommandLineOption kGenLayer(QStringLiteral("layer"), QString(), QStringLiteral("L"));
const QCommandLineOption kGenHead(QStringLiteral("head"), QString(), QStringLiteral("H"));
const QCommandLineOption kGenMaxOutput(QStringLiteral("max-output"), QString(),
                                       QStringLiteral("size"));

// A whole number from `least` up, or false (the caller names the option).
bool readWhole(const QString& text, long long least, long long& out)
{
    bool ok = false;
    out = text.toLongLong(&ok);
    return ok && out >= least;
}

bool readSampling(const QCommandLineParser& p, GenerateRequest& r, int& code)
{
    attn::model::SamplingSettings& s = r.options.sampling;
    long long whole = 0;
    bool ok = true;
    if (p.isSet(kTemperature)) s.temperature = p.value(kTemperature).toDouble(&ok);
    if (!ok || !std::isfinite(s.temperature) || s.temperature < 0) {
        code = refuseGenerate(
            CliGenerateTr::tr("--temperature takes a finite number of at least 0 (0 is "
                              "greedy), not %1")
                .arg(p.value(kTemperature)));
        return false;
    }
    if (p.isSet(kTopK)) {
        if (!readWhole(p.value(kTopK), 0, whole) || whole > 1000000000) {
            code = refuseGenerate(
                CliGenerateTr::tr("--top-k takes a whole number of at least 0 (0 keeps "
                                  "every token), not %1")
                    .arg(p.value(kTopK)));
            return false;
        }
        s.topK = static_cast<int>(whole);
    }
    if (p.isSet(kTopP)) s.topP = p.value(kTopP).toDouble(&ok);
    if (!ok || !(s.topP > 0 && s.topP <= 1)) {
        code =
            refuseGenerate(CliGenerateTr::tr("--top-p takes a number above 0 and at most 1, not %1")
                               .arg(p.value(kTopP)));
        return false;
    }
    if (p.isSet(kSeed)) {
        const qulonglong seed = p.value(kSeed).toULongLong(&ok);
        if (!ok) {
            code =
                refuseGenerate(CliGenerateTr::tr("--seed takes a whole number from 0 to %1, not %2")
                                   .arg(std::numeric_limits<qulonglong>::max())
                                   .arg(p.value(kSeed)));
            return false;
        }
        r.options.seed = seed;
    }
    return true;
}

bool readIndexOption(const QCommandLineParser& p, const QCommandLineOption& option, int& out,
                     int& code)
{
    long long v = 1;
    if (p.isSet(option) && (!readWhole(p.value(option), 1, v) || v > 1000000)) {
        code = refuseGenerate(CliGenerateTr::tr("--%1 takes a whole number from 1, not %2")
                                  .arg(option.names().constFirst(), p.value(option)));
        return false;
    }
    out = static_cast<int>(v - 1);
    return true;
}

bool readGenerateRequest(const QCommandLineParser& p, GenerateRequest& r, int& code)
{
    r.limit = kMaxNumbersBytes;
    if (!p.isSet(kGenModel) || !p.isSet(kGenText) || !p.isSet(kMaxNew)) {
        code =
            refuseGenerate(CliGenerateTr::tr("--model DIR, --text TEXT and --max-new-tokens N are "
                                             "needed"));
        return false;
    }
    long long n = 0;
    if (!readWhole(p.value(kMaxNew), 1, n) || n > 1000000) {
        code =
            refuseGenerate(CliGenerateTr::tr("--max-new-tokens takes a whole number of at least 1, "
                                             "not %1")
                               .arg(p.value(kMaxNew)));
        return false;
    }
    r.options.maxNewTokens = static_cast<int>(n);
    if (!readSampling(p, r, code)) return false;
    r.out = p.value(kOutputOption);
    const QString ext = QFileInfo(r.out).suffix().toLower();
    r.image =
        ext == QLatin1String("png") || ext == QLatin1String("svg") || ext == QLatin1String("pdf");
    if (p.isSet(kOutputOption) && ext != QLatin1String("json") && !r.image) {
        code = refuseGenerate(
            CliGenerateTr::tr("%1: the output must end in .json, .png, .svg or .pdf").arg(r.out));
        return false;
    }
    r.editTexts = p.values(kGenEdit);
    r.ablationTexts = p.values(kGenAblate);
    if (QString error; !parseModelEdits(r.editTexts, r.ablationTexts, r.options.edits, error)) {
        code = refuseGenerate(error);
        return false;
    }
    if (p.isSet(kGenMaxOutput) && !parseSize(p.value(kGenMaxOutput), r.limit)) {
        code =
            refuseGenerate(CliGenerateTr::tr("--max-output takes a size such as 800M or 4G, not %1")
                               .arg(p.value(kGenMaxOutput)));
        return false;
    }
    return readIndexOption(p, kGenLayer, r.layer, code) &&
           readIndexOption(p, kGenHead, r.head, code);
}

std::string dumpJson(const Json& j)
{
    return j.dump(-1, ' ', false, Json::error_handler_t::replace);
}

// The JSON of a generation: what was written, how, and every head's map of the final text.
QByteArray generationJson(const LoadedModel& loaded, const attn::model::Generation& g,
                          const GenerateRequest& r, const attn::model::GenerationSettings& gs)
{
    const attn::tok::Tokenizer& t = *loaded.tokenizer;
    const attn::model::ModelConfig& c = loaded.model.config();
    const std::vector<int>& all = g.decoding.ids();
    const std::vector<int> prompt(all.begin(), all.begin() + g.promptLength);
    const std::vector<attn::tok::TokenDisplay> display = t.display(all);
    Json promptDisplay = Json::array(), writtenDisplay = Json::array();
    for (std::size_t i = 0; i < display.size(); ++i)
        (static_cast<long>(i) < g.promptLength ? promptDisplay : writtenDisplay)
            .push_back(display[i].label);
    Json promptTokens = Json::array();
    for (const int id : prompt) promptTokens.push_back(t.token(id).text);
    Json head = {
        {"model",
         {{"type", c.modelType},
          {"layers", c.layers},
          {"heads", c.heads},
          {"kv_heads", c.kvHeads}}},
        {"prompt", {{"ids", prompt}, {"tokens", promptTokens}, {"display", promptDisplay}}}};
    head.update(writtenJson(t, g.steps, g.endedAtEos, writtenDisplay, r, gs));
    std::string out = dumpJson(head);
    out.pop_back();  // the closing brace: the maps follow
    attn::model::ForwardResult run;
    g.decoding.result(run);
    out += ",\"layers\":[";
    for (std::size_t l = 0; l < run.layers.size(); ++l) {
        if (l) out += ',';
        appendHeads(out, run.layers[l].attention);
    }
    out += "]}";
    return QByteArray::fromStdString(out);
}

int writeGeneration(const GenerateRequest& r, const LoadedModel& loaded,
                    const attn::model::Generation& g, const attn::model::GenerationSettings& gs)
{
    if (!r.image) return writeOutput(r.out, generationJson(loaded, g, r, gs));
    attn::model::ForwardResult run;
    g.decoding.result(run);
    QStringList labels;
    for (const attn::tok::TokenDisplay& d : loaded.tokenizer->display(g.decoding.ids()))
        labels << QString::fromStdString(d.label);
    // The tokens the model wrote are marked, as the window marks them.
    for (qsizetype i = g.promptLength; i < labels.size(); ++i)
        labels[i] = QStringLiteral("▸") + labels[i];
    // A long text's maps are pooled: the one drawn is made whole again, with the edits' hook.
    attn::model::FloatMatrix map;
    if (attn::Status s = attn::model::exactMap(
            loaded.model, run, r.layer, r.head, map,
            attn::model::withEdits({}, r.options.edits, loaded.model.config().groupSize()).hook);
        !s.ok())
        return fail(BadInput, QString::fromStdString(attn::describe(s)));
    const Figure f = modelMapFigure(
        labels, map, modelMapName(r.layer, r.head, static_cast<int>(loaded.model.config().heads)));
    QString error;
    if (!writeFigure(f, r.out, defaultFigureSize(f), 1.0, error)) return fail(WriteFailed, error);
    return Success;
}

// Refuses what the model cannot do before it runs: a figure of a layer or head it lacks, a JSON
// too large to write.
bool fitsModel(const GenerateRequest& r, const attn::model::ModelConfig& c, long tokens, int& code)
{
    if (r.layer >= c.layers || r.head >= c.heads) {
        code = refuseGenerate(
            CliGenerateTr::tr("the model has %1 layers of %2 heads: --layer %3 --head %4 "
                              "is not one of them")
                .arg(c.layers)
                .arg(c.heads)
                .arg(r.layer + 1)
                .arg(r.head + 1));
        return false;
    }
    const std::size_t bytes = modelJsonBytes(c.layers, c.heads, tokens, false);
    if (r.image || bytes <= r.limit) return true;
    code = fail(WriteFailed,
                CliGenerateTr::tr("%1 tokens: the JSON of every head's map would be about %2, more "
                                  "than the limit of %3; give --max-output to allow it, or draw "
                                  "one head's map (-o OUT.png).")
                    .arg(tokens)
                    .arg(QLocale().formattedDataSize(static_cast<qint64>(bytes)),
                         QLocale().formattedDataSize(static_cast<qint64>(r.limit))));
    return false;
}

}  // namespace

bool readSettings(const QString& folder, GenerateRequest& r, attn::model::GenerationSettings& gs,
                  int& code)
{
    if (attn::Status s =
            attn::model::readGenerationSettings(QFile::encodeName(folder).toStdString(), gs);
        !s.ok()) {
        code = fail(BadInput, QString::fromStdString(attn::describe(s)));
        return false;
    }
    r.options.eos = gs.eos;
    r.options.sampling.badWords = gs.badWords;
    // Every file of the model is read: no output may be one of them.
    return checkOutputs({r.out}, code);
}

int refuseGenerate(const QString& message)
{
    return usageError(QStringLiteral("generate"), message);
}

int refuseGeneration(const GenerateRequest& r, const attn::Status& s)
{
    if (s.edit >= 0 || s.cause == attn::Cause::Edit)
        return refuseGenerate(editRefusal(s, r.editTexts, r.ablationTexts));
    return fail(BadInput, QString::fromStdString(attn::describe(s)));
}

Json writtenJson(const attn::tok::Tokenizer& t,
                 const std::vector<attn::model::GeneratedStep>& steps, bool endedAtEos,
                 const Json& display, const GenerateRequest& r,
                 const attn::model::GenerationSettings& gs)
{
    std::vector<int> written;
    Json tokens = Json::array(), stepsJson = Json::array();
    for (const attn::model::GeneratedStep& s : steps) {
        written.push_back(s.id);
        tokens.push_back(t.token(s.id).text);
        Json top = Json::array();
        for (const attn::model::TokenProbability& tp : s.top)
            top.push_back({{"id", tp.id}, {"token", t.token(tp.id).text}, {"p", tp.probability}});
        stepsJson.push_back({{"id", s.id}, {"p", s.probability}, {"top", top}});
    }
    Json config = Json::object();
    for (const auto& [key, value] : gs.shown) config[key] = Json::parse(value);
    const attn::model::SamplingSettings& s = r.options.sampling;
    const char* stopped = endedAtEos ? "eos"
                          : static_cast<long>(steps.size()) >= r.options.maxNewTokens
                              ? "max_new_tokens"
                              : "positions";
    return {{"ids", written},
            {"tokens", tokens},
            {"display", display},
            {"text", t.decode(written)},
            {"stopped", stopped},
            {"sampling",
             {{"temperature", s.temperature},
              {"top_k", s.topK},
              {"top_p", s.topP},
              {"seed", r.options.seed},
              {"bad_words_ids", s.badWords}}},
            {"generation_config", config},
            {"steps", stepsJson}};
}

QString generateUsage()
{
    return CliGenerateTr::tr(
        "Usage: attnlab generate --model DIR --text TEXT --max-new-tokens N\n"
        "                        [--temperature T] [--top-k K] [--top-p P] [--seed S]\n"
        "                        [--edit ...] [--ablate ...] [-o "
        "OUT.json|OUT.png|OUT.svg|OUT.pdf]\n"
        "                        [--layer L] [--head H] [--max-output SIZE]\n"
        "  A GPT-2 or Llama-family checkpoint (or builtin:NAME) writes N tokens after TEXT, one\n"
        "  at a time through a key/value cache, stopping early after its end-of-text id (kept).\n"
        "  An encoder-decoder (BART, Marian, T5) reads TEXT as its source and writes from its\n"
        "  decoder_start_token_id, each cross-attention's keys and values made once.\n"
        "  --temperature 0 (the default) is greedy: the most probable token. Otherwise the\n"
        "  logits are divided by T, --top-k keeps the K most probable, --top-p the fewest most\n"
        "  probable whose probabilities reach P, and one token is drawn with seed S (default\n"
        "  0; the same seed gives the same text). The checkpoint's bad_words_ids are never\n"
        "  written; its other generation settings are listed, not applied. --edit and --ablate\n"
        "  as in attnlab model, applied at every token.\n"
        "  JSON (to stdout without -o): {\"model\", \"prompt\": {\"ids\", \"tokens\", "
        "\"display\"},\n"
        "  \"ids\", \"tokens\", \"display\", \"text\" (the generated tokens), \"stopped\" (eos,\n"
        "  max_new_tokens or positions), \"sampling\", \"generation_config\", \"steps\": "
        "[{\"id\",\n"
        "  \"p\", \"top\": [{\"id\", \"token\", \"p\"}]}] (the model's own probabilities, at\n"
        "  temperature 1 before any cut), \"layers\": every head's map of the final text}.\n"
        "  An encoder-decoder's JSON has \"source\" and \"target\" (the decoder's input) and\n"
        "  \"encoder\", \"decoder\" and \"cross\" maps in place of \"prompt\" and \"layers\".\n"
        "  PNG, SVG or PDF: head --head of layer --layer of the final text (from 1); an\n"
        "  encoder-decoder's cross-attention head.\n");
}

int runGenerate(const QStringList& args)
{
    QCommandLineParser parser;
    parser.addOptions({kGenModel, kGenText, kMaxNew, kTemperature, kTopK, kTopP, kSeed, kGenEdit,
                       kGenAblate, kOutputOption, kGenLayer, kGenHead, kGenMaxOutput});
    int code = Success;
    GenerateRequest r;
    if (!parseCommand(parser, args, code) || !readGenerateRequest(parser, r, code)) return code;
    QString resolveError;
    const QString folder = resolveModelFolder(parser.value(kGenModel), resolveError);
    if (folder.isEmpty()) return fail(BadInput, resolveError);
    r.text = parser.value(kGenText);
    const std::string type = attn::model::configModelType(
        QFile::encodeName(folder + QStringLiteral("/config.json")).toStdString());
    if (attn::model::isSeq2SeqType(type)) return runGenerateSeq2Seq(folder, r);
    attn::Status problem;
    const std::shared_ptr<const LoadedModel> loaded = loadModelFolder(folder, problem);
    if (!loaded) return fail(BadInput, QString::fromStdString(attn::describe(problem)));
    attn::model::GenerationSettings gs;
    if (!readSettings(folder, r, gs, code)) return code;
    const ModelRunOutcome read = readText(*loaded, r.text);
    if (!read.snapshot) return fail(BadInput, QString::fromStdString(attn::describe(read.status)));
    const attn::model::ModelConfig& c = loaded->model.config();
    const long tokens =
        std::min<long>(c.positions, read.snapshot->tokenCount() + r.options.maxNewTokens);
    if (!fitsModel(r, c, tokens, code)) return code;
    std::vector<int> prompt;
    for (const attn::tok::Token& t : read.snapshot->tokens) prompt.push_back(t.id);
    if (r.image) {  // one map is drawn: a long text keeps the others at screen resolution
        r.options.poolAbove = modelPoolAbove();
        r.options.poolSide = kModelPoolSide;
    }
    attn::model::Generation g;
    if (attn::Status s = attn::model::generate(loaded->model, prompt, r.options, g); !s.ok())
        return refuseGeneration(r, s);
    return writeGeneration(r, *loaded, g, gs);
}

}  // namespace attnlab::cli
