// SPDX-License-Identifier: GPL-3.0-or-later
// attnlab align: how well each cross-attention head of a dates translator lines up the fields
// of the date (core/train/dates_align.h).
#include <nlohmann/json.hpp>

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QFile>

#include "app/cli.h"
#include "app/cli_model_edits.h"
#include "core/train/dates_align.h"
#include "ui/modelrun/builtin_models.h"
#include "ui/readers/status_text.h"

namespace attnlab::cli {

namespace {

class CliAlignTr {
    Q_DECLARE_TR_FUNCTIONS(attnlab::cli)
};

const QCommandLineOption kAlignModel(QStringLiteral("model"), QString(), QStringLiteral("dir"));
const QCommandLineOption kAlignCount(QStringLiteral("count"), QString(), QStringLiteral("n"),
                                     QStringLiteral("200"));
const QCommandLineOption kAlignAblate(QStringLiteral("ablate"), QString(), QStringLiteral("spec"));

QString table(const attn::dates::FolderAlignment& a)
{
    // A data table: its columns are named as in the JSON, in every language.
    QString text = QStringLiteral("layer head  alignment\n");
    for (std::size_t l = 0; l < a.alignment.heads.size(); ++l)
        for (std::size_t h = 0; h < a.alignment.heads[l].size(); ++h)
            text += QStringLiteral("%1 %2  %3\n")
                        .arg(l + 1, 5)
                        .arg(h + 1, 4)
                        .arg(a.alignment.heads[l][h], 9, 'f', 4);
    return text + CliAlignTr::tr(
                      "best: layer %1 head %2 (%3); exact match of the greedy "
                      "translations %4 (%5 held-out dates)\n")
                      .arg(a.alignment.bestLayer + 1)
                      .arg(a.alignment.bestHead + 1)
                      .arg(a.alignment.best, 0, 'f', 4)
                      .arg(a.accuracy, 0, 'f', 4)
                      .arg(a.count);
}

}  // namespace

QString alignUsage()
{
    return CliAlignTr::tr(
        "Usage: attnlab align --model DIR|builtin:NAME [--count N]\n"
        "                     [--ablate kind=cross,layer=L,head=H[,mean]]... [-o scores.json]\n"
        "  For a translator that attnlab train-model --task dates made: every\n"
        "  cross-attention head's alignment over N held-out dates (default 200, forms in\n"
        "  turn). A head is aligned on a target token of a field (month, day, year) when\n"
        "  the row of the decoder position that predicts it, teacher forced, puts its\n"
        "  largest weight on a source token of the same field; its alignment is the\n"
        "  fraction of such tokens it is aligned on. Also the exact match of the model's\n"
        "  greedy translations of the same dates. Prints a layers x heads table; -o writes\n"
        "  {\"layers\": [{\"heads\": [{\"alignment\"}]}], \"best\", \"accuracy\", \"count\"}.\n"
        "  --ablate switches a head off in every pass (as attnlab model does): how much\n"
        "  of the translation it carries. Any other model is refused: the measure needs\n"
        "  the task's field spans.\n");
}

int runAlign(const QStringList& args)
{
    const QString cmd = QStringLiteral("align");
    QCommandLineParser parser;
    parser.addOptions({kAlignModel, kAlignCount, kAlignAblate, kOutputOption});
    int code = Success;
    if (!parseCommand(parser, args, code)) return code;
    if (!parser.isSet(kAlignModel)) return usageError(cmd, CliAlignTr::tr("--model DIR is needed"));
    bool ok = false;
    const long count = parser.value(kAlignCount).toLong(&ok);
    if (!ok || count < 1 || count > attn::dates::kMaxAlignCount)
        return usageError(cmd, CliAlignTr::tr("--count must be a whole number from 1 to %1, not "
                                              "\"%2\"")
                                   .arg(attn::dates::kMaxAlignCount)
                                   .arg(parser.value(kAlignCount)));
    std::vector<attn::model::HeadEdit> edits;
    QString editError;
    const QStringList ablations = parser.values(kAlignAblate);
    if (!parseModelEdits({}, ablations, edits, editError)) return usageError(cmd, editError);
    QString resolveError;
    const QString folder = resolveModelFolder(parser.value(kAlignModel), resolveError);
    if (folder.isEmpty()) return fail(BadInput, resolveError);
    if (!checkOutputs({parser.value(kOutputOption)}, code)) return code;
    attn::dates::FolderAlignment a;
    if (const attn::Status s =
            attn::dates::alignFolder(QFile::encodeName(folder).toStdString(), count, a, edits);
        !s.ok()) {
        if (s.edit >= 0 || s.cause == attn::Cause::Edit)
            return usageError(cmd, editRefusal(s, {}, ablations));
        return fail(BadInput, statusMessage(s));
    }
    if (parser.isSet(kOutputOption)) {
        nlohmann::ordered_json layers = nlohmann::ordered_json::array();
        for (const auto& row : a.alignment.heads) {
            nlohmann::ordered_json heads = nlohmann::ordered_json::array();
            for (double v : row) heads.push_back({{"alignment", v}});
            layers.push_back({{"heads", heads}});
        }
        const nlohmann::ordered_json root = {{"layers", layers},
                                             {"best",
                                              {{"layer", a.alignment.bestLayer + 1},
                                               {"head", a.alignment.bestHead + 1},
                                               {"alignment", a.alignment.best}}},
                                             {"accuracy", a.accuracy},
                                             {"count", a.count}};
        if (int c = writeOutput(parser.value(kOutputOption),
                                QByteArray::fromStdString(root.dump(2) + "\n"));
            c != Success)
            return c;
    }
    return printOut(table(a));
}

}  // namespace attnlab::cli
