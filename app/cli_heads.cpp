// SPDX-License-Identifier: GPL-3.0-or-later
// attnlab heads --model DIR [--m 32] [--count 16] [--seed K] [-o scores.json]: every head's
// detector scores (core/model/head_detect.h), printed as a table and written as JSON.
#include <nlohmann/json.hpp>

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QFile>

#include "app/cli.h"
#include "core/io/json_read.h"
#include "ui/modelrun/builtin_models.h"
#include "ui/modelrun/loaded_model.h"

namespace attnlab::cli {

namespace {

class CliHeadsTr {
    Q_DECLARE_TR_FUNCTIONS(attnlab::cli)
};

const QCommandLineOption kHeadsModel(QStringLiteral("model"), QString(), QStringLiteral("dir"));
const QCommandLineOption kHalf(QStringLiteral("m"), QString(), QStringLiteral("m"));
const QCommandLineOption kCount(QStringLiteral("count"), QString(), QStringLiteral("n"));
const QCommandLineOption kHeadsSeed(QStringLiteral("seed"), QString(), QStringLiteral("K"));

bool wholeNumber(const QCommandLineParser& p, const QCommandLineOption& o, long lo, long hi,
                 long& value, int& code)
{
    if (!p.isSet(o)) return true;
    bool ok = false;
    const qlonglong v = p.value(o).toLongLong(&ok);
    if (ok && v >= lo && v <= hi) {
        value = static_cast<long>(v);
        return true;
    }
    code = usageError(QStringLiteral("heads"),
                      CliHeadsTr::tr("--%1 must be a whole number from %2 to %3, not \"%4\"")
                          .arg(o.names().constFirst())
                          .arg(lo)
                          .arg(hi)
                          .arg(p.value(o)));
    return false;
}

}  // namespace

QString headsUsage()
{
    return CliHeadsTr::tr(
        "Usage: attnlab heads --model DIR|builtin:NAME [--m 32] [--count 16] [--seed K]\n"
        "                     [-o scores.json]\n"
        "  What kind of head each head is. The model reads --count sequences of m random\n"
        "  tokens of its vocabulary followed by the same m tokens; for every layer and\n"
        "  head, averaged over the sequences:\n"
        "    previous-token  mean P[i, i-1] over i >= 1\n"
        "    duplicate-token mean P[i, i-m] over i >= m (the earlier copy of the token)\n"
        "    induction       mean P[i, i-m+1] over i >= m (the token after that copy)\n"
        "    first-token     mean P[i, 0] over i >= 1 (an attention sink)\n"
        "  Prints a table; -o writes {\"layers\": [{\"heads\": [{\"previous_token\",\n"
        "  \"duplicate_token\", \"induction\", \"first_token\"}]}]} (layers and heads in\n"
        "  order, from 1 on screen). The same seed draws the same tokens.\n");
}

int runHeads(const QStringList& args)
{
    const QString cmd = QStringLiteral("heads");
    QCommandLineParser parser;
    parser.addOptions({kHeadsModel, kHalf, kCount, kHeadsSeed, kOutputOption});
    int code = Success;
    if (!parseCommand(parser, args, code)) return code;
    if (!parser.isSet(kHeadsModel)) return usageError(cmd, CliHeadsTr::tr("--model DIR is needed"));
    attn::model::DetectSpec spec;
    long seed = 1;
    if (!wholeNumber(parser, kHalf, attn::model::kMinDetectHalf, 1 << 20, spec.m, code) ||
        !wholeNumber(parser, kCount, 1, 100000, spec.count, code) ||
        !wholeNumber(parser, kHeadsSeed, 1, 2147483647L, seed, code))
        return code;
    spec.seed = static_cast<std::uint64_t>(seed);
    QString resolveError;
    const QString resolved = resolveModelFolder(parser.value(kHeadsModel), resolveError);
    if (resolved.isEmpty()) return fail(BadInput, resolveError);
    attn::Status problem;
    const std::shared_ptr<const LoadedModel> loaded = loadModelFolder(resolved, problem);
    if (!loaded) return fail(BadInput, QString::fromStdString(attn::describe(problem)));
    if (!checkOutputs({parser.value(kOutputOption)}, code)) return code;
    attn::HeadScoreTable table;
    if (const attn::Status s = detectHeadsOf(*loaded, spec, table); !s.ok())
        return fail(BadInput, QString::fromStdString(attn::describe(s)));

    nlohmann::ordered_json layers = nlohmann::ordered_json::array();
    // A data table: its columns are named as in the JSON, in every language.
    QString text = QStringLiteral("layer head  previous  duplicate  induction  first\n");
    for (std::size_t l = 0; l < table.size(); ++l) {
        nlohmann::ordered_json heads = nlohmann::ordered_json::array();
        for (std::size_t h = 0; h < table[l].size(); ++h) {
            nlohmann::ordered_json o = nlohmann::ordered_json::object();
            QString line = QStringLiteral("%1 %2").arg(l + 1, 5).arg(h + 1, 4);
            for (attn::HeadKind k : attn::kHeadKinds) {
                const double v = attn::scoreOf(table[l][h], k);
                o[attn::headKindKey(k)] = v;
                line += QStringLiteral("  %1").arg(v, 9, 'f', 4);
            }
            heads.push_back(o);
            text += line + QLatin1Char('\n');
        }
        layers.push_back({{"heads", heads}});
    }
    for (attn::HeadKind k : attn::kHeadKinds) {
        int layer = -1, head = -1;
        attn::bestHead(table, k, layer, head);
        if (layer >= 0)
            text += CliHeadsTr::tr("highest %1: layer %2 head %3 (%4)\n")
                        .arg(QLatin1String(attn::headKindKey(k)))
                        .arg(layer + 1)
                        .arg(head + 1)
                        .arg(attn::scoreOf(table[layer][head], k), 0, 'f', 4);
    }
    if (parser.isSet(kOutputOption)) {
        const nlohmann::ordered_json root = {{"layers", layers}};
        if (int c = writeOutput(parser.value(kOutputOption),
                                QByteArray::fromStdString(root.dump(4) + "\n"));
            c != Success)
            return c;
    }
    return printOut(text);
}

QString modelsUsage()
{
    return CliHeadsTr::tr(
        "Usage: attnlab models\n"
        "  Lists the trained models built into AttnLab: one per line, the name to give as\n"
        "  --model builtin:NAME (to attnlab model and attnlab heads), its title, and the\n"
        "  command that trained it.\n");
}

int runModels(const QStringList& args)
{
    QCommandLineParser parser;
    int code = Success;
    if (!parseCommand(parser, args, code)) return code;
    QString text;
    for (const BuiltinModel& m : builtinModels()) {
        QString command;
        QFile f(QStringLiteral(":/models/%1/training.json").arg(m.name));
        nlohmann::json record;
        // The losses and measures are long and not needed here.
        const auto skip = [](std::string*, std::size_t, nlohmann::json&, std::string&) {
            return true;
        };
        const attn::io::JsonStream streams[] = {{"loss", skip}, {"measures", skip}};
        if (f.open(QIODevice::ReadOnly)) {
            const QByteArray bytes = f.readAll();
            if (attn::io::parseJson(
                    std::string_view(bytes.constData(), static_cast<std::size_t>(bytes.size())),
                    record, streams)
                    .ok() &&
                record.contains("command") && record["command"].is_string())
                command = QString::fromStdString(record["command"].get<std::string>());
        }
        text += QStringLiteral("%1\t%2\t%3\n").arg(builtinReference(m.name), m.title, command);
    }
    return printOut(text);
}

}  // namespace attnlab::cli
