// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The strict walk over a parsed session file, shared by session_file_read*.cpp: each
// read names the first problem by its JSON path, lists counted from 1 ("projections.W_Q[1][3]"
// is row 3 of the first head's W_Q), in a FileError.

#include <cmath>
#include <initializer_list>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include <QCoreApplication>

#include "ui/readers/session_file.h"

namespace attnlab::sessionio {

class SessionReaderTr {
    Q_DECLARE_TR_FUNCTIONS(attnlab::SessionFile)
};

using Keys = std::initializer_list<const char*>;
using Json = nlohmann::json;

inline const Json& nullJson()
{
    static const Json null;
    return null;
}

// An object of the parsed file, read by key; a missing key reads as null (which every typed
// read refuses with "should be ...").
class JObject {
public:
    JObject() = default;
    explicit JObject(const Json& j) : j_(&j) {}
    bool contains(QLatin1String key) const
    {
        return j_ && j_->is_object() && j_->contains(std::string(key.data(), key.size()));
    }
    const Json& operator[](QLatin1String key) const
    {
        if (!j_ || !j_->is_object()) return nullJson();
        const auto it = j_->find(std::string(key.data(), key.size()));
        return it == j_->end() ? nullJson() : *it;
    }
    const Json* json() const { return j_; }

private:
    const Json* j_ = nullptr;
};

// A list of the parsed file.
class JArray {
public:
    JArray() = default;
    explicit JArray(const Json& j) : j_(j.is_array() ? &j : nullptr) {}
    qsizetype size() const { return j_ ? static_cast<qsizetype>(j_->size()) : 0; }
    bool isEmpty() const { return size() == 0; }
    const Json& operator[](qsizetype i) const { return (*j_)[static_cast<std::size_t>(i)]; }

private:
    const Json* j_ = nullptr;
};
inline constexpr long kMaxCount = 1L << 24;  // upper bound for any count or dimension in a file
// A width a file declares without the numbers to back it (d_a with empty additive matrices).
inline constexpr long kMaxDeclaredWidth = 1024;

inline QString member(const QString& path, const char* key)
{
    return path.isEmpty() ? QLatin1String(key) : path + QLatin1Char('.') + QLatin1String(key);
}

// The path of element i (from 0) of a list, named from 1 as messages count: "W_Q[1]".
inline QString element(const QString& path, qsizetype i)
{
    return path + QLatin1Char('[') + QString::number(i + 1) + QLatin1Char(']');
}

class Reader {
public:
    Reader(const QString& origin, FileError& error) : origin_(origin), error_(error) {}

    bool fail(const QString& field, const QString& problem)
    {
        error_.file = origin_;
        error_.field = field;
        error_.problem = problem;
        return false;
    }

    bool object(const Json& v, const QString& path, Keys required, Keys optional, JObject& out)
    {
        if (!v.is_object()) return fail(path, SessionReaderTr::tr("should be an object { … }."));
        out = JObject(v);
        for (const char* k : required) {
            if (!out.contains(QLatin1String(k)))
                return fail(member(path, k), SessionReaderTr::tr("is missing."));
        }
        // In the order of the file (sorted by key), as the first unknown one is named.
        for (auto it = v.begin(); it != v.end(); ++it) {
            bool known = false;
            for (const Keys& list : {required, optional}) {
                for (const char* k : list) known = known || it.key() == k;
            }
            if (!known) {
                const QString key = QString::fromStdString(it.key());
                const QString field = path.isEmpty() ? key : path + QLatin1Char('.') + key;
                return fail(field, SessionReaderTr::tr("is not a field of this format version."));
            }
        }
        return true;
    }

    bool array(const Json& v, const QString& path, JArray& out)
    {
        if (!v.is_array()) return fail(path, SessionReaderTr::tr("should be a list [ … ]."));
        out = JArray(v);
        return true;
    }

    // Negative zero keeps its sign: nlohmann reads "-0.0" as -0.0.
    bool number(const Json& v, const QString& path, double& out)
    {
        if (!v.is_number()) return fail(path, SessionReaderTr::tr("should be a number."));
        out = v.get<double>();
        if (!std::isfinite(out)) return fail(path, SessionReaderTr::tr("is not a finite number."));
        return true;
    }

    bool integer(const Json& v, const QString& path, long lo, long hi, long& out)
    {
        double d = 0.0;
        if (!number(v, path, d)) return false;
        if (std::floor(d) != d || d < static_cast<double>(lo) || d > static_cast<double>(hi))
            return fail(
                path,
                SessionReaderTr::tr("should be a whole number from %1 to %2.").arg(lo).arg(hi));
        out = static_cast<long>(d);
        return true;
    }

    bool boolean(const Json& v, const QString& path, bool& out)
    {
        if (!v.is_boolean()) return fail(path, SessionReaderTr::tr("should be true or false."));
        out = v.get<bool>();
        return true;
    }

    bool string(const Json& v, const QString& path, QString& out)
    {
        if (!v.is_string()) return fail(path, SessionReaderTr::tr("should be text in quotes."));
        out = QString::fromStdString(v.get_ref<const std::string&>());
        return true;
    }

    template <typename T>
    bool choice(const Json& v, const QString& path, std::optional<T> (*parse)(const QString&),
                const char* allowed, T& out)
    {
        QString s;
        if (!string(v, path, s)) return false;
        const std::optional<T> r = parse(s);
        if (!r)
            return fail(path, SessionReaderTr::tr("is \"%1\"; it should be one of %2.")
                                  .arg(s, QLatin1String(allowed)));
        out = *r;
        return true;
    }

    // A list of rows of numbers, `rows` x `cols` (-1 = any); [] reads as an empty matrix when
    // `allowEmpty`. Every row's length is checked before the matrix is allocated: a file cannot
    // reserve numbers it does not hold (a long first row and 10^6 empty ones would otherwise ask
    // for 10^12 doubles).
    bool matrix(const Json& v, const QString& path, long rows, long cols, bool allowEmpty,
                attn::Matrix& out)
    {
        JArray a;
        if (!array(v, path, a)) return false;
        if (a.isEmpty() && allowEmpty) {
            out.resize(0, 0);
            return true;
        }
        if (rows >= 0 && a.size() != rows)
            return fail(
                path,
                SessionReaderTr::tr("should have %1 rows but has %2.").arg(rows).arg(a.size()));
        if (a.isEmpty()) return fail(path, SessionReaderTr::tr("has no rows."));
        qsizetype width = 0;
        for (qsizetype i = 0; i < a.size(); ++i) {
            const QString rowPath = element(path, i);
            JArray r;
            if (!array(a[i], rowPath, r)) return false;
            if (i == 0) {
                if (cols >= 0 && r.size() != cols)
                    return fail(rowPath, SessionReaderTr::tr("should have %1 numbers but has %2.")
                                             .arg(cols)
                                             .arg(r.size()));
                if (r.isEmpty()) return fail(rowPath, SessionReaderTr::tr("has no numbers."));
                width = r.size();
            } else if (r.size() != width) {
                return fail(rowPath, SessionReaderTr::tr(
                                         "has %1 numbers but the first row has %2; every row "
                                         "must have the same length.")
                                         .arg(r.size())
                                         .arg(width));
            }
        }
        attn::Matrix m(static_cast<long>(a.size()), static_cast<long>(width));
        for (qsizetype i = 0; i < a.size(); ++i) {
            const QString rowPath = element(path, i);
            const JArray r(a[i]);
            for (qsizetype j = 0; j < r.size(); ++j) {
                if (!number(r[j], element(rowPath, j),
                            m(static_cast<long>(i), static_cast<long>(j))))
                    return false;
            }
        }
        out = std::move(m);
        return true;
    }

    bool vector(const Json& v, const QString& path, long size, attn::Vector& out)
    {
        JArray a;
        if (!array(v, path, a)) return false;
        if (a.isEmpty()) {
            out.resize(0);
            return true;
        }
        if (a.size() != size)
            return fail(
                path,
                SessionReaderTr::tr("should have %1 numbers but has %2.").arg(size).arg(a.size()));
        out.resize(size);
        for (qsizetype j = 0; j < a.size(); ++j) {
            if (!number(a[j], element(path, j), out(static_cast<long>(j)))) return false;
        }
        return true;
    }

private:
    QString origin_;
    FileError& error_;
};

bool readSequence(Reader& r, const Json& v, const QString& path, long dModel, QStringList& tokens,
                  attn::Matrix& embeddings);
// Rotary positions (`options.rope`) are a field from format version 3 on.
bool readOptions(Reader& r, const Json& v, long version, attn::AttentionInput& in);
bool readRope(Reader& r, const Json& v, attn::Rope& out);
// Biases (b_Q, b_K, b_V) are fields from format version 2 on.
bool readProjections(Reader& r, const Json& v, long version, Session& s);
bool readProvenance(Reader& r, const Json& v, ModelProvenance& out);
bool readEdits(Reader& r, const Json& v, std::vector<attn::VectorEdit>& out);
bool readView(Reader& r, const Json& v, ViewState& view);
bool readSeed(Reader& r, const Json& v, quint64& seed);

}  // namespace attnlab::sessionio
