// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/model/recovery_file.h"

#include <cmath>
#include <nlohmann/json.hpp>
#include <string>

#include <QCoreApplication>
#include <QDir>
#include <QLocale>

#include "ui/document/away.h"
#include "ui/io/autosave.h"
#include "ui/readers/bounded_read.h"

namespace attnlab {

namespace {

using attn::model::AttentionKind;
using attn::model::HeadEditKind;
using nlohmann::json;

struct RecoveryText {
    Q_DECLARE_TR_FUNCTIONS(attnlab::ModelRecovery)
};

// In the order of the enums' tables below.
const HeadEditKind kKinds[] = {HeadEditKind::Query, HeadEditKind::Key, HeadEditKind::Value,
                               HeadEditKind::AblateZero, HeadEditKind::AblateMean};
const char* const kKindNames[] = {"query", "key", "value", "ablate-zero", "ablate-mean"};
const AttentionKind kAttention[] = {AttentionKind::Encoder, AttentionKind::Decoder,
                                    AttentionKind::Cross};

}  // namespace

namespace recovery {

const json& field(const json& object, const char* name)
{
    if (!object.is_object() || !object.contains(name))
        throw Refused{RecoveryText::tr("the field \"%1\" is missing").arg(QLatin1String(name))};
    return object.at(name);
}

QString text(const json& object, const char* name)
{
    const json& v = field(object, name);
    if (!v.is_string())
        throw Refused{
            RecoveryText::tr("the field \"%1\" is not a string").arg(QLatin1String(name))};
    return QString::fromStdString(v.get<std::string>());
}

long whole(const json& object, const char* name, long min, long max)
{
    const json& v = field(object, name);
    if (!v.is_number_integer() || v.get<long long>() < min || v.get<long long>() > max)
        throw Refused{RecoveryText::tr("\"%1\" must be a whole number from %2 to %3")
                          .arg(QLatin1String(name))
                          .arg(min)
                          .arg(max)};
    return static_cast<long>(v.get<long long>());
}

std::size_t oneOf(const json& object, const char* name, std::initializer_list<const char*> labels)
{
    const json& v = field(object, name);
    if (v.is_string()) {
        std::size_t i = 0;
        for (const char* label : labels) {
            if (v.get<std::string>() == label) return i;
            ++i;
        }
    }
    // translate(), not RecoveryText::tr(): lupdate loses the class after an initializer list.
    throw Refused{
        QCoreApplication::translate("attnlab::ModelRecovery", "\"%1\" has an unknown value")
            .arg(QLatin1String(name))};
}

json parseObject(const QByteArray& bytes, qint64 maxBytes, const char* format, const QString& what)
{
    if (bytes.size() > maxBytes)
        throw Refused{RecoveryText::tr("it is larger than %1 MiB").arg(maxBytes >> 20)};
    json doc = json::parse(bytes.begin(), bytes.end(), nullptr, false);
    if (doc.is_discarded() || !doc.is_object())
        throw Refused{RecoveryText::tr("it is not a JSON object")};
    if (text(doc, "format") != QLatin1String(format) || whole(doc, "version", 1, 1) != 1)
        throw Refused{RecoveryText::tr("it is not a %1 recovery file").arg(what)};
    return doc;
}

json editJson(const attn::model::HeadEdit& e, bool withAttention)
{
    json out = json::object();
    if (withAttention) out["attention"] = attn::model::attentionKindName(e.attention);
    std::size_t k = 0;
    while (k + 1 < std::size(kKinds) && kKinds[k] != e.kind) ++k;
    out["kind"] = kKindNames[k];
    out["layer"] = e.layer;
    out["head"] = e.head;
    out["index"] = e.index;
    out["scale"] = e.scale;
    return out;
}

AttentionKind readAttention(const json& object)
{
    return kAttention[oneOf(object, "attention", {"encoder", "decoder", "cross"})];
}

attn::model::HeadEdit readEdit(const json& e, bool withAttention)
{
    attn::model::HeadEdit edit;
    if (withAttention) edit.attention = readAttention(e);
    edit.kind = kKinds[oneOf(e, "kind", {"query", "key", "value", "ablate-zero", "ablate-mean"})];
    edit.layer = static_cast<int>(whole(e, "layer", 0, kMaxIndex));
    edit.head = static_cast<int>(whole(e, "head", 0, kMaxIndex));
    edit.index = whole(e, "index", 0, kMaxIndex);
    const json& scale = field(e, "scale");
    edit.scale = scale.is_number() ? static_cast<float>(scale.get<double>()) : NAN;
    if (!std::isfinite(edit.scale))
        throw Refused{QCoreApplication::translate("attnlab::ModelRecovery",
                                                  "\"scale\" must be a finite number")};
    return edit;
}

bool readFile(const QString& path, qint64 maxBytes,
              const std::function<bool(const QByteArray&, QString&)>& parse, QString& error)
{
    const QString name = QDir::toNativeSeparators(path);
    QByteArray bytes;
    QString problem;
    if (!runAway([&] { return readUserFile(path, maxBytes, bytes, problem); })) {
        error = RecoveryText::tr("%1 cannot be read: %2").arg(name, problem);
        return false;
    }
    if (!parse(bytes, error)) {
        error = RecoveryText::tr("%1 was refused: %2.").arg(name, error);
        return false;
    }
    return true;
}

}  // namespace recovery

RecoveryDialogs defaultRecoveryDialogs()
{
    RecoveryDialogs d;
    d.ask = [](const QString& title, const QString& text) {
        return QMessageBox::question(nullptr, title, text,
                                     QMessageBox::Yes | QMessageBox::Discard | QMessageBox::Cancel);
    };
    d.warn = [](const QString& title, const QString& text) {
        QMessageBox::warning(nullptr, title, text);
    };
    return d;
}

bool offerRecovery(const QString& dir, const AutosaveKind& kind, bool withoutAsking,
                   const RecoveryDialogs& dialogs, const RecoveryOffer& offer)
{
    const QList<Autosave::Orphan> orphans = Autosave::findOrphans(dir, kind);
    if (orphans.isEmpty()) return false;
    const Autosave::Orphan& newest = orphans.front();
    QString folder;
    QString error;
    const bool readable = offer.read(newest.sessionPath, folder, error);
    if (!withoutAsking) {
        const QString what = readable ? QDir::toNativeSeparators(folder) : offer.unknownFolder;
        const QMessageBox::StandardButton answer = dialogs.ask(
            offer.askTitle,
            offer.askText.arg(what, QLocale().toString(newest.written, QLocale::ShortFormat)));
        if (answer == QMessageBox::Discard) Autosave::removeOrphan(newest);
        if (answer != QMessageBox::Yes) return false;
    }
    Autosave* restored = readable ? offer.restore(error) : nullptr;
    if (restored == nullptr) {
        // Offered at every start it would never open: set aside, and say where it is.
        const QString aside = Autosave::setAside(newest);
        error +=
            QLatin1Char(' ') +
            (aside.isEmpty() ? RecoveryText::tr("It could not be set aside either.")
                             : RecoveryText::tr("It was kept as %1 and will not be offered again.")
                                   .arg(QDir::toNativeSeparators(aside)));
        dialogs.warn(offer.failTitle, error);
        return false;
    }
    // Keep the state on disk under the window's own name before dropping the orphan.
    restored->writeNow();
    if (newest.sessionPath != restored->recoveryPath()) Autosave::removeOrphan(newest);
    return true;
}

}  // namespace attnlab
