// SPDX-License-Identifier: GPL-3.0-or-later
// Reading session files: the strict JSON reader (encoding, depth, duplicate keys, syntax),
// then a strict walk over every field that names the first problem by its JSON path, and
// finally attn::validate for what the core itself requires.

#include <algorithm>
#include <map>
#include <string>

#include "core/io/json_read.h"
#include "core/long_attention.h"
#include "ui/readers/session_format.h"
#include "ui/readers/session_reader.h"
#include "ui/readers/status_text.h"

namespace attnlab {

namespace sessionio {

bool readSequence(Reader& r, const Json& v, const QString& path, long dModel, QStringList& tokens,
                  attn::Matrix& embeddings)
{
    JObject o;
    JArray list;
    if (!r.object(v, path, {"tokens", "embeddings"}, {}, o)) return false;
    const QString tokensPath = member(path, "tokens");
    if (!r.array(o[QLatin1String("tokens")], tokensPath, list)) return false;
    if (list.isEmpty())
        return r.fail(tokensPath,
                      SessionReaderTr::tr("is empty; there must be at least one token."));
    if (list.size() > kMaxCount)
        return r.fail(tokensPath, SessionReaderTr::tr("has too many tokens."));
    tokens.clear();
    for (qsizetype i = 0; i < list.size(); ++i) {
        QString t;
        if (!r.string(list[i], element(tokensPath, i), t)) return false;
        tokens << t;
    }
    const QString embPath = member(path, "embeddings");
    JArray rows;
    if (!r.array(o[QLatin1String("embeddings")], embPath, rows)) return false;
    if (rows.size() != list.size())
        return r.fail(embPath, SessionReaderTr::tr(
                                   "has %1 rows but there are %2 tokens; there must be one row "
                                   "per token.")
                                   .arg(rows.size())
                                   .arg(list.size()));
    return r.matrix(o[QLatin1String("embeddings")], embPath, list.size(), dModel, false,
                    embeddings);
}

bool readOptions(Reader& r, const Json& v, long version, attn::AttentionInput& in)
{
    const QString path = QStringLiteral("options");
    JObject o;
    if (!r.object(v, path, {"mode", "scaling", "temperature", "score", "shared_projections"},
                  version >= 3 ? Keys{"mask", "rope"} : Keys{"mask"}, o))
        return false;
    const auto at = [&o](const char* k) -> const Json& { return o[QLatin1String(k)]; };
    if (!r.choice(at("mode"), member(path, "mode"), &modeFromName,
                  "\"self\", \"causal\", \"cross\"", in.mode) ||
        !r.choice(at("scaling"), member(path, "scaling"), &scalingFromName,
                  "\"sqrt_dk\", \"none\", \"temperature\"", in.scaling) ||
        !r.number(at("temperature"), member(path, "temperature"), in.temperature) ||
        !r.choice(at("score"), member(path, "score"), &scoreFromName, "\"dot\", \"additive\"",
                  in.score) ||
        !r.boolean(at("shared_projections"), member(path, "shared_projections"),
                   in.sharedProjections))
        return false;
    in.rope.reset();
    if (o.contains(QLatin1String("rope"))) {
        attn::Rope rope;
        if (!readRope(r, at("rope"), rope)) return false;
        in.rope = rope;
    }
    in.mask.reset();
    if (!o.contains(QLatin1String("mask"))) return true;
    const QString maskPath = member(path, "mask");
    JArray rows;
    if (!r.array(at("mask"), maskPath, rows)) return false;
    const long n = in.queryCount();
    const long m = in.keyCount();
    if (rows.size() != n)
        return r.fail(maskPath,
                      SessionReaderTr::tr("should have %1 rows (one per query) but has %2.")
                          .arg(n)
                          .arg(rows.size()));
    // Every row is checked before the n x m mask is allocated (n empty rows must not reserve
    // n x m booleans).
    for (qsizetype i = 0; i < rows.size(); ++i) {
        JArray row;
        const QString rowPath = element(maskPath, i);
        if (!r.array(rows[i], rowPath, row)) return false;
        if (row.size() != m)
            return r.fail(rowPath,
                          SessionReaderTr::tr("should have %1 values (one per key) but has %2.")
                              .arg(m)
                              .arg(row.size()));
    }
    attn::BoolMatrix mask(n, m);
    for (qsizetype i = 0; i < rows.size(); ++i) {
        const JArray row(rows[i]);
        const QString rowPath = element(maskPath, i);
        for (qsizetype j = 0; j < row.size(); ++j) {
            if (!r.boolean(row[j], element(rowPath, j),
                           mask(static_cast<long>(i), static_cast<long>(j))))
                return false;
        }
    }
    in.mask = std::move(mask);
    return true;
}

namespace {

bool tokenCountsFit(Reader& r, const std::map<std::string, std::size_t>& lengths)
{
    // The weights alone, in float (the smallest scalar the core computes in), are a lower bound
    // of what computing the file would take. A file over it is refused before the parser builds a
    // tree of its values: 10^6 tokens in a 9 MB file would otherwise take 120 MB of JSON tree
    // first.
    const auto lengthOf = [&lengths](const char* path, qsizetype otherwise) {
        const auto it = lengths.find(path);
        return it == lengths.end() ? otherwise : static_cast<qsizetype>(it->second);
    };
    const qsizetype n = lengthOf("target.tokens", 0);
    const qsizetype m = lengthOf("source.tokens", n);
    const double keys = static_cast<double>(std::min(n, m > 0 ? m : n));
    const double bytes = static_cast<double>(n) * keys * sizeof(float);
    const std::size_t budget = attn::Limits{}.maxBytes;
    if (bytes <= static_cast<double>(budget)) return true;
    return r.fail(
        QStringLiteral("target.tokens"),
        SessionReaderTr::tr("holds %1 tokens: their attention weights alone would need %2 MiB of "
                            "memory, more than the limit of %3 MiB. Use fewer tokens.")
            .arg(n)
            .arg(static_cast<qint64>(bytes / (1 << 20)))
            .arg(budget >> 20));
}

bool readRoot(Reader& r, const Json& root, long version, SessionFile& f)
{
    Session& s = f.session;
    JObject o;
    long dModel = 0;
    if (!r.object(
            root, QString(),
            {"format", "version", "seed", "d_model", "target", "projections", "options", "edits"},
            version >= 2 ? Keys{"source", "view", "provenance"} : Keys{"source", "view"}, o) ||
        !readSeed(r, o[QLatin1String("seed")], s.seed) ||
        !r.integer(o[QLatin1String("d_model")], QStringLiteral("d_model"), 1, kMaxCount, dModel))
        return false;
    s.dModel = static_cast<int>(dModel);
    if (!readSequence(r, o[QLatin1String("target")], QStringLiteral("target"), dModel,
                      s.targetTokens, s.input.X))
        return false;
    s.sourceTokens.clear();
    s.input.Y.resize(0, dModel);
    if (o.contains(QLatin1String("source")) &&
        !readSequence(r, o[QLatin1String("source")], QStringLiteral("source"), dModel,
                      s.sourceTokens, s.input.Y))
        return false;
    if (!readOptions(r, o[QLatin1String("options")], version, s.input) ||
        !readProjections(r, o[QLatin1String("projections")], version, s) ||
        !readEdits(r, o[QLatin1String("edits")], s.input.edits))
        return false;
    if (o.contains(QLatin1String("view")) && !readView(r, o[QLatin1String("view")], f.view))
        return false;
    s.provenance.reset();
    if (o.contains(QLatin1String("provenance"))) {
        ModelProvenance p;
        if (!readProvenance(r, o[QLatin1String("provenance")], p)) return false;
        s.provenance = std::move(p);
    }
    attn::Status status = attn::validate(s.input, attn::Limits{});
    f.onlyWeightsFit = false;
    if (status.code == attn::StatusCode::TooLarge) {
        // What the smallest way of computing it, the long path, would need.
        status = attn::validateLong(s.input, attn::Limits{});
        f.onlyWeightsFit = status.ok();
    }
    if (!status.ok()) return r.fail(fileFieldOf(status), statusMessage(status));
    return true;
}

// A problem of the JSON reader as the reader's refusal (false), in the words of the session
// reader; true when there is none.
bool refuseJsonProblem(Reader& r, const attn::io::JsonProblem& p)
{
    const QString field = QString::fromStdString(p.path);
    using Kind = attn::io::JsonProblem::Kind;
    switch (p.kind) {
    case Kind::None: return true;
    case Kind::Utf16:
        return r.fail(
            QString(),
            SessionReaderTr::tr("the file is encoded as UTF-16; session files must be UTF-8."));
    case Kind::Utf32:
        return r.fail(
            QString(),
            SessionReaderTr::tr("the file is encoded as UTF-32; session files must be UTF-8."));
    case Kind::InvalidUtf8:
        return r.fail(QString(),
                      SessionReaderTr::tr("the file is not valid UTF-8 text (line %1, byte %2).")
                          .arg(p.line)
                          .arg(p.byte));
    case Kind::TooDeep:
        return r.fail(field, SessionReaderTr::tr("is nested more than %1 levels deep (line %2).")
                                 .arg(attn::io::JsonLimits{}.maxDepth)
                                 .arg(p.line));
    case Kind::DuplicateKey:
        return r.fail(
            field, SessionReaderTr::tr("appears twice in the same object (line %1); each field may "
                                       "appear only once.")
                       .arg(p.line));
    case Kind::TooLarge:
        return r.fail(field,
                      SessionReaderTr::tr(
                          "the file would take more than %1 MiB of memory to read (line %2): it "
                          "holds too many values for its size.")
                          .arg(attn::io::JsonLimits{}.maxTreeBytes >> 20)
                          .arg(p.line));
    case Kind::NumberRange:
        return r.fail(
            field, SessionReaderTr::tr("holds a number out of the range of a double (line %1): %2")
                       .arg(p.line)
                       .arg(QString::fromStdString(p.message)));
    case Kind::Syntax:
    case Kind::TooManyValues:
    case Kind::Refused: {  // not met: sessions are read without streams
        // nlohmann says "parse error at line L, column C: what"; the line is given apart.
        QString what = QString::fromStdString(p.message);
        const qsizetype colon = what.indexOf(QLatin1String(": "));
        if (what.startsWith(QLatin1String("parse error")) && colon >= 0) what = what.mid(colon + 2);
        return r.fail(
            field,
            SessionReaderTr::tr("the file is not valid JSON: %1 (line %2).").arg(what).arg(p.line));
    }
    }
    return true;
}

// The root's "format" tag and "version": an AttnLab session of a version this program reads.
bool readFormatAndVersion(Reader& r, Json& root, long& version)
{
    if (!root.is_object())
        return r.fail(QString(),
                      SessionReaderTr::tr("the file should hold one JSON object { … }."));
    QString tag;
    if (!root.contains("format"))
        return r.fail(QStringLiteral("format"),
                      SessionReaderTr::tr("is missing; this is not an AttnLab session file."));
    if (!r.string(root["format"], QStringLiteral("format"), tag)) return false;
    if (tag != QLatin1String(kSessionFormatTag))
        return r.fail(QStringLiteral("format"),
                      SessionReaderTr::tr("is \"%1\", not \"%2\"; this is not an AttnLab "
                                          "session file.")
                          .arg(tag, QLatin1String(kSessionFormatTag)));
    if (!root.contains("version"))
        return r.fail(QStringLiteral("version"), SessionReaderTr::tr("is missing."));
    if (!r.integer(root["version"], QStringLiteral("version"), 1, kMaxCount, version)) return false;
    if (version > kSessionFormatVersion)
        return r.fail(
            QStringLiteral("version"),
            SessionReaderTr::tr("is %1, but this AttnLab reads version %2 and older. The file was "
                                "written by a newer AttnLab.")
                .arg(version)
                .arg(kSessionFormatVersion));
    return true;
}

}  // namespace
}  // namespace sessionio

using sessionio::Json;
using sessionio::kMaxCount;
using sessionio::Reader;

bool parseSessionJson(const QByteArray& bytes, const QString& origin, SessionFile& out,
                      FileError& error)
{
    Reader r(origin, error);
    const std::string_view text(bytes.constData(), static_cast<std::size_t>(bytes.size()));
    // The list lengths first, in a pass that builds nothing: a file whose token counts alone
    // ask for too much is refused before a tree of its values is built.
    if (std::map<std::string, std::size_t> lengths;
        attn::io::jsonListLengths(text, 2, lengths) && !sessionio::tokenCountsFit(r, lengths))
        return false;
    Json root;
    const attn::io::JsonProblem p = attn::io::parseJson(text, root);
    if (!sessionio::refuseJsonProblem(r, p)) return false;
    long version = 0;
    if (!sessionio::readFormatAndVersion(r, root, version)) return false;
    SessionFile parsed;
    if (!sessionio::readRoot(r, root, version, parsed)) return false;
    out = std::move(parsed);
    return true;
}

}  // namespace attnlab
