// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/model/model_recovery.h"

#include <cmath>
#include <nlohmann/json.hpp>
#include <string>

#include <QCoreApplication>
#include <QDir>
#include <QLocale>

#include "ui/document/away.h"
#include "ui/io/autosave.h"
#include "ui/model/model_loader.h"
#include "ui/model/model_window.h"
#include "ui/modelrun/model_snapshot.h"
#include "ui/readers/atomic_file.h"
#include "ui/readers/bounded_read.h"

namespace attnlab {

namespace {

using attn::model::HeadEditKind;
using nlohmann::json;

constexpr const char* kFormat = "attnlab-model-recovery";
// Far above any checkpoint's layers, heads and positions; the open model checks the rest.
constexpr long kMaxIndex = 1L << 20;

struct Text {
    Q_DECLARE_TR_FUNCTIONS(attnlab::ModelRecovery)
};

const std::pair<HeadEditKind, const char*> kKinds[] = {{HeadEditKind::Query, "query"},
                                                       {HeadEditKind::Key, "key"},
                                                       {HeadEditKind::Value, "value"},
                                                       {HeadEditKind::AblateZero, "ablate-zero"},
                                                       {HeadEditKind::AblateMean, "ablate-mean"}};
const std::pair<ModelFocus, const char*> kFocus[] = {{ModelFocus::Head, "head"},
                                                     {ModelFocus::LayerAverage, "average"},
                                                     {ModelFocus::Rollout, "rollout"}};

template <typename E, std::size_t N>
const char* nameOf(const std::pair<E, const char*> (&table)[N], E value)
{
    for (const auto& [v, name] : table)
        if (v == value) return name;
    return table[0].second;
}

// Reading: each getter throws a translated message naming the field.
struct Refused {
    QString message;
};

const json& field(const json& object, const char* name)
{
    if (!object.is_object() || !object.contains(name))
        throw Refused{Text::tr("the field \"%1\" is missing").arg(QLatin1String(name))};
    return object.at(name);
}

QString text(const json& object, const char* name)
{
    const json& v = field(object, name);
    if (!v.is_string())
        throw Refused{Text::tr("the field \"%1\" is not a string").arg(QLatin1String(name))};
    return QString::fromStdString(v.get<std::string>());
}

long whole(const json& object, const char* name, long min, long max)
{
    const json& v = field(object, name);
    if (!v.is_number_integer() || v.get<long long>() < min || v.get<long long>() > max)
        throw Refused{Text::tr("\"%1\" must be a whole number from %2 to %3")
                          .arg(QLatin1String(name))
                          .arg(min)
                          .arg(max)};
    return static_cast<long>(v.get<long long>());
}

template <typename E, std::size_t N>
E named(const json& object, const char* name, const std::pair<E, const char*> (&table)[N])
{
    const json& v = field(object, name);
    if (v.is_string())
        for (const auto& [value, label] : table)
            if (v.get<std::string>() == label) return value;
    throw Refused{Text::tr("\"%1\" has an unknown value").arg(QLatin1String(name))};
}

}  // namespace

ModelRecoveryState modelRecoveryState(const ModelDocument& doc)
{
    return {doc.folder(), doc.text(), doc.edits(), doc.selection()};
}

QByteArray modelRecoveryJson(const ModelRecoveryState& state)
{
    json edits = json::array();
    for (const attn::model::HeadEdit& e : state.edits)
        edits.push_back({{"kind", nameOf(kKinds, e.kind)},
                         {"layer", e.layer},
                         {"head", e.head},
                         {"index", e.index},
                         {"scale", e.scale}});
    const ModelSelection& s = state.selection;
    const json doc = {{"format", kFormat},
                      {"version", 1},
                      {"folder", state.folder.toStdString()},
                      {"text", state.text.toStdString()},
                      {"edits", edits},
                      {"selection",
                       {{"layer", s.layer},
                        {"head", s.head},
                        {"focus", nameOf(kFocus, s.focus)},
                        {"query", s.query}}}};
    return QByteArray::fromStdString(doc.dump(1, ' ', false, json::error_handler_t::replace));
}

bool writeModelRecovery(const QString& path, const ModelRecoveryState& state, QString& error)
{
    return writeFileAtomically(path, modelRecoveryJson(state), error);
}

bool parseModelRecovery(const QByteArray& bytes, ModelRecoveryState& state, QString& error)
{
    if (bytes.size() > kMaxModelRecoveryBytes) {
        error = Text::tr("it is larger than %1 MiB").arg(kMaxModelRecoveryBytes >> 20);
        return false;
    }
    const json doc = json::parse(bytes.begin(), bytes.end(), nullptr, false);
    if (doc.is_discarded() || !doc.is_object()) {
        error = Text::tr("it is not a JSON object");
        return false;
    }
    try {
        if (text(doc, "format") != QLatin1String(kFormat) || whole(doc, "version", 1, 1) != 1)
            throw Refused{Text::tr("it is not a model window's recovery file")};
        ModelRecoveryState out;
        out.folder = text(doc, "folder");
        out.text = text(doc, "text");
        const json& edits = field(doc, "edits");
        if (!edits.is_array()) throw Refused{Text::tr("\"edits\" is not a list")};
        for (const json& e : edits) {
            attn::model::HeadEdit edit;
            edit.kind = named(e, "kind", kKinds);
            edit.layer = static_cast<int>(whole(e, "layer", 0, kMaxIndex));
            edit.head = static_cast<int>(whole(e, "head", 0, kMaxIndex));
            edit.index = whole(e, "index", 0, kMaxIndex);
            const json& scale = field(e, "scale");
            edit.scale = scale.is_number() ? static_cast<float>(scale.get<double>()) : NAN;
            if (!std::isfinite(edit.scale))
                throw Refused{Text::tr("\"scale\" must be a finite number")};
            out.edits.push_back(edit);
        }
        const json& s = field(doc, "selection");
        out.selection.layer = static_cast<int>(whole(s, "layer", 0, kMaxIndex));
        out.selection.head = static_cast<int>(whole(s, "head", 0, kMaxIndex));
        out.selection.focus = named(s, "focus", kFocus);
        out.selection.query = static_cast<int>(whole(s, "query", -1, kMaxIndex));
        state = std::move(out);
        return true;
    } catch (const Refused& r) {
        error = r.message;
        return false;
    }
}

bool readModelRecovery(const QString& path, ModelRecoveryState& state, QString& error)
{
    const QString name = QDir::toNativeSeparators(path);
    QByteArray bytes;
    QString problem;
    if (!runAway([&] { return readUserFile(path, kMaxModelRecoveryBytes, bytes, problem); })) {
        error = Text::tr("%1 cannot be read: %2").arg(name, problem);
        return false;
    }
    if (!parseModelRecovery(bytes, state, error)) {
        error = Text::tr("%1 was refused: %2.").arg(name, error);
        return false;
    }
    return true;
}

bool restoreModelRecovery(ModelWindow* window, const ModelRecoveryState& state, QString& error)
{
    const QString folder = QDir::toNativeSeparators(state.folder);
    QString problem;
    // Checked on a model of its own first, so that a refusal leaves the window as it was.
    const std::shared_ptr<const LoadedModel> model = loadModelFolderAway(state.folder, problem);
    if (!model) {
        error = Text::tr("The model folder %1 cannot be opened any more: %2").arg(folder, problem);
        return false;
    }
    const int layers = static_cast<int>(model->model.config().layers);
    const int heads = static_cast<int>(model->model.config().heads);
    const auto outside = [&](const QString& what, int layer, int head) {
        if (layer < layers && head < heads) return false;
        error = Text::tr("%1 is layer %2 head %3, but the model in %4 has %5 layers of %6 heads.")
                    .arg(what)
                    .arg(layer + 1)
                    .arg(head + 1)
                    .arg(folder)
                    .arg(layers)
                    .arg(heads);
        return true;
    };
    for (const attn::model::HeadEdit& e : state.edits)
        if (outside(Text::tr("An edited head"), e.layer, e.head)) return false;
    const ModelSelection& s = state.selection;
    if (outside(Text::tr("The open head"), s.layer, s.head)) return false;
    ModelDocument* doc = window->document();
    if (!doc->open(state.folder, problem)) {
        error = Text::tr("The model folder %1 cannot be opened any more: %2").arg(folder, problem);
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

ModelRecoveryDialogs defaultModelRecoveryDialogs()
{
    ModelRecoveryDialogs d;
    d.ask = [](const QString& title, const QString& text) {
        return QMessageBox::question(nullptr, title, text,
                                     QMessageBox::Yes | QMessageBox::Discard | QMessageBox::Cancel);
    };
    d.warn = [](const QString& title, const QString& text) {
        QMessageBox::warning(nullptr, title, text);
    };
    return d;
}

bool offerModelRecovery(ModelWindow* window, bool withoutAsking,
                        const ModelRecoveryDialogs& dialogs)
{
    Autosave* autosave = window->autosave();
    const QList<Autosave::Orphan> orphans =
        Autosave::findOrphans(autosave->directory(), AutosaveKind::model());
    if (orphans.isEmpty()) return false;
    const Autosave::Orphan& newest = orphans.front();
    ModelRecoveryState state;
    QString error;
    const bool readable = readModelRecovery(newest.sessionPath, state, error);
    if (!withoutAsking) {
        const QString what =
            readable ? QDir::toNativeSeparators(state.folder) : Text::tr("a model");
        const QMessageBox::StandardButton answer = dialogs.ask(
            Text::tr("Restore the model window?"),
            Text::tr("AttnLab did not close normally. The model window on %1 (its text, head edits "
                     "and open head) was saved automatically at %2.\n\nRestore it? Discard deletes "
                     "it; Cancel keeps it for the next start.")
                .arg(what, QLocale().toString(newest.written, QLocale::ShortFormat)));
        if (answer == QMessageBox::Discard) Autosave::removeOrphan(newest);
        if (answer != QMessageBox::Yes) return false;
    }
    if (!readable || !restoreModelRecovery(window, state, error)) {
        // Offered at every start it would never open: set aside, and say where it is.
        const QString aside = Autosave::setAside(newest);
        error += QLatin1Char(' ') +
                 (aside.isEmpty() ? Text::tr("It could not be set aside either.")
                                  : Text::tr("It was kept as %1 and will not be offered again.")
                                        .arg(QDir::toNativeSeparators(aside)));
        dialogs.warn(Text::tr("Cannot restore the model window"), error);
        return false;
    }
    window->present();
    // Keep the state on disk under this window's name before dropping the orphan.
    autosave->writeNow();
    if (newest.sessionPath != autosave->recoveryPath()) Autosave::removeOrphan(newest);
    return true;
}

}  // namespace attnlab
