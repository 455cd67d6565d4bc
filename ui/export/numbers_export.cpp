// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/export/numbers_export.h"

#include <cmath>
#include <nlohmann/json.hpp>

#include <QCoreApplication>
#include <QLocale>

#include "ui/readers/atomic_file.h"

namespace attnlab {

namespace {

class NumbersExportTr {
    Q_DECLARE_TR_FUNCTIONS(attnlab::NumbersExport)
};

QByteArray jsonString(const QString& s)
{
    return QByteArray::fromStdString(
        nlohmann::json(s.toStdString())
            .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
}

QByteArray jsonStrings(const QStringList& list)
{
    QByteArray out = "[";
    for (qsizetype i = 0; i < list.size(); ++i) out += (i ? ", " : "") + jsonString(list[i]);
    return out + ']';
}

QByteArray jsonNumber(double v)
{
    return std::isfinite(v) ? exactNumber(v) : QByteArray("null");
}

template <typename Get>
QByteArray jsonRows(long rows, long cols, const QByteArray& indent, Get get)
{
    QByteArray out = "[";
    for (long i = 0; i < rows; ++i) {
        out += (i ? ",\n" + indent + ' ' : QByteArray()) + '[';
        for (long j = 0; j < cols; ++j) out += (j ? ", " : "") + get(i, j);
        out += ']';
    }
    return out + ']';
}

QByteArray jsonMatrix(const attn::Matrix& m, const QByteArray& indent)
{
    return jsonRows(m.rows(), m.cols(), indent,
                    [&](long i, long j) { return jsonNumber(m(i, j)); });
}

template <typename V>
QByteArray jsonVector(const V& v)
{
    QByteArray out = "[";
    for (long i = 0; i < static_cast<long>(v.size()); ++i) {
        if (i) out += ", ";
        if constexpr (std::is_same_v<V, std::vector<bool>>)
            out += v[static_cast<std::size_t>(i)] ? "true" : "false";
        else if constexpr (std::is_same_v<typename V::Scalar, int>)
            out += QByteArray::number(v(i));
        else
            out += jsonNumber(v(i));
    }
    return out + ']';
}

QByteArray csvField(const QString& s)
{
    QByteArray b = s.toUtf8();
    if (b.contains(',') || b.contains('"') || b.contains('\n') || b.contains('\r')) {
        b.replace("\"", "\"\"");
        b = '"' + b + '"';
    }
    return b;
}

struct NamedMatrix {
    const char* key;
    const attn::Matrix* m;
    bool keyRows;     // rows are keys (K, V)
    bool components;  // columns are components, not keys
};

// With rotary positions, Q and K turned by their positions follow K: the scores are made from
// those, so that scores = Q_rotated K_rotated^T holds in the exported numbers too.
std::vector<NamedMatrix> headMatrices(const attn::HeadResult& hr)
{
    std::vector<NamedMatrix> list{{"Q", &hr.Q, false, true}, {"K", &hr.K, true, true}};
    if (hr.rotatedQ.size() != 0) {
        list.push_back({"Q_rotated", &hr.rotatedQ, false, true});
        list.push_back({"K_rotated", &hr.rotatedK, true, true});
    }
    list.insert(list.end(), {{"V", &hr.V, true, true},
                             {"scores", &hr.scores, false, false},
                             {"scaled", &hr.scaled, false, false},
                             {"weights", &hr.weights, false, false},
                             {"output", &hr.output, false, true}});
    return list;
}

attn::Matrix maskMatrix(const attn::HeadResult& hr)
{
    if (hr.mask.rows() == hr.weights.rows() && hr.mask.cols() == hr.weights.cols())
        return hr.mask.cast<double>();
    return attn::Matrix::Ones(hr.weights.rows(), hr.weights.cols());
}

}  // namespace

std::size_t estimateNumbersBytes(const attn::AttentionInput& in, NumbersFormat format)
{
    const auto n = static_cast<std::size_t>(std::max<long>(in.queryCount(), 0));
    const auto m = static_cast<std::size_t>(std::max<long>(in.keyCount(), 0));
    const auto h = in.heads.size();
    const auto dk = static_cast<std::size_t>(std::max<long>(in.keyDim(), 0));
    const auto dv = static_cast<std::size_t>(std::max<long>(in.valueDim(), 0));
    const auto d = static_cast<std::size_t>(std::max<long>(in.modelDim(), 1));
    // Per head: scores, scaled and weights (n x m numbers), the mask (n x m booleans), Q, K, V
    // and the output; then concat, output and five diagnostics per row.
    const std::size_t rotated = in.rope ? n * dk + m * dk : 0;  // Q and K turned (RoPE)
    const std::size_t numbers = h * (3 * n * m + n * dk + m * dk + m * dv + n * dv + rotated) +
                                n * h * dv + n * d + 5 * h * n;
    const std::size_t booleans = h * n * m;
    // Measured: about 17 bytes per number in JSON ("0.0123456789012345, "), 6 per boolean; a CSV
    // line repeats the head, stage, row, column and both tokens (about 40 bytes more).
    if (format == NumbersFormat::Json) return 18 * numbers + 6 * booleans + 4096;
    return 60 * (numbers + booleans) + 4096;
}

QString numbersCostText(const attn::AttentionInput& in, NumbersFormat format)
{
    const std::size_t out = estimateNumbersBytes(in, format);
    // The text is built whole in memory, beside the core's result (every stage kept).
    const std::size_t memory = out + attn::estimateBytes(in, sizeof(double));
    return NumbersExportTr::tr("This would write about %1 and needs about %2 of memory.")
        .arg(QLocale().formattedDataSize(static_cast<qint64>(out)),
             QLocale().formattedDataSize(static_cast<qint64>(memory)));
}

QByteArray exactNumber(double v)
{
    // "-0" would read back as the integer 0: keep the sign of negative zero.
    if (v == 0.0 && std::signbit(v)) return QByteArrayLiteral("-0.0");
    // The shortest text that reads back as the same double (at most 17 digits).
    return QByteArray::number(v, 'g', QLocale::FloatingPointShortest);
}

QStringList numberStageKeys()
{
    return {QStringLiteral("Q"),       QStringLiteral("K"),      QStringLiteral("V"),
            QStringLiteral("scores"),  QStringLiteral("scaled"), QStringLiteral("mask"),
            QStringLiteral("weights"), QStringLiteral("output")};
}

QByteArray resultToJson(const Session& session, const attn::AttentionResult& result)
{
    const long n = result.output.rows();
    const long m = result.heads.empty() ? 0 : result.heads.front().weights.cols();
    QByteArray out = "{\n  \"format\": \"attnlab-compute\",\n  \"version\": 1,\n";
    out += "  \"tokens\": {\"queries\": " + jsonStrings(labelsFor(session.targetTokens, n)) +
           ", \"keys\": " + jsonStrings(labelsFor(keyTokens(session), m)) + "},\n";
    out += "  \"heads\": [";
    const QByteArray ind = "      ";
    for (std::size_t h = 0; h < result.heads.size(); ++h) {
        const attn::HeadResult& hr = result.heads[h];
        out += h ? ",\n    {" : "\n    {";
        const auto field = [&](const char* key, const QByteArray& value, bool first = false) {
            out += (first ? "\n" : ",\n") + ind + '"' + key + "\": " + value;
        };
        field("Q", jsonMatrix(hr.Q, ind), true);
        field("K", jsonMatrix(hr.K, ind));
        if (hr.rotatedQ.size() != 0) {
            field("Q_rotated", jsonMatrix(hr.rotatedQ, ind));
            field("K_rotated", jsonMatrix(hr.rotatedK, ind));
        }
        field("V", jsonMatrix(hr.V, ind));
        field("scores", jsonMatrix(hr.scores, ind));
        field("scaled", jsonMatrix(hr.scaled, ind));
        const attn::Matrix mask = maskMatrix(hr);
        field("mask", jsonRows(mask.rows(), mask.cols(), ind, [&](long i, long j) {
                  return QByteArray(mask(i, j) != 0.0 ? "true" : "false");
              }));
        field("weights", jsonMatrix(hr.weights, ind));
        field("output", jsonMatrix(hr.output, ind));
        out += "\n    }";
    }
    out += "\n  ],\n  \"concat\": " + jsonMatrix(result.concat, "  ") + ",\n";
    out += "  \"output\": " + jsonMatrix(result.output, "  ") + ",\n";
    out += "  \"diagnostics\": [";
    for (std::size_t h = 0; h < result.heads.size(); ++h) {
        const attn::RowDiagnostics& d = result.heads[h].diagnostics;
        out += QByteArray(h ? "," : "") + "\n    {\"entropy\": " + jsonVector(d.entropy) +
               ",\n     \"maxWeight\": " + jsonVector(d.maxWeight) +
               // Columns from 1 as everywhere else, 0 for a fully masked row.
               ",\n     \"argmax\": " + jsonVector(Eigen::VectorXi(d.argmax.array() + 1)) +
               ",\n     \"jacobianNorm\": " + jsonVector(d.jacobianNorm) +
               ",\n     \"fullyMasked\": " + jsonVector(d.fullyMasked) + '}';
    }
    out += "\n  ]\n}\n";
    return out;
}

QByteArray resultToLongCsv(const Session& session, const attn::AttentionResult& result)
{
    const long n = result.output.rows();
    const long m = result.heads.empty() ? 0 : result.heads.front().weights.cols();
    const QStringList queries = labelsFor(session.targetTokens, n);
    const QStringList keys = labelsFor(keyTokens(session), m);
    QByteArray out = "head,stage,row,col,row_token,col_token,value\n";
    const auto put = [&](int head, const char* stage, const attn::Matrix& mat, bool keyRows,
                         bool comps) {
        const QStringList& rl = keyRows ? keys : queries;
        for (long i = 0; i < mat.rows(); ++i) {
            const QByteArray prefix =
                QByteArray::number(head) + ',' + stage + ',' + QByteArray::number(i + 1) + ',';
            const QByteArray rowTok = csvField(i < rl.size() ? rl[i] : QString());
            for (long j = 0; j < mat.cols(); ++j) {
                const QString ct = comps ? QString::number(j + 1) : keys.value(j);
                out += prefix + QByteArray::number(j + 1) + ',' + rowTok + ',' + csvField(ct) +
                       ',' + (std::isfinite(mat(i, j)) ? exactNumber(mat(i, j)) : "") + '\n';
            }
        }
    };
    for (std::size_t h = 0; h < result.heads.size(); ++h) {
        const attn::HeadResult& hr = result.heads[h];
        const int head = static_cast<int>(h) + 1;
        for (const NamedMatrix& nm : headMatrices(hr)) {
            if (std::string_view(nm.key) == "weights")
                put(head, "mask", maskMatrix(hr), false, false);
            put(head, nm.key, *nm.m, nm.keyRows, nm.components);
        }
        const attn::RowDiagnostics& d = hr.diagnostics;
        const auto diag = [&](const char* stage, auto get) {
            for (long i = 0; i < n; ++i)
                out += QByteArray::number(head) + ',' + stage + ',' + QByteArray::number(i + 1) +
                       ",," + csvField(queries.value(i)) + ",," + get(i) + '\n';
        };
        diag("entropy", [&](long i) { return jsonNumber(d.entropy(i)); });
        diag("maxWeight", [&](long i) { return jsonNumber(d.maxWeight(i)); });
        diag("argmax", [&](long i) { return QByteArray::number(d.argmax(i) + 1); });
        diag("jacobianNorm", [&](long i) { return jsonNumber(d.jacobianNorm(i)); });
        diag("fullyMasked", [&](long i) {
            return QByteArray(d.fullyMasked[static_cast<std::size_t>(i)] ? "1" : "0");
        });
    }
    put(0, "concat", result.concat, false, true);
    put(0, "output", result.output, false, true);
    return out;
}

QByteArray matrixToCsv(const attn::Matrix& m, const QStringList& rowLabels,
                       const QStringList& columnLabels, const QString& corner)
{
    QByteArray out = csvField(corner);
    for (long j = 0; j < m.cols(); ++j) out += ',' + csvField(columnLabels.value(j));
    out += '\n';
    for (long i = 0; i < m.rows(); ++i) {
        out += csvField(rowLabels.value(i));
        for (long j = 0; j < m.cols(); ++j)
            out += ',' + (std::isfinite(m(i, j)) ? exactNumber(m(i, j)) : QByteArray());
        out += '\n';
    }
    return out;
}

std::vector<std::pair<QString, QByteArray>> resultToCsvFiles(const Session& session,
                                                             const attn::AttentionResult& result)
{
    std::vector<std::pair<QString, QByteArray>> files;
    const long n = result.output.rows();
    const long m = result.heads.empty() ? 0 : result.heads.front().weights.cols();
    const QStringList queries = labelsFor(session.targetTokens, n);
    const QStringList keys = labelsFor(keyTokens(session), m);
    const QString qk = NumbersExportTr::tr("query \\ key");
    for (std::size_t h = 0; h < result.heads.size(); ++h) {
        const attn::HeadResult& hr = result.heads[h];
        const QString base = QStringLiteral("head%1.").arg(h + 1);
        for (const NamedMatrix& nm : headMatrices(hr)) {
            const QString key = QString::fromLatin1(nm.key);
            if (key == QLatin1String("weights"))
                files.emplace_back(base + QStringLiteral("mask.csv"),
                                   matrixToCsv(maskMatrix(hr), queries, keys, qk));
            const QString corner = nm.components
                                       ? (nm.keyRows ? NumbersExportTr::tr("key \\ component")
                                                     : NumbersExportTr::tr("query \\ component"))
                                       : qk;
            files.emplace_back(
                base + key + QStringLiteral(".csv"),
                matrixToCsv(*nm.m, nm.keyRows ? keys : queries,
                            nm.components ? componentLabels(nm.m->cols()) : keys, corner));
        }
        const attn::RowDiagnostics& d = hr.diagnostics;
        attn::Matrix diag(n, 5);
        for (long i = 0; i < n; ++i)
            diag.row(i) << d.entropy(i), d.maxWeight(i), d.argmax(i) + 1.0, d.jacobianNorm(i),
                d.fullyMasked[static_cast<std::size_t>(i)] ? 1.0 : 0.0;
        files.emplace_back(base + QStringLiteral("diagnostics.csv"),
                           matrixToCsv(diag, queries,
                                       {QStringLiteral("entropy"), QStringLiteral("maxWeight"),
                                        QStringLiteral("argmax"), QStringLiteral("jacobianNorm"),
                                        QStringLiteral("fullyMasked")},
                                       NumbersExportTr::tr("query")));
    }
    const QString qc = NumbersExportTr::tr("query \\ component");
    files.emplace_back(
        QStringLiteral("concat.csv"),
        matrixToCsv(result.concat, queries, componentLabels(result.concat.cols()), qc));
    files.emplace_back(
        QStringLiteral("output.csv"),
        matrixToCsv(result.output, queries, componentLabels(result.output.cols()), qc));
    return files;
}

bool writeBytes(const QString& path, const QByteArray& bytes, QString& error)
{
    QString problem;
    if (!writeFileAtomically(path, bytes, problem)) {
        error = NumbersExportTr::tr("%1: could not write (%2)").arg(path, problem);
        return false;
    }
    return true;
}

}  // namespace attnlab
