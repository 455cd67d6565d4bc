// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/model/seq2seq_recovery.h"

#include <nlohmann/json.hpp>
#include <string>

#include <QCoreApplication>
#include <QDir>
#include <QLineEdit>

#include "ui/io/autosave.h"
#include "ui/model/seq2seq_window.h"
#include "ui/readers/atomic_file.h"

namespace attnlab {

namespace {

using attn::model::AttentionKind;
using nlohmann::json;
using recovery::Refused;

constexpr const char* kTranslatorFormat = "attnlab-translator-recovery";

struct TranslatorText {
    Q_DECLARE_TR_FUNCTIONS(attnlab::ModelRecovery)
};

QString attentionName(AttentionKind kind)
{
    switch (kind) {
    case AttentionKind::Encoder: return TranslatorText::tr("encoder");
    case AttentionKind::Decoder: return TranslatorText::tr("decoder");
    case AttentionKind::Cross: return TranslatorText::tr("cross-attention");
    }
    return {};
}

}  // namespace

Seq2SeqRecoveryState seq2seqRecoveryState(const Seq2SeqDocument& doc)
{
    return {doc.folder(), doc.source(), doc.target(), doc.edits(), doc.selection()};
}

QByteArray seq2seqRecoveryJson(const Seq2SeqRecoveryState& state)
{
    json edits = json::array();
    for (const attn::model::HeadEdit& e : state.edits) edits.push_back(recovery::editJson(e, true));
    const Seq2SeqSelection& s = state.selection;
    const json doc = {{"format", kTranslatorFormat},
                      {"version", 1},
                      {"folder", state.folder.toStdString()},
                      {"source", state.source.toStdString()},
                      {"target", state.target.toStdString()},
                      {"edits", edits},
                      {"selection",
                       {{"attention", attn::model::attentionKindName(s.kind)},
                        {"layer", s.layer},
                        {"head", s.head}}}};
    return QByteArray::fromStdString(doc.dump(1, ' ', false, json::error_handler_t::replace));
}

bool writeSeq2SeqRecovery(const QString& path, const Seq2SeqRecoveryState& state, QString& error)
{
    return writeFileAtomically(path, seq2seqRecoveryJson(state), error);
}

bool parseSeq2SeqRecovery(const QByteArray& bytes, Seq2SeqRecoveryState& state, QString& error)
{
    try {
        const json doc = recovery::parseObject(bytes, kMaxSeq2SeqRecoveryBytes, kTranslatorFormat,
                                               TranslatorText::tr("translator window's"));
        Seq2SeqRecoveryState out;
        out.folder = recovery::text(doc, "folder");
        out.source = recovery::text(doc, "source");
        out.target = recovery::text(doc, "target");
        const json& edits = recovery::field(doc, "edits");
        if (!edits.is_array()) throw Refused{TranslatorText::tr("\"edits\" is not a list")};
        for (const json& e : edits) out.edits.push_back(recovery::readEdit(e, true));
        const json& s = recovery::field(doc, "selection");
        out.selection.kind = recovery::readAttention(s);
        out.selection.layer = static_cast<int>(recovery::whole(s, "layer", 0, recovery::kMaxIndex));
        out.selection.head = static_cast<int>(recovery::whole(s, "head", 0, recovery::kMaxIndex));
        state = std::move(out);
        return true;
    } catch (const Refused& r) {
        error = r.message;
        return false;
    }
}

bool readSeq2SeqRecovery(const QString& path, Seq2SeqRecoveryState& state, QString& error)
{
    return recovery::readFile(
        path, kMaxSeq2SeqRecoveryBytes,
        [&state](const QByteArray& bytes, QString& e) {
            return parseSeq2SeqRecovery(bytes, state, e);
        },
        error);
}

bool restoreSeq2SeqRecovery(Seq2SeqWindow* window, const Seq2SeqRecoveryState& state,
                            QString& error)
{
    const QString folder = QDir::toNativeSeparators(state.folder);
    QString problem;
    if (!window->openFolder(state.folder, &problem)) {
        error = TranslatorText::tr("The model folder %1 cannot be opened any more: %2")
                    .arg(folder, problem);
        return false;
    }
    const Seq2SeqDocument* doc = window->document();
    const auto outside = [&](const QString& what, AttentionKind kind, int layer, int head) {
        const int layers = doc->layers(kind);
        if (layer < layers && head < doc->heads()) return false;
        error = TranslatorText::tr(
                    "%1 is %2 layer %3 head %4, but the model in %5 has %6 %2 layers of %7 "
                    "heads.")
                    .arg(what, attentionName(kind))
                    .arg(layer + 1)
                    .arg(head + 1)
                    .arg(folder)
                    .arg(layers)
                    .arg(doc->heads());
        return true;
    };
    for (const attn::model::HeadEdit& e : state.edits)
        if (outside(TranslatorText::tr("An edited head"), e.attention, e.layer, e.head))
            return false;
    const Seq2SeqSelection& s = state.selection;
    if (outside(TranslatorText::tr("The open head"), s.kind, s.layer, s.head)) return false;
    window->restore(state.source, state.target, state.edits);
    window->document()->select(s);
    return true;
}

bool offerSeq2SeqRecovery(const QString& dir, bool withoutAsking, const RecoveryDialogs& dialogs,
                          const std::function<Seq2SeqWindow*()>& make, Seq2SeqWindow** restored)
{
    Seq2SeqRecoveryState state;
    RecoveryOffer offer;
    offer.askTitle = TranslatorText::tr("Restore the translator window?");
    offer.askText = TranslatorText::tr(
        "AttnLab did not close normally. The translator window on %1 (its source, target, head "
        "edits and open head) was saved automatically at %2.\n\nRestore it? Discard deletes it; "
        "Cancel keeps it for the next start.");
    offer.unknownFolder = TranslatorText::tr("an encoder-decoder");
    offer.failTitle = TranslatorText::tr("Cannot restore the translator window");
    offer.read = [&state](const QString& path, QString& folder, QString& error) {
        if (!readSeq2SeqRecovery(path, state, error)) return false;
        folder = state.folder;
        return true;
    };
    offer.restore = [&state, &dir, &make, restored](QString& error) -> Autosave* {
        Seq2SeqWindow* window = make ? make() : new Seq2SeqWindow();
        window->setAttribute(Qt::WA_DeleteOnClose);
        window->autosave()->setDirectory(dir);
        if (!restoreSeq2SeqRecovery(window, state, error)) {
            delete window;
            return nullptr;
        }
        window->show();
        window->raise();
        if (restored) *restored = window;
        return window->autosave();
    };
    return offerRecovery(dir, AutosaveKind::translator(), withoutAsking, dialogs, offer);
}

}  // namespace attnlab
