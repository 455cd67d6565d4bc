// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/model/model_recovery.h"

#include <nlohmann/json.hpp>
#include <string>

#include <QCoreApplication>
#include <QDir>

#include "ui/io/autosave.h"
#include "ui/model/model_loader.h"
#include "ui/model/model_window.h"
#include "ui/model/recovery_file.h"
#include "ui/modelrun/model_snapshot.h"
#include "ui/readers/atomic_file.h"

namespace attnlab {

namespace {

using nlohmann::json;
using recovery::Refused;

constexpr const char* kModelFormat = "attnlab-model-recovery";

struct ModelRecoveryText {
    Q_DECLARE_TR_FUNCTIONS(attnlab::ModelRecovery)
};

const ModelFocus kFocus[] = {ModelFocus::Head, ModelFocus::LayerAverage, ModelFocus::Rollout};
const char* const kFocusNames[] = {"head", "average", "rollout"};

}  // namespace

ModelRecoveryState modelRecoveryState(const ModelDocument& doc)
{
    return {doc.folder(), doc.text(), doc.edits(), doc.selection()};
}

QByteArray modelRecoveryJson(const ModelRecoveryState& state)
{
    json edits = json::array();
    for (const attn::model::HeadEdit& e : state.edits)
        edits.push_back(recovery::editJson(e, false));
    const ModelSelection& s = state.selection;
    std::size_t focus = 0;
    while (focus + 1 < std::size(kFocus) && kFocus[focus] != s.focus) ++focus;
    const json doc = {{"format", kModelFormat},
                      {"version", 1},
                      {"folder", state.folder.toStdString()},
                      {"text", state.text.toStdString()},
                      {"edits", edits},
                      {"selection",
                       {{"layer", s.layer},
                        {"head", s.head},
                        {"focus", kFocusNames[focus]},
                        {"query", s.query}}}};
    return QByteArray::fromStdString(doc.dump(1, ' ', false, json::error_handler_t::replace));
}

bool writeModelRecovery(const QString& path, const ModelRecoveryState& state, QString& error)
{
    return writeFileAtomically(path, modelRecoveryJson(state), error);
}

bool parseModelRecovery(const QByteArray& bytes, ModelRecoveryState& state, QString& error)
{
    try {
        const json doc = recovery::parseObject(bytes, kMaxModelRecoveryBytes, kModelFormat,
                                               ModelRecoveryText::tr("model window's"));
        ModelRecoveryState out;
        out.folder = recovery::text(doc, "folder");
        out.text = recovery::text(doc, "text");
        const json& edits = recovery::field(doc, "edits");
        if (!edits.is_array()) throw Refused{ModelRecoveryText::tr("\"edits\" is not a list")};
        for (const json& e : edits) out.edits.push_back(recovery::readEdit(e, false));
        const json& s = recovery::field(doc, "selection");
        out.selection.layer = static_cast<int>(recovery::whole(s, "layer", 0, recovery::kMaxIndex));
        out.selection.head = static_cast<int>(recovery::whole(s, "head", 0, recovery::kMaxIndex));
        out.selection.focus = kFocus[recovery::oneOf(s, "focus", {"head", "average", "rollout"})];
        out.selection.query =
            static_cast<int>(recovery::whole(s, "query", -1, recovery::kMaxIndex));
        state = std::move(out);
        return true;
    } catch (const Refused& r) {
        error = r.message;
        return false;
    }
}

bool readModelRecovery(const QString& path, ModelRecoveryState& state, QString& error)
{
    return recovery::readFile(
        path, kMaxModelRecoveryBytes,
        [&state](const QByteArray& bytes, QString& e) {
            return parseModelRecovery(bytes, state, e);
        },
        error);
}

bool restoreModelRecovery(ModelWindow* window, const ModelRecoveryState& state, QString& error)
{
    const QString folder = QDir::toNativeSeparators(state.folder);
    QString problem;
    // Checked on a model of its own first, so that a refusal leaves the window as it was.
    const std::shared_ptr<const LoadedModel> model = loadModelFolderAway(state.folder, problem);
    if (!model) {
        error = ModelRecoveryText::tr("The model folder %1 cannot be opened any more: %2")
                    .arg(folder, problem);
        return false;
    }
    const int layers = static_cast<int>(model->model.config().layers);
    const int heads = static_cast<int>(model->model.config().heads);
    const auto outside = [&](const QString& what, int layer, int head) {
        if (layer < layers && head < heads) return false;
        error = ModelRecoveryText::tr(
                    "%1 is layer %2 head %3, but the model in %4 has %5 layers of %6 heads.")
                    .arg(what)
                    .arg(layer + 1)
                    .arg(head + 1)
                    .arg(folder)
                    .arg(layers)
                    .arg(heads);
        return true;
    };
    for (const attn::model::HeadEdit& e : state.edits)
        if (outside(ModelRecoveryText::tr("An edited head"), e.layer, e.head)) return false;
    const ModelSelection& s = state.selection;
    if (outside(ModelRecoveryText::tr("The open head"), s.layer, s.head)) return false;
    ModelDocument* doc = window->document();
    if (!doc->open(state.folder, problem)) {
        error = ModelRecoveryText::tr("The model folder %1 cannot be opened any more: %2")
                    .arg(folder, problem);
        return false;
    }
    window->setText(state.text);
    doc->applyEdits(state.edits);
    doc->selectHead(s.layer, s.head);
    if (s.focus != ModelFocus::Head) doc->selectAggregate(s.layer, s.focus);
    // The query row exists once the text has run.
    if (s.query >= 0)
        QObject::connect(
            doc, &ModelDocument::snapshotChanged, doc,
            [doc, row = s.query] { doc->selectQuery(row); }, Qt::SingleShotConnection);
    return true;
}

bool offerModelRecovery(ModelWindow* window, bool withoutAsking,
                        const ModelRecoveryDialogs& dialogs)
{
    ModelRecoveryState state;
    RecoveryOffer offer;
    offer.askTitle = ModelRecoveryText::tr("Restore the model window?");
    offer.askText = ModelRecoveryText::tr(
        "AttnLab did not close normally. The model window on %1 (its text, head edits "
        "and open head) was saved automatically at %2.\n\nRestore it? Discard deletes "
        "it; Cancel keeps it for the next start.");
    offer.unknownFolder = ModelRecoveryText::tr("a model");
    offer.failTitle = ModelRecoveryText::tr("Cannot restore the model window");
    offer.read = [&state](const QString& path, QString& folder, QString& error) {
        if (!readModelRecovery(path, state, error)) return false;
        folder = state.folder;
        return true;
    };
    offer.restore = [&state, window](QString& error) -> Autosave* {
        if (!restoreModelRecovery(window, state, error)) return nullptr;
        window->present();
        return window->autosave();
    };
    return offerRecovery(window->autosave()->directory(), AutosaveKind::model(), withoutAsking,
                         dialogs, offer);
}

}  // namespace attnlab
