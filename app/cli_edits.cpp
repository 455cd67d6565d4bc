// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/cli_edits.h"

#include <cmath>

#include <QCoreApplication>
#include <QSet>

namespace attnlab::cli {

namespace {

class CliEditsTr {
    Q_DECLARE_TR_FUNCTIONS(attnlab::cli)
};

bool parseRole(const QString& text, attn::Role& role)
{
    if (text == QLatin1String("key"))
        role = attn::Role::Key;
    else if (text == QLatin1String("query"))
        role = attn::Role::Query;
    else if (text == QLatin1String("value"))
        role = attn::Role::Value;
    else
        return false;
    return true;
}

QString roleName(attn::Role role)
{
    switch (role) {
    case attn::Role::Key: return QStringLiteral("key");
    case attn::Role::Query: return QStringLiteral("query");
    case attn::Role::Value: return QStringLiteral("value");
    }
    return {};
}

bool parseCount(const QString& text, int& out)
{
    bool ok = false;
    out = text.toInt(&ok);
    return ok && out >= 1;
}

bool parseFinite(const QString& text, double& out)
{
    bool ok = false;
    out = text.toDouble(&ok);
    return ok && std::isfinite(out);
}

// "--edit key,head=1,index=3,scale=2: PROBLEM"
QString problem(const QString& text, const QString& what)
{
    return CliEditsTr::tr("--edit %1: %2").arg(text, what);
}

bool parseOne(const QString& text, CommandLineEdit& out, QString& error)
{
    out = CommandLineEdit{};
    out.text = text;
    const QStringList parts = text.split(QLatin1Char(','));
    if (!parseRole(parts.value(0).trimmed(), out.edit.role)) {
        error = problem(
            text,
            CliEditsTr::tr("the role must be key, query or value, not \"%1\"").arg(parts.value(0)));
        return false;
    }
    QSet<QString> seen;
    int head = 0, index = 0, component = 0;
    double value = 0.0;
    bool hasValue = false;
    for (qsizetype i = 1; i < parts.size(); ++i) {
        const qsizetype eq = parts[i].indexOf(QLatin1Char('='));
        const QString name = parts[i].left(eq).trimmed();
        const QString v = eq < 0 ? QString() : parts[i].mid(eq + 1).trimmed();
        if (eq < 0 || v.isEmpty()) {
            error = problem(text, CliEditsTr::tr("\"%1\" is not NAME=VALUE").arg(parts[i]));
            return false;
        }
        if (seen.contains(name)) {
            error = problem(text, CliEditsTr::tr("%1 is given twice").arg(name));
            return false;
        }
        seen.insert(name);
        bool ok = true;
        if (name == QLatin1String("head"))
            ok = parseCount(v, head);
        else if (name == QLatin1String("index"))
            ok = parseCount(v, index);
        else if (name == QLatin1String("component"))
            ok = parseCount(v, component);
        else if (name == QLatin1String("scale"))
            ok = out.hasScale = parseFinite(v, out.edit.scale);
        else if (name == QLatin1String("value"))
            ok = hasValue = parseFinite(v, value);
        else {
            error =
                problem(text, CliEditsTr::tr("unknown field \"%1\" (head, index, scale, component, "
                                             "value)")
                                  .arg(name));
            return false;
        }
        if (!ok) {
            const bool count = name == QLatin1String("head") || name == QLatin1String("index") ||
                               name == QLatin1String("component");
            error = problem(
                text,
                count ? CliEditsTr::tr("%1 takes a whole number from 1, not \"%2\"").arg(name, v)
                      : CliEditsTr::tr("%1 takes a finite number, not \"%2\"").arg(name, v));
            return false;
        }
    }
    if (head == 0 || index == 0) {
        error = problem(text, CliEditsTr::tr("head=H and index=I are needed"));
        return false;
    }
    if ((component == 0) != !hasValue) {
        error = problem(text, CliEditsTr::tr("component=C and value=X go together"));
        return false;
    }
    if (!out.hasScale && component == 0) {
        error =
            problem(text, CliEditsTr::tr("nothing to change: give scale=S or component=C,value=X"));
        return false;
    }
    out.edit.head = head - 1;
    out.edit.index = index - 1;
    if (component > 0) out.edit.overrides.push_back({component - 1, value});
    return true;
}

}  // namespace

bool parseEdits(const QStringList& values, std::vector<CommandLineEdit>& edits, QString& error)
{
    edits.clear();
    for (const QString& text : values) {
        CommandLineEdit e;
        if (!parseOne(text, e, error)) return false;
        for (const CommandLineEdit& earlier : edits) {
            if (earlier.edit.sameTarget(e.edit)) {
                error = CliEditsTr::tr(
                            "--edit: %1 %2 of head %3 is given twice (%4 and %5); give each "
                            "vector once")
                            .arg(roleName(e.edit.role))
                            .arg(e.edit.index + 1)
                            .arg(e.edit.head + 1)
                            .arg(earlier.text, text);
                return false;
            }
        }
        edits.push_back(std::move(e));
    }
    return true;
}

bool applyEdits(const std::vector<CommandLineEdit>& edits, attn::AttentionInput& input,
                QString& error)
{
    const long heads = static_cast<long>(input.heads.size());
    for (const CommandLineEdit& e : edits) {
        const attn::VectorEdit& ed = e.edit;
        const long positions = ed.role == attn::Role::Query ? input.queryCount() : input.keyCount();
        const long dims = ed.role == attn::Role::Value ? input.valueDim() : input.keyDim();
        if (ed.head >= heads) {
            error =
                problem(e.text, CliEditsTr::tr("there is no head %1: the session has %2 head(s)")
                                    .arg(ed.head + 1)
                                    .arg(heads));
            return false;
        }
        if (ed.index >= positions) {
            error = problem(e.text, CliEditsTr::tr("there is no %1 %2: the session has %3")
                                        .arg(roleName(ed.role))
                                        .arg(ed.index + 1)
                                        .arg(positions));
            return false;
        }
        for (const attn::ComponentOverride& o : ed.overrides) {
            if (o.component >= dims) {
                error =
                    problem(e.text, CliEditsTr::tr("there is no component %1: the vectors have %2")
                                        .arg(o.component + 1)
                                        .arg(dims));
                return false;
            }
        }
        // On top of the session's edit of the same vector, as the panels' ×2 button does.
        attn::VectorEdit combined = ed;
        if (const attn::VectorEdit* own = attn::findEdit(input.edits, ed.role, ed.head, ed.index)) {
            combined = *own;
            combined.scale *= ed.scale;
            for (const attn::ComponentOverride& o : ed.overrides) {
                bool replaced = false;
                for (attn::ComponentOverride& mine : combined.overrides) {
                    if (mine.component == o.component) {
                        mine.value = o.value;
                        replaced = true;
                    }
                }
                if (!replaced) combined.overrides.push_back(o);
            }
        }
        attn::upsertEdit(input.edits, combined);
    }
    return true;
}

}  // namespace attnlab::cli
