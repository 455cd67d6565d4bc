// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/cli_model_edits.h"

#include <cmath>
#include <limits>

#include <QCoreApplication>
#include <QSet>

namespace attnlab::cli {

namespace {

class CliModelEditsTr {
    Q_DECLARE_TR_FUNCTIONS(attnlab::cli)
};

// NAME=VALUE fields after the first part; `flags` are bare words allowed ("mean").
bool fields(const QString& option, const QString& text, const QStringList& parts, int from,
            QHash<QString, QString>& out, QSet<QString>& flags, const QStringList& allowedFlags,
            QString& error)
{
    for (qsizetype i = from; i < parts.size(); ++i) {
        const QString part = parts[i].trimmed();
        if (allowedFlags.contains(part)) {
            flags.insert(part);
            continue;
        }
        const qsizetype eq = part.indexOf(QLatin1Char('='));
        const QString name = part.left(eq).trimmed();
        if (eq < 0 || part.mid(eq + 1).trimmed().isEmpty()) {
            error =
                CliModelEditsTr::tr("--%1 %2: \"%3\" is not NAME=VALUE").arg(option, text, part);
            return false;
        }
        if (out.contains(name)) {
            error = CliModelEditsTr::tr("--%1 %2: %3 is given twice").arg(option, text, name);
            return false;
        }
        out.insert(name, part.mid(eq + 1).trimmed());
    }
    return true;
}

bool count(const QString& option, const QString& text, const QHash<QString, QString>& f,
           const QString& name, int& out, QString& error)
{
    bool ok = false;
    const int v = f.value(name).toInt(&ok);
    if (!f.contains(name) || !ok || v < 1) {
        error =
            CliModelEditsTr::tr("--%1 %2: %3 takes a whole number from 1").arg(option, text, name);
        return false;
    }
    out = v - 1;
    return true;
}

bool unknown(const QString& option, const QString& text, const QHash<QString, QString>& f,
             const QStringList& known, QString& error)
{
    for (auto it = f.cbegin(); it != f.cend(); ++it) {
        if (!known.contains(it.key())) {
            error = CliModelEditsTr::tr("--%1 %2: unknown field \"%3\" (%4)")
                        .arg(option, text, it.key(), known.join(QStringLiteral(", ")));
            return true;
        }
    }
    return false;
}

// kind=encoder|decoder|cross: which attention of an encoder-decoder (decoder when absent, the
// only one a decoder-only model has).
bool attentionKind(const QString& option, const QString& text, const QHash<QString, QString>& f,
                   attn::model::HeadEdit& e, QString& error)
{
    using attn::model::AttentionKind;
    const QString kind = f.value(QStringLiteral("kind"), QStringLiteral("decoder"));
    if (kind == QLatin1String("decoder"))
        e.attention = AttentionKind::Decoder;
    else if (kind == QLatin1String("encoder"))
        e.attention = AttentionKind::Encoder;
    else if (kind == QLatin1String("cross"))
        e.attention = AttentionKind::Cross;
    else {
        error = CliModelEditsTr::tr("--%1 %2: kind must be encoder, decoder or cross, not \"%3\"")
                    .arg(option, text, kind);
        return false;
    }
    return true;
}

bool parseEdit(const QString& text, attn::model::HeadEdit& e, QString& error)
{
    const QString option = QStringLiteral("edit");
    const QStringList parts = text.split(QLatin1Char(','));
    const QString role = parts.value(0).trimmed();
    if (role == QLatin1String("key"))
        e.kind = attn::model::HeadEditKind::Key;
    else if (role == QLatin1String("query"))
        e.kind = attn::model::HeadEditKind::Query;
    else if (role == QLatin1String("value"))
        e.kind = attn::model::HeadEditKind::Value;
    else {
        error = CliModelEditsTr::tr("--edit %1: the role must be key, query or value, not \"%2\"")
                    .arg(text, role);
        return false;
    }
    QHash<QString, QString> f;
    QSet<QString> flags;
    if (!fields(option, text, parts, 1, f, flags, {}, error)) return false;
    const QStringList known{QStringLiteral("layer"), QStringLiteral("head"),
                            QStringLiteral("index"), QStringLiteral("scale"),
                            QStringLiteral("kind")};
    if (unknown(option, text, f, known, error) || !attentionKind(option, text, f, e, error))
        return false;
    int index = 0;
    if (!count(option, text, f, QStringLiteral("layer"), e.layer, error) ||
        !count(option, text, f, QStringLiteral("head"), e.head, error) ||
        !count(option, text, f, QStringLiteral("index"), index, error))
        return false;
    e.index = index;
    bool ok = false;
    const double scale = f.value(QStringLiteral("scale")).toDouble(&ok);
    if (!ok || !std::isfinite(scale)) {
        error = CliModelEditsTr::tr("--edit %1: scale=S (a finite number) is needed").arg(text);
        return false;
    }
    // The model runs in float: a larger scale would become infinite before the run starts.
    if (std::abs(scale) > static_cast<double>(std::numeric_limits<float>::max())) {
        error = CliModelEditsTr::tr(
                    "--edit %1: scale=%2 is beyond the range of a float (at most %3 in size)")
                    .arg(text, f.value(QStringLiteral("scale")))
                    .arg(static_cast<double>(std::numeric_limits<float>::max()), 0, 'g', 3);
        return false;
    }
    e.scale = static_cast<float>(scale);
    return true;
}

bool parseAblation(const QString& text, attn::model::HeadEdit& e, QString& error)
{
    const QString option = QStringLiteral("ablate");
    QHash<QString, QString> f;
    QSet<QString> flags;
    if (!fields(option, text, text.split(QLatin1Char(',')), 0, f, flags, {QStringLiteral("mean")},
                error))
        return false;
    if (unknown(option, text, f,
                {QStringLiteral("layer"), QStringLiteral("head"), QStringLiteral("kind")}, error) ||
        !attentionKind(option, text, f, e, error))
        return false;
    if (!count(option, text, f, QStringLiteral("layer"), e.layer, error) ||
        !count(option, text, f, QStringLiteral("head"), e.head, error))
        return false;
    e.kind = flags.contains(QStringLiteral("mean")) ? attn::model::HeadEditKind::AblateMean
                                                    : attn::model::HeadEditKind::AblateZero;
    return true;
}

}  // namespace

bool parseModelEdits(const QStringList& edits, const QStringList& ablations,
                     std::vector<attn::model::HeadEdit>& out, QString& error)
{
    out.clear();
    for (const QString& text : edits) {
        attn::model::HeadEdit e;
        if (!parseEdit(text, e, error)) return false;
        out.push_back(e);
    }
    for (const QString& text : ablations) {
        attn::model::HeadEdit e;
        if (!parseAblation(text, e, error)) return false;
        out.push_back(e);
    }
    return true;
}

// The option that gave edit `index` (the --edit values first, then the --ablate values, as
// parseModelEdits() lists them): "--edit key,layer=1,head=1,index=2,scale=2".
static QString editOption(int index, const QStringList& edits, const QStringList& ablations)
{
    if (index >= 0 && index < edits.size()) return QStringLiteral("--edit %1").arg(edits[index]);
    const qsizetype a = index - edits.size();
    if (a >= 0 && a < ablations.size()) return QStringLiteral("--ablate %1").arg(ablations[a]);
    return QStringLiteral("--edit");
}

// An edit the core refused or that made the run overflow, in the words of the command line:
// the option as it was typed, and what is wrong with it.
QString editRefusal(const attn::Status& s, const QStringList& edits, const QStringList& ablations)
{
    const QString option = editOption(s.edit, edits, ablations);
    if (s.code == attn::StatusCode::DuplicateEdit)
        return CliModelEditsTr::tr("%1: the same as %2; give each once")
            .arg(option, editOption(static_cast<int>(s.row), edits, ablations));
    if (s.code == attn::StatusCode::NonFinite && s.cause == attn::Cause::Edit)
        return CliModelEditsTr::tr(
                   "%1 overflows (%2: a value beyond the range of a float); give a smaller "
                   "scale")
            .arg(option, QString::fromStdString(attn::whereInModel(s)));
    return QStringLiteral("%1: %2").arg(option, QString::fromStdString(s.detail));
}

}  // namespace attnlab::cli
