// attnlab model --model DIR --text TEXT [-o OUT.json|OUT.png|OUT.svg|OUT.pdf] [--layer L]
//               [--head H]
// Opens a GPT-2 or BERT checkpoint folder (config.json, model.safetensors and the tokenizer's
// files), runs the text through core/model and writes every layer's and head's attention and
// the model's predictions as JSON (stdout without -o), or one head's map as a figure.
#include <QCommandLineParser>
#include <QCoreApplication>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include "app/cli.h"
#include "core/model/forward.h"
#include "core/tokenize/tokenizer_loader.h"
#include "ui/export/figure.h"
#include "ui/export/figure_renderer.h"
#include "ui/export/numbers_export.h"
#include "ui/model/model_figures.h"

namespace attnlab::cli {

namespace {

class Tr {
    Q_DECLARE_TR_FUNCTIONS(attnlab::cli)
};

const QCommandLineOption kModel(QStringLiteral("model"), QString(), QStringLiteral("dir"));
const QCommandLineOption kText(QStringLiteral("text"), QString(), QStringLiteral("text"));
const QCommandLineOption& kOutput = kOutputOption;
const QCommandLineOption kLayer(QStringLiteral("layer"), QString(), QStringLiteral("L"));
const QCommandLineOption kHead(QStringLiteral("head"), QString(), QStringLiteral("H"));

QJsonArray rowsOf(const attn::model::FloatMatrix& m)
{
    QJsonArray rows;
    for (long i = 0; i < m.rows(); ++i) {
        QJsonArray row;
        for (long j = 0; j < m.cols(); ++j) row.append(static_cast<double>(m(i, j)));
        rows.append(row);
    }
    return rows;
}

QJsonObject resultJson(const attn::model::Model& model, const attn::tok::Tokenizer& tokenizer,
                       const std::vector<attn::tok::Token>& tokens,
                       const attn::model::ForwardResult& r)
{
    const attn::model::ModelConfig& c = model.config();
    QJsonObject root;
    root[QStringLiteral("model")] = QJsonObject{
        {QStringLiteral("type"), QString::fromStdString(std::string(tokenizer.modelType()))},
        {QStringLiteral("layers"), static_cast<qint64>(c.layers)},
        {QStringLiteral("heads"), static_cast<qint64>(c.heads)}};
    QJsonArray texts, ids;
    for (const attn::tok::Token& t : tokens) {
        // GPT-2's byte tokens decoded; BERT's as in the vocabulary.
        texts.append(QString::fromStdString(tokenizer.gpt2() ? t.text : t.piece));
        ids.append(t.id);
    }
    root[QStringLiteral("tokens")] = texts;
    root[QStringLiteral("ids")] = ids;
    QJsonArray layers;
    for (const attn::model::LayerTrace& layer : r.layers) {
        QJsonArray heads;
        for (const attn::model::FloatMatrix& w : layer.attention)
            heads.append(QJsonObject{{QStringLiteral("weights"), rowsOf(w)}});
        layers.append(QJsonObject{{QStringLiteral("heads"), heads}});
    }
    root[QStringLiteral("layers")] = layers;
    QJsonArray predictions;
    for (const attn::model::Prediction& p : r.predictions) {
        QJsonArray top;
        for (const attn::model::TokenProbability& t : p.top) {
            const attn::tok::Token token = tokenizer.token(t.id);
            top.append(
                QJsonObject{{QStringLiteral("token"),
                             QString::fromStdString(tokenizer.gpt2() ? token.text : token.piece)},
                            {QStringLiteral("id"), t.id},
                            {QStringLiteral("p"), static_cast<double>(t.probability)}});
        }
        predictions.append(
            QJsonObject{{QStringLiteral("position"), static_cast<qint64>(p.position)},
                        {QStringLiteral("top"), top}});
    }
    root[QStringLiteral("predictions")] = predictions;
    return root;
}

bool readIndex(const QCommandLineParser& parser, const QCommandLineOption& option, long count,
               int& out, int& code)
{
    out = 0;
    if (!parser.isSet(option)) return true;
    bool ok = false;
    const int v = parser.value(option).toInt(&ok);
    if (!ok || v < 1 || v > count) {
        code =
            usageError(QStringLiteral("model"), Tr::tr("--%1 must be a whole number from 1 to %2")
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
    return Tr::tr(
        "Usage: attnlab model --model DIR --text TEXT [-o OUT.json|OUT.png|OUT.svg|OUT.pdf]\n"
        "                     [--layer L] [--head H]\n"
        "  Runs a GPT-2 or BERT checkpoint folder (config.json, model.safetensors and the\n"
        "  tokenizer: vocab.json + merges.txt, or vocab.txt) on TEXT. JSON (to stdout without\n"
        "  -o): {\"model\": {\"type\", \"layers\", \"heads\"}, \"tokens\", \"ids\", \"layers\":\n"
        "  [{\"heads\": [{\"weights\"}]}], \"predictions\": [{\"position\", \"top\": [{\"token\",\n"
        "  \"id\", \"p\"}]}]}: GPT-2 predicts the next token, BERT each [MASK]. PNG, SVG or\n"
        "  PDF: the map of one head (--layer and --head count from 1; default 1).\n");
}

int runModel(const QStringList& args)
{
    const QString cmd = QStringLiteral("model");
    QCommandLineParser parser;
    parser.addOptions({kModel, kText, kOutput, kLayer, kHead});
    int parsed = Success;
    if (!parseCommand(parser, args, parsed)) return parsed;
    if (!parser.isSet(kModel) || !parser.isSet(kText))
        return usageError(cmd, Tr::tr("--model DIR and --text TEXT are needed"));
    const QString out = parser.value(kOutput);
    const QString ext = QFileInfo(out).suffix().toLower();
    const bool image =
        ext == QLatin1String("png") || ext == QLatin1String("svg") || ext == QLatin1String("pdf");
    if (parser.isSet(kOutput) && ext != QLatin1String("json") && !image)
        return usageError(cmd,
                          Tr::tr("%1: the output must end in .json, .png, .svg or .pdf").arg(out));

    const std::string folder = QFile::encodeName(parser.value(kModel)).toStdString();
    attn::model::Model model;
    if (const attn::model::ModelStatus s = attn::model::Model::load(folder, model); !s.ok())
        return fail(BadInput, QString::fromStdString(s.message));
    auto loaded = attn::tok::loadTokenizer(folder, model.config().modelType);
    if (const auto* e = std::get_if<attn::tok::LoadError>(&loaded))
        return fail(BadInput, QString::fromStdString(attn::tok::describe(*e)));
    const attn::tok::Tokenizer& tokenizer = std::get<attn::tok::Tokenizer>(loaded);

    const std::vector<attn::tok::Token> tokens =
        tokenizer.encodeTokens(parser.value(kText).toStdString());
    std::vector<int> ids;
    for (const attn::tok::Token& t : tokens) ids.push_back(t.id);
    attn::model::ForwardOptions options;
    if (const attn::tok::BertTokenizer* bert = tokenizer.bert())
        options.maskTokenId = bert->maskId().value_or(-1);
    attn::model::ForwardResult result;
    if (const attn::model::ModelStatus s = attn::model::forward(model, ids, options, result);
        !s.ok())
        return fail(BadInput, QString::fromStdString(s.message));

    int layer = 0, head = 0, code = Success;
    if (!readIndex(parser, kLayer, model.config().layers, layer, code) ||
        !readIndex(parser, kHead, model.config().heads, head, code))
        return code;
    QString error;
    if (image) {
        QStringList labels;
        for (const attn::tok::Token& t : tokens) labels << QString::fromStdString(t.label);
        const Figure f =
            modelMapFigure(labels,
                           result.layers[static_cast<std::size_t>(layer)]
                               .attention[static_cast<std::size_t>(head)],
                           modelMapName(layer, head, static_cast<int>(model.config().heads)));
        if (!writeFigure(f, out, defaultFigureSize(f), 1.0, error)) return fail(WriteFailed, error);
        return Success;
    }
    const QByteArray bytes =
        QJsonDocument(resultJson(model, tokenizer, tokens, result)).toJson(QJsonDocument::Compact);
    return writeOutput(parser.isSet(kOutput) ? out : QString(), bytes);
}

}  // namespace attnlab::cli
