#pragma once
// The strict walk over a parsed session file, shared by session_file_read*.cpp: each
// read names the first problem by its JSON path ("projections.W_Q[0][2]") in a FileError.

#include <cmath>
#include <initializer_list>
#include <optional>

#include <QCoreApplication>
#include <QJsonArray>
#include <QJsonObject>
#include <QSet>

#include "ui/io/session_file.h"

namespace attnlab::sessionio {

class Tr {
    Q_DECLARE_TR_FUNCTIONS(attnlab::SessionFile)
};

using Keys = std::initializer_list<const char*>;
inline constexpr long kMaxCount = 1L << 24;  // upper bound for any count or dimension in a file
// A width a file declares without the numbers to back it (d_a with empty additive matrices).
inline constexpr long kMaxDeclaredWidth = 1024;

inline QString member(const QString& path, const char* key)
{
    return path.isEmpty() ? QLatin1String(key) : path + QLatin1Char('.') + QLatin1String(key);
}

inline QString element(const QString& path, qsizetype i)
{
    return path + QLatin1Char('[') + QString::number(i) + QLatin1Char(']');
}

class Reader {
public:
    Reader(const QString& origin, FileError& error) : origin_(origin), error_(error) {}

    // Paths of the numbers written as negative zero (see JsonPrescan).
    void setNegativeZeros(const QSet<QString>* paths) { negativeZeros_ = paths; }

    bool fail(const QString& field, const QString& problem)
    {
        error_.file = origin_;
        error_.field = field;
        error_.problem = problem;
        return false;
    }

    bool object(const QJsonValue& v, const QString& path, Keys required, Keys optional,
                QJsonObject& out)
    {
        if (!v.isObject()) return fail(path, Tr::tr("should be an object { … }."));
        out = v.toObject();
        for (const char* k : required) {
            if (!out.contains(QLatin1String(k)))
                return fail(member(path, k), Tr::tr("is missing."));
        }
        for (auto it = out.begin(); it != out.end(); ++it) {
            bool known = false;
            for (const Keys& list : {required, optional}) {
                for (const char* k : list) known = known || it.key() == QLatin1String(k);
            }
            if (!known) {
                const QString field =
                    path.isEmpty() ? it.key() : path + QLatin1Char('.') + it.key();
                return fail(field, Tr::tr("is not a field of this format version."));
            }
        }
        return true;
    }

    bool array(const QJsonValue& v, const QString& path, QJsonArray& out)
    {
        if (!v.isArray()) return fail(path, Tr::tr("should be a list [ … ]."));
        out = v.toArray();
        return true;
    }

    bool number(const QJsonValue& v, const QString& path, double& out)
    {
        if (!v.isDouble()) return fail(path, Tr::tr("should be a number."));
        out = v.toDouble();
        if (!std::isfinite(out)) return fail(path, Tr::tr("is not a finite number."));
        if (out == 0.0 && negativeZeros_ && negativeZeros_->contains(path)) out = -0.0;
        return true;
    }

    bool integer(const QJsonValue& v, const QString& path, long lo, long hi, long& out)
    {
        double d = 0.0;
        if (!number(v, path, d)) return false;
        if (std::floor(d) != d || d < static_cast<double>(lo) || d > static_cast<double>(hi))
            return fail(path, Tr::tr("should be a whole number from %1 to %2.").arg(lo).arg(hi));
        out = static_cast<long>(d);
        return true;
    }

    bool boolean(const QJsonValue& v, const QString& path, bool& out)
    {
        if (!v.isBool()) return fail(path, Tr::tr("should be true or false."));
        out = v.toBool();
        return true;
    }

    bool string(const QJsonValue& v, const QString& path, QString& out)
    {
        if (!v.isString()) return fail(path, Tr::tr("should be text in quotes."));
        out = v.toString();
        return true;
    }

    template <typename T>
    bool choice(const QJsonValue& v, const QString& path, std::optional<T> (*parse)(const QString&),
                const char* allowed, T& out)
    {
        QString s;
        if (!string(v, path, s)) return false;
        const std::optional<T> r = parse(s);
        if (!r)
            return fail(
                path, Tr::tr("is \"%1\"; it should be one of %2.").arg(s, QLatin1String(allowed)));
        out = *r;
        return true;
    }

    // A list of rows of numbers, `rows` x `cols` (-1 = any); [] reads as an empty matrix when
    // `allowEmpty`. Every row's length is checked before the matrix is allocated: a file cannot
    // reserve numbers it does not hold (a long first row and 10^6 empty ones would otherwise ask
    // for 10^12 doubles).
    bool matrix(const QJsonValue& v, const QString& path, long rows, long cols, bool allowEmpty,
                attn::Matrix& out)
    {
        QJsonArray a;
        if (!array(v, path, a)) return false;
        if (a.isEmpty() && allowEmpty) {
            out.resize(0, 0);
            return true;
        }
        if (rows >= 0 && a.size() != rows)
            return fail(path, Tr::tr("should have %1 rows but has %2.").arg(rows).arg(a.size()));
        if (a.isEmpty()) return fail(path, Tr::tr("has no rows."));
        qsizetype width = 0;
        for (qsizetype i = 0; i < a.size(); ++i) {
            const QString rowPath = element(path, i);
            QJsonArray r;
            if (!array(a[i], rowPath, r)) return false;
            if (i == 0) {
                if (cols >= 0 && r.size() != cols)
                    return fail(
                        rowPath,
                        Tr::tr("should have %1 numbers but has %2.").arg(cols).arg(r.size()));
                if (r.isEmpty()) return fail(rowPath, Tr::tr("has no numbers."));
                width = r.size();
            } else if (r.size() != width) {
                return fail(rowPath, Tr::tr("has %1 numbers but the first row has %2; every row "
                                            "must have the same length.")
                                         .arg(r.size())
                                         .arg(width));
            }
        }
        attn::Matrix m(static_cast<long>(a.size()), static_cast<long>(width));
        for (qsizetype i = 0; i < a.size(); ++i) {
            const QString rowPath = element(path, i);
            const QJsonArray r = a[i].toArray();
            for (qsizetype j = 0; j < r.size(); ++j) {
                if (!number(r[j], element(rowPath, j),
                            m(static_cast<long>(i), static_cast<long>(j))))
                    return false;
            }
        }
        out = std::move(m);
        return true;
    }

    bool vector(const QJsonValue& v, const QString& path, long size, attn::Vector& out)
    {
        QJsonArray a;
        if (!array(v, path, a)) return false;
        if (a.isEmpty()) {
            out.resize(0);
            return true;
        }
        if (a.size() != size)
            return fail(path, Tr::tr("should have %1 numbers but has %2.").arg(size).arg(a.size()));
        out.resize(size);
        for (qsizetype j = 0; j < a.size(); ++j) {
            if (!number(a[j], element(path, j), out(static_cast<long>(j)))) return false;
        }
        return true;
    }

private:
    QString origin_;
    FileError& error_;
    const QSet<QString>* negativeZeros_ = nullptr;
};

bool readSequence(Reader& r, const QJsonValue& v, const QString& path, long dModel,
                  QStringList& tokens, attn::Matrix& embeddings);
bool readOptions(Reader& r, const QJsonValue& v, attn::AttentionInput& in);
// Biases (b_Q, b_K, b_V) are fields from format version 2 on.
bool readProjections(Reader& r, const QJsonValue& v, long version, Session& s);
bool readProvenance(Reader& r, const QJsonValue& v, ModelProvenance& out);
bool readEdits(Reader& r, const QJsonValue& v, std::vector<attn::VectorEdit>& out);
bool readView(Reader& r, const QJsonValue& v, ViewState& view);
bool readSeed(Reader& r, const QJsonValue& v, quint64& seed);

}  // namespace attnlab::sessionio
