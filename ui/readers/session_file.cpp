// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/readers/session_file.h"

#include <QCoreApplication>

#include "core/rope.h"
#include "ui/readers/atomic_file.h"
#include "ui/readers/bounded_read.h"
#include "ui/readers/session_format.h"

namespace attnlab {

namespace {

class SessionFileTr {
    Q_DECLARE_TR_FUNCTIONS(attnlab::SessionFile)
};

template <typename E>
struct NamedValue {
    E value;
    const char* name;
};

constexpr NamedValue<attn::Mode> kModes[] = {
    {attn::Mode::Self, "self"}, {attn::Mode::Causal, "causal"}, {attn::Mode::Cross, "cross"}};
constexpr NamedValue<attn::Scaling> kScalings[] = {{attn::Scaling::SqrtDk, "sqrt_dk"},
                                                   {attn::Scaling::None, "none"},
                                                   {attn::Scaling::Temperature, "temperature"}};
constexpr NamedValue<attn::ScoreFunction> kScores[] = {{attn::ScoreFunction::Dot, "dot"},
                                                       {attn::ScoreFunction::Additive, "additive"}};
constexpr NamedValue<attn::Role> kRoles[] = {
    {attn::Role::Query, "query"}, {attn::Role::Key, "key"}, {attn::Role::Value, "value"}};

template <typename E, std::size_t N>
QString nameOf(const NamedValue<E> (&table)[N], E value)
{
    for (const auto& entry : table) {
        if (entry.value == value) return QLatin1String(entry.name);
    }
    return {};
}

template <typename E, std::size_t N>
std::optional<E> valueOf(const NamedValue<E> (&table)[N], const QString& name)
{
    for (const auto& entry : table) {
        if (name == QLatin1String(entry.name)) return entry.value;
    }
    return std::nullopt;
}

}  // namespace

QString modeName(attn::Mode mode)
{
    return nameOf(kModes, mode);
}
QString scalingName(attn::Scaling scaling)
{
    return nameOf(kScalings, scaling);
}
QString scoreName(attn::ScoreFunction score)
{
    return nameOf(kScores, score);
}
QString roleName(attn::Role role)
{
    return nameOf(kRoles, role);
}
std::optional<attn::Mode> modeFromName(const QString& name)
{
    return valueOf(kModes, name);
}
std::optional<attn::Scaling> scalingFromName(const QString& name)
{
    return valueOf(kScalings, name);
}
std::optional<attn::ScoreFunction> scoreFromName(const QString& name)
{
    return valueOf(kScores, name);
}
std::optional<attn::Role> roleFromName(const QString& name)
{
    return valueOf(kRoles, name);
}
std::optional<attn::RopeScaling> ropeScalingFromName(const QString& name)
{
    attn::RopeScaling scaling{};
    if (!attn::parseRopeScaling(name.toStdString(), scaling)) return std::nullopt;
    return scaling;
}

QString fileFieldOf(const attn::Status& status)
{
    const QString f = QString::fromStdString(status.field);
    if (status.head >= 0)
        return QStringLiteral("projections.") + f + QLatin1Char('[') +
               QString::number(status.head + 1) + QLatin1Char(']');
    if (status.edit >= 0)
        return QStringLiteral("edits[") + QString::number(status.edit + 1) + QLatin1Char(']') +
               (f.isEmpty() ? QString() : QLatin1Char('.') + f);
    if (f == QLatin1String("X")) return QStringLiteral("target.embeddings");
    if (f == QLatin1String("Y")) return QStringLiteral("source.embeddings");
    if (f == QLatin1String("heads")) return QStringLiteral("projections.heads");
    if (f == QLatin1String("W_O")) return QStringLiteral("projections.W_O");
    if (f == QLatin1String("mask")) return QStringLiteral("options.mask");
    if (f == QLatin1String("temperature")) return QStringLiteral("options.temperature");
    if (f == QLatin1String("size")) return QString();
    if (status.code == attn::StatusCode::BadRope) {
        // Rotary positions refused: the width they turn, the score function, or a parameter.
        if (f == QLatin1String("d_k")) return QStringLiteral("projections.d_k");
        return QStringLiteral("options.") + f;
    }
    return f;
}

QString FileError::message() const
{
    if (field.isEmpty()) return SessionFileTr::tr("%1: %2").arg(file, problem);
    // A path into a list names its element from 1, as the window counts heads and tokens.
    if (field.contains(QLatin1Char('[')))
        return SessionFileTr::tr("%1: %2 (counted from 1): %3").arg(file, field, problem);
    return SessionFileTr::tr("%1: %2: %3").arg(file, field, problem);
}

bool readSessionFile(const QString& path, SessionFile& out, FileError& error)
{
    error = FileError{path, QString(), QString()};
    QByteArray bytes;
    if (!readUserFile(path, kMaxSessionFileBytes, bytes, error.problem)) return false;
    return parseSessionJson(bytes, path, out, error);
}

bool writeSessionFile(const QString& path, const SessionFile& file, FileError& error)
{
    error = FileError{path, QString(), QString()};
    const QByteArray bytes = sessionToJson(file);
    // What is written must open again (readSessionFile refuses more).
    if (bytes.size() > kMaxSessionFileBytes) {
        error.problem = SessionFileTr::tr(
                            "cannot be saved: the session would take %1 MiB, more than the "
                            "%2 MiB a session file may hold.")
                            .arg(bytes.size() >> 20)
                            .arg(kMaxSessionFileBytes >> 20);
        return false;
    }
    QString problem;
    if (!writeFileAtomically(path, bytes, problem)) {
        error.problem = SessionFileTr::tr("cannot be saved: %1").arg(problem);
        return false;
    }
    return true;
}

}  // namespace attnlab
